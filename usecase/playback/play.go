package playback

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"mediateka/domain"
	"mediateka/usecase/catalog"
)

// Playback modes.
const (
	ModeDirect = "direct" // the browser plays the file as it is
	ModeRemux  = "remux"  // ffmpeg copies the video and converts the sound
)

// Warnings of a /play answer in direct mode that may not play.
const (
	warnNoFFmpeg  = "ffmpeg is not installed on the server: the file is sent as it is and a browser may not play it"
	warnNoFFprobe = "ffprobe is not installed on the server: the file's tracks are unknown and a browser may not play it"
	warnUnread    = "the file's tracks could not be read; a browser may not play it"
)

// Info is the answer of GET /api/media/{id}/play: everything a player
// needs to start an entry. Its JSON is the answer's wire form (docs/API.md
// §3), shared by the HTTP route and the rooms, whose players receive it
// under "play", so the two cannot drift apart.
type Info struct {
	MediaID        int64           `json:"media_id"`
	Title          string          `json:"title"`
	Mode           string          `json:"mode"`
	StreamURL      string          `json:"stream_url"`
	ThumbnailURL   string          `json:"thumbnail_url"`
	Subtitles      []SubtitleTrack `json:"subtitles"`
	AudioTracks    []AudioTrack    `json:"audio_tracks"`
	Duration       float64         `json:"duration"`
	ResumePosition float64         `json:"resume_position"`
	ExpiresAt      time.Time       `json:"expires_at"`
	Warning        string          `json:"warning,omitempty"`
}

// SubtitleTrack is a sidecar subtitle as WebVTT, its URL carrying the play
// token.
type SubtitleTrack struct {
	Index    int    `json:"index"`
	Language string `json:"language"`
	Label    string `json:"label"`
	URL      string `json:"url"`
}

// AudioTrack is one audio stream of the file; Index counts the audio
// streams from 0 and is what the remux's audio parameter takes.
type AudioTrack struct {
	Index    int    `json:"index"`
	Language string `json:"language"`
	Label    string `json:"label"`
	Codec    string `json:"codec"`
	Channels int    `json:"channels"`
	Default  bool   `json:"default"`
}

// Play is the /play answer for account u and entry id: a movie or episode
// (or a season that is one file); a series or season folder is
// ErrNotPlayable. The URLs carry a play token for u and this entry alone.
func (s *Service) Play(ctx context.Context, u domain.User, id int64) (Info, error) {
	e, err := s.cat.Get(ctx, id)
	if err != nil {
		return Info{}, err
	}
	if !e.HasFile() {
		return Info{}, ErrNotPlayable
	}
	f, err := s.cat.Stream(ctx, id)
	if err != nil {
		return Info{}, err
	}
	probed, known, err := s.probe(ctx, keyOf(f))
	if err != nil {
		s.log.Warn("read the tracks of a file to play", "media_id", id, "err", err)
	}
	token, exp := s.issue(u, id)
	out := Info{MediaID: id, Title: e.Title, ExpiresAt: exp, Duration: probed.Duration,
		AudioTracks: audioTracks(probed), ThumbnailURL: fmt.Sprintf("/api/media/%d/thumbnail?st=%s", id, token)}
	out.Mode, out.Warning = s.mode(f.Path, probed, known, err)
	out.StreamURL = fmt.Sprintf("/api/media/%d/stream?st=%s", id, token)
	if out.Mode == ModeRemux {
		out.StreamURL += "&remux=1"
	}
	if out.Subtitles, err = s.subtitles(ctx, id, token); err != nil {
		return Info{}, err
	}
	out.ResumePosition = s.resume(ctx, u.ID, id)
	return out, nil
}

// ResolvePlay is Play for the account of a player in a room (the hub's
// PlayResolver): what the player receives under "play" with the play
// command.
func (s *Service) ResolvePlay(ctx context.Context, viewer domain.Caller, media domain.Media) (any, error) {
	u, err := s.users.ByID(ctx, viewer.UserID)
	if err != nil {
		return nil, fmt.Errorf("load the account of player %d: %w", viewer.UserID, err)
	}
	info, err := s.Play(ctx, u, media.ID)
	if err != nil {
		return nil, err
	}
	return info, nil
}

// mode decides between direct play and remux, and the warning of a direct
// play that may fail: without ffprobe or with a file it cannot read
// nothing is known; without ffmpeg nothing can be converted.
func (s *Service) mode(path string, info domain.MediaInfo, known bool, probeErr error) (string, string) {
	switch {
	case probeErr != nil:
		return ModeDirect, warnUnread
	case !known:
		return ModeDirect, warnNoFFprobe
	case browserPlays(path, info):
		return ModeDirect, ""
	case s.opt.Transcoder == nil:
		return ModeDirect, warnNoFFmpeg
	}
	return ModeRemux, ""
}

// browserPlays reports whether browsers play the file as it is: an MP4 or
// WebM container whose video and every audio track use codecs they all
// decode. One unplayable audio track sends the file to remux, where the
// player can pick any track.
func browserPlays(path string, info domain.MediaInfo) bool {
	if !slices.Contains([]string{".mp4", ".m4v", ".webm"}, strings.ToLower(filepath.Ext(path))) {
		return false
	}
	if v, ok := info.Video(); ok && !slices.Contains([]string{"h264", "vp8", "vp9", "av1"}, v.Codec) {
		return false
	}
	for _, a := range info.Audio() {
		if !slices.Contains([]string{"aac", "mp3", "opus", "vorbis"}, a.Codec) {
			return false
		}
	}
	return true
}

// audioTracks describes the audio streams; a track's label is its title,
// else its language's name, else "Track N".
func audioTracks(info domain.MediaInfo) []AudioTrack {
	audio := info.Audio()
	out := make([]AudioTrack, 0, len(audio))
	for i, a := range audio {
		lang, name := a.Language, ""
		if code, ok := catalog.LanguageCode(a.Language); ok {
			lang, name = code, catalog.LanguageName(code)
		}
		label := a.Title
		if label == "" {
			label = name
		}
		if label == "" {
			label = fmt.Sprintf("Track %d", i+1)
		}
		out = append(out, AudioTrack{Index: i, Language: lang, Label: label, Codec: a.Codec, Channels: a.Channels, Default: a.Default})
	}
	return out
}

// subtitles lists the sidecar subtitles with URLs that carry token.
func (s *Service) subtitles(ctx context.Context, id int64, token string) ([]SubtitleTrack, error) {
	subs, err := s.cat.Subtitles(ctx, id)
	if err != nil {
		return nil, err
	}
	out := make([]SubtitleTrack, 0, len(subs))
	for _, sub := range subs {
		out = append(out, SubtitleTrack{Index: sub.Index, Language: sub.Language, Label: sub.Label,
			URL: fmt.Sprintf("/api/media/%d/subtitles/%d.vtt?st=%s", id, sub.Index, token)})
	}
	return out, nil
}

// resume is where the account stopped in the entry; 0 without a watching
// state, or when it cannot be read (logged: playing from the start beats
// not playing).
func (s *Service) resume(ctx context.Context, userID, mediaID int64) float64 {
	if s.opt.Resume == nil {
		return 0
	}
	pos, err := s.opt.Resume.Position(ctx, userID, mediaID)
	if err != nil {
		s.log.Warn("read where a person stopped", "media_id", mediaID, "err", err)
		return 0
	}
	return max(0, pos)
}
