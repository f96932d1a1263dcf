package playback

import (
	"context"
	"fmt"
	"io"
	"math"
	"strconv"
	"sync"
	"time"

	"mediateka/domain"
	"mediateka/usecase/catalog"
)

// RemuxRequest is what a remux URL asks for.
type RemuxRequest struct {
	// Audio is the audio track (AudioTrack.Index); nil: the track the file
	// marks as default, else the first.
	Audio *int
	// Start is where to begin, in seconds from the film's start.
	Start float64
}

// remuxTarget is a checked remux request: the file, and the audio track
// as ffmpeg selects it (-1: the file has no sound).
type remuxTarget struct {
	file  catalog.StreamFile
	info  domain.MediaInfo
	audio int
}

// checkRemux resolves and validates a remux of entry id: ffmpeg must be
// there, the entry must be a file, start within the film and the audio
// track one the file has.
func (s *Service) checkRemux(ctx context.Context, id int64, req RemuxRequest) (remuxTarget, error) {
	if s.opt.Transcoder == nil {
		return remuxTarget{}, ErrRemuxUnavailable
	}
	if req.Start < 0 || math.IsNaN(req.Start) || math.IsInf(req.Start, 0) {
		return remuxTarget{}, domain.ErrInvalid("start must be a number of seconds, 0 or more", map[string]string{"start": "must be a number of seconds, 0 or more"})
	}
	f, err := s.cat.Stream(ctx, id)
	if err != nil {
		return remuxTarget{}, err
	}
	info, _, err := s.probe(ctx, keyOf(f))
	if err != nil {
		return remuxTarget{}, fmt.Errorf("remux %d: %w", id, err)
	}
	if info.Duration > 0 && req.Start >= info.Duration {
		msg := fmt.Sprintf("is past the end: the film lasts %s s", strconv.FormatFloat(info.Duration, 'f', 3, 64))
		return remuxTarget{}, domain.ErrInvalid("start "+msg, map[string]string{"start": msg})
	}
	audio, err := pickAudio(info, req.Audio)
	return remuxTarget{file: f, info: info, audio: audio}, err
}

// pickAudio is the audio track to convert: the one asked for, else the
// default one, else the first; -1 when the file has none.
func pickAudio(info domain.MediaInfo, asked *int) (int, error) {
	tracks := info.Audio()
	if asked != nil {
		if *asked < 0 || *asked >= len(tracks) {
			msg := fmt.Sprintf("no audio track %d: the file has %d, numbered from 0", *asked, len(tracks))
			return 0, domain.ErrInvalid(msg, map[string]string{"audio": msg})
		}
		return *asked, nil
	}
	for i, t := range tracks {
		if t.Default {
			return i, nil
		}
	}
	if len(tracks) == 0 {
		return -1, nil
	}
	return 0, nil
}

// RemuxStart is where the remux of req really begins, in seconds from the
// film's start: with the video copied it can only begin on a keyframe,
// the one at or before req.Start, and that point is the stream's time 0.
// It runs no ffmpeg (a HEAD of the remux URL answers with it), and checks
// the request as Remux does.
func (s *Service) RemuxStart(ctx context.Context, id int64, req RemuxRequest) (float64, error) {
	t, err := s.checkRemux(ctx, id, req)
	if err != nil || req.Start == 0 || s.opt.Prober == nil {
		return req.Start, err
	}
	k, err := s.opt.Prober.Keyframe(ctx, t.file.Path, req.Start+t.info.Start)
	if err != nil {
		return 0, fmt.Errorf("remux %d: %w", id, err)
	}
	return min(req.Start, max(0, k-t.info.Start)), nil
}

// Remux starts ffmpeg on entry id's file and returns its fragmented MP4 as
// it is made. At most MaxRemuxes run at once: a request waits a moment for
// a slot (a player that seeks ends its previous stream just before), then
// gets ErrRemuxBusy. Closing the stream ends the process, and so does the
// end of ctx; the slot is free once the process is gone.
func (s *Service) Remux(ctx context.Context, id int64, req RemuxRequest) (io.ReadCloser, error) {
	t, err := s.checkRemux(ctx, id, req)
	if err != nil {
		return nil, err
	}
	if err := s.takeRemuxSlot(ctx); err != nil {
		return nil, err
	}
	out, err := s.opt.Transcoder.Remux(ctx, t.file.Path, t.audio, req.Start)
	if err != nil {
		<-s.remuxes
		return nil, fmt.Errorf("remux %d: %w", id, err)
	}
	return &slotStream{ReadCloser: out, release: func() { <-s.remuxes }}, nil
}

// takeRemuxSlot waits up to remuxWait for a free remux slot.
func (s *Service) takeRemuxSlot(ctx context.Context) error {
	wait := time.NewTimer(remuxWait)
	defer wait.Stop()
	select {
	case s.remuxes <- struct{}{}:
		return nil
	case <-wait.C:
		return ErrRemuxBusy
	case <-ctx.Done():
		return fmt.Errorf("wait for a remux slot: %w", ctx.Err())
	}
}

// slotStream gives its remux slot back once its process is gone.
type slotStream struct {
	io.ReadCloser
	once    sync.Once
	release func()
}

// Close ends the remux and frees its slot.
func (s *slotStream) Close() error {
	err := s.ReadCloser.Close()
	s.once.Do(s.release)
	return err
}
