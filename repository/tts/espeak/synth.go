package espeak

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"mediateka/domain"
	"mediateka/repository/procgroup"
)

// Synthesize implements domain.SpeechEngine. espeak-ng reads text on
// stdin and writes a WAV on stdout as it speaks; for mp3 and ogg that
// stream goes through ffmpeg, which writes w as it encodes. Input is
// checked and a slot taken before anything starts, so every error before
// the first write leaves w untouched.
func (e *Engine) Synthesize(ctx context.Context, text, voice string, format domain.AudioFormat, w io.Writer) error {
	if !format.Valid() {
		return domain.ErrInvalid("unknown audio format", map[string]string{"format": "must be mp3, wav or ogg"})
	}
	bin, err := e.espeakPath()
	if err != nil {
		return err
	}
	id, err := e.voice(ctx, voice)
	if err != nil {
		return err
	}
	ffmpeg := ""
	if format != domain.AudioWAV {
		if ffmpeg, err = exec.LookPath(e.opt.FFmpeg); err != nil {
			return domain.TTSUnavailable("mp3 and ogg from espeak need ffmpeg: apt-get install ffmpeg, or ask for wav", err)
		}
	}
	select {
	case e.slots <- struct{}{}:
		defer func() { <-e.slots }()
	case <-ctx.Done():
		return fmt.Errorf("espeak: waiting for a free slot: %w", ctx.Err())
	}
	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	out := &stopOnError{w: w, stop: cancel}
	speak := e.command(ctx, bin, e.espeakArgs(id)...)
	speak.Stdin = strings.NewReader(text)
	if ffmpeg == "" {
		speak.Stdout = out
		return finish(parent, out, "espeak-ng", speak.Run(), speak)
	}
	return e.pipe(parent, speak, e.command(ctx, ffmpeg, encodeArgs(format)...), out)
}

// espeakArgs is the espeak-ng command line for voice: UTF-8 text on
// stdin, the configured rate and pitch, WAV on stdout.
func (e *Engine) espeakArgs(voice string) []string {
	args := []string{"-b", "1", "-v", voice, "--stdout"}
	if e.opt.Rate > 0 {
		args = append(args, "-s", strconv.Itoa(e.opt.Rate))
	}
	if e.opt.Pitch > 0 {
		args = append(args, "-p", strconv.Itoa(e.opt.Pitch))
	}
	return args
}

// encodeArgs is the ffmpeg command line turning espeak-ng's WAV on stdin
// into format on stdout, every packet flushed as soon as it is made. mp3
// is bare constant-bitrate frames, without the ID3 tag and the Xing frame
// ffmpeg would begin with: a pipe cannot go back to fill in the Xing
// frame's counts anyway, and bare frames join into one stream, sentence
// after sentence, that players and MediaSource read as one.
func encodeArgs(format domain.AudioFormat) []string {
	args := []string{"-nostdin", "-hide_banner", "-v", "error", "-f", "wav", "-i", "pipe:0", "-flush_packets", "1"}
	if format == domain.AudioOGG {
		return append(args, "-c:a", "libopus", "-b:a", "32k", "-ar", "48000", "-f", "ogg", "pipe:1")
	}
	return append(args, "-c:a", "libmp3lame", "-b:a", "64k", "-id3v2_version", "0", "-write_xing", "0", "-f", "mp3", "pipe:1")
}

// command builds a process in a group of its own that ctx's end kills,
// with the end of its error output kept for the error message.
func (e *Engine) command(ctx context.Context, bin string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, bin, args...)
	procgroup.Own(cmd)
	cmd.WaitDelay = time.Second
	cmd.Stderr = &procgroup.Tail{}
	return cmd
}

// pipe runs speak | encode > out and waits for both; either failing
// stops the other, and the error told is the one that failed first (the
// other was only stopped). parent is the caller's context: its end is a
// cancellation, not a failure of either program.
func (e *Engine) pipe(parent context.Context, speak, encode *exec.Cmd, out *stopOnError) error {
	r, w, err := os.Pipe()
	if err != nil {
		return fmt.Errorf("espeak: %w", err)
	}
	speak.Stdout, encode.Stdin, encode.Stdout = w, r, out
	err = speak.Start()
	if err == nil {
		if err = encode.Start(); err != nil {
			out.stop()
			_ = speak.Wait()
		}
	}
	r.Close() // the children hold their own ends now
	w.Close()
	if err != nil {
		return fmt.Errorf("espeak: start: %w", err)
	}
	var speakErr error
	var first string
	var once sync.Once
	fail := func(program string) { once.Do(func() { first = program }); out.stop() }
	var wg sync.WaitGroup
	wg.Go(func() {
		if speakErr = speak.Wait(); speakErr != nil {
			fail("espeak-ng")
		}
	})
	encodeErr := encode.Wait()
	if encodeErr != nil {
		fail("ffmpeg")
	}
	wg.Wait()
	if first == "ffmpeg" {
		return finish(parent, out, "ffmpeg", encodeErr, encode)
	}
	if err := finish(parent, out, "espeak-ng", speakErr, speak); err != nil {
		return err
	}
	return finish(parent, out, "ffmpeg", encodeErr, encode)
}

// finish turns a process's end into the error Synthesize returns: the
// writer's own failure, the caller's cancellation, or the program's
// failure with the end of what it printed.
func finish(ctx context.Context, out *stopOnError, program string, err error, cmd *exec.Cmd) error {
	switch {
	case out.failed() != nil:
		return fmt.Errorf("espeak: writing the audio: %w", out.failed())
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return fmt.Errorf("espeak: %s stopped: %w", program, context.Cause(ctx))
	}
	return fmt.Errorf("espeak: %s: %w: %s", program, err, cmd.Stderr.(*procgroup.Tail).String())
}

// stopOnError passes writes to w and, on the first failure (a client
// gone), cancels the synthesis so no process blocks on a full pipe.
type stopOnError struct {
	w    io.Writer
	stop context.CancelFunc
	mu   sync.Mutex
	err  error
}

// Write implements io.Writer.
func (s *stopOnError) Write(p []byte) (int, error) {
	n, err := s.w.Write(p)
	if err != nil {
		s.mu.Lock()
		s.err = err
		s.mu.Unlock()
		s.stop()
	}
	return n, err
}

// failed is the writer's first failure, nil while it had none.
func (s *stopOnError) failed() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}
