package ffmpeg

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"

	"mediateka/repository/procgroup"
)

// Remux starts ffmpeg on the file at path: its first video stream (cover
// art aside) copied as it is, audio track audio (counted among the
// file's audio tracks from 0; below 0: no sound) converted to stereo AAC,
// from seconds start on, into fragmented MP4 on ffmpeg's standard output.
// The stream returned reads that output as ffmpeg makes it; Close kills
// the process group when it still runs and waits for it, and so does the
// end of ctx. Seeking with start on the input lands on the keyframe at or
// before it, and the output's clock starts at 0 there.
func (r *Runner) Remux(ctx context.Context, path string, audio int, start float64) (io.ReadCloser, error) {
	ctx, cancel := context.WithCancel(ctx)
	stderr := &procgroup.Tail{}
	cmd := r.command(ctx, stderr, remuxArgs(path, audio, start)...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		cancel()
		return nil, fmt.Errorf("remux %s: %w", filepath.Base(path), err)
	}
	if err := cmd.Start(); err != nil {
		cancel()
		return nil, fmt.Errorf("remux %s: start ffmpeg: %w", filepath.Base(path), err)
	}
	return &remux{ctx: ctx, cmd: cmd, out: out, cancel: cancel, stderr: stderr, log: r.log, name: filepath.Base(path)}, nil
}

// remuxArgs is ffmpeg's command line for Remux. The input is read with
// a short probe (the container's headers name the codecs), so the first
// bytes come out quickly; the moov box is written first and empty and
// every keyframe starts a fragment, so a browser can play what it has
// received without the file's end.
func remuxArgs(path string, audio int, start float64) []string {
	args := []string{"-probesize", "1M", "-analyzeduration", "1000000"}
	if start > 0 {
		args = append(args, "-ss", seconds(start))
	}
	args = append(args, "-i", input(path), "-map", "0:V:0?", "-c:v", "copy")
	if audio >= 0 {
		args = append(args, "-map", "0:a:"+strconv.Itoa(audio), "-c:a", "aac", "-ac", "2")
	} else {
		args = append(args, "-an")
	}
	return append(args, "-sn", "-dn", "-map_metadata", "-1",
		"-movflags", "frag_keyframe+empty_moov+default_base_moof", "-f", "mp4", "pipe:1")
}

// remux is a running remux: its output, and the process behind it.
type remux struct {
	ctx    context.Context
	cmd    *exec.Cmd
	out    io.ReadCloser
	cancel context.CancelFunc
	stderr *procgroup.Tail
	log    *slog.Logger
	name   string
	// ended is set once the whole output was read.
	ended atomic.Bool
	once  sync.Once
}

// Read reads ffmpeg's output.
func (m *remux) Read(p []byte) (int, error) {
	n, err := m.out.Read(p)
	if err == io.EOF {
		m.ended.Store(true)
	}
	return n, err
}

// Close ends the process: a remux read to its end has exited by itself
// (a failure is logged with ffmpeg's last words); one abandoned midway is
// killed with its group. It returns once the process is gone.
func (m *remux) Close() error {
	m.once.Do(func() {
		ended := m.ended.Load()
		if !ended {
			m.cancel()
		}
		err := m.cmd.Wait()
		if err != nil && ended && m.ctx.Err() == nil {
			m.log.Warn("ffmpeg remux failed", "file", m.name, "err", err, "stderr", m.stderr.String())
		}
		m.cancel()
	})
	return nil
}
