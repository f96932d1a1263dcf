// Package ffmpeg runs FFmpeg (the Debian package "ffmpeg") for playback:
// a remux of a film into fragmented MP4 that is read while ffmpeg makes
// it, and single frames for thumbnails. Every process runs in a process
// group of its own that is killed when its caller is done with it, so a
// viewer who goes away never leaves an ffmpeg behind.
package ffmpeg

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"

	"mediateka/repository/procgroup"
)

// ErrNotInstalled is returned by New when ffmpeg is not on the PATH.
var ErrNotInstalled = errors.New("ffmpeg is not installed (Debian package ffmpeg)")

// ThumbnailTimeout bounds one thumbnail: decoding one frame takes well
// under a second on a local disk, so a run that takes longer sits on a
// dead disk or share.
const ThumbnailTimeout = 30 * time.Second

// MaxThumbnails is how many thumbnail processes one Runner runs at once:
// a library page asks for dozens of thumbnails at a time, and a small
// server must not decode them all at once. Further calls wait for a slot
// or for their context to end.
const MaxThumbnails = 2

// ThumbnailWidth is the widest a thumbnail is made; smaller pictures keep
// their size.
const ThumbnailWidth = 480

// Runner runs ffmpeg. It is safe for concurrent use.
type Runner struct {
	bin    string
	log    *slog.Logger
	thumbs chan struct{}
}

// Options configure a Runner.
type Options struct {
	// Logger receives the error output of runs that failed.
	Logger *slog.Logger
}

// New finds ffmpeg (bin, or "ffmpeg" on the PATH when bin is empty).
func New(bin string, opt Options) (*Runner, error) {
	if bin == "" {
		bin = "ffmpeg"
	}
	path, err := exec.LookPath(bin)
	if err != nil {
		return nil, ErrNotInstalled
	}
	if opt.Logger == nil {
		opt.Logger = slog.New(slog.DiscardHandler)
	}
	return &Runner{bin: path, log: opt.Logger, thumbs: make(chan struct{}, MaxThumbnails)}, nil
}

// input is how a file is named on ffmpeg's command line: a relative name
// starting with "-" must not read as an option.
func input(path string) string {
	if filepath.IsAbs(path) {
		return path
	}
	return "./" + path
}

// seconds writes a time offset for -ss.
func seconds(s float64) string { return strconv.FormatFloat(s, 'f', 3, 64) }

// command builds an ffmpeg process in a process group of its own that
// ctx's end kills whole (see procgroup.Own), with its error output kept in
// stderr.
func (r *Runner) command(ctx context.Context, stderr *procgroup.Tail, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, r.bin, append([]string{"-nostdin", "-hide_banner", "-v", "error"}, args...)...)
	procgroup.Own(cmd)
	cmd.WaitDelay = time.Second
	cmd.Stderr = stderr
	return cmd
}

// Thumbnail is one frame of the video at path, taken at seconds at, as
// a JPEG at most ThumbnailWidth pixels wide. It waits for one of
// MaxThumbnails slots first. No picture made (no video stream, a position
// past the end, an unreadable file) is an error.
func (r *Runner) Thumbnail(ctx context.Context, path string, at float64) ([]byte, error) {
	select {
	case r.thumbs <- struct{}{}:
		defer func() { <-r.thumbs }()
	case <-ctx.Done():
		return nil, fmt.Errorf("thumbnail of %s: waiting for a free slot: %w", filepath.Base(path), ctx.Err())
	}
	ctx, cancel := context.WithTimeout(ctx, ThumbnailTimeout)
	defer cancel()
	stderr := &procgroup.Tail{}
	out := &capped{max: maxThumbnailBytes}
	cmd := r.command(ctx, stderr, "-ss", seconds(max(0, at)), "-i", input(path), "-map", "0:V:0", "-frames:v", "1",
		"-vf", "scale='min("+strconv.Itoa(ThumbnailWidth)+",iw)':-2", "-q:v", "4", "-c:v", "mjpeg", "-f", "image2pipe", "pipe:1")
	cmd.Stdout = out
	err := cmd.Run()
	if err != nil && ctx.Err() != nil { // killed for its deadline: nothing is known of the file
		return nil, fmt.Errorf("thumbnail of %s: %w (%v)", filepath.Base(path), ctx.Err(), err)
	}
	if err == nil && (out.over || out.buf.Len() == 0) {
		err = errors.New("ffmpeg wrote no picture, or one too large")
	}
	if err != nil {
		return nil, fmt.Errorf("thumbnail of %s: %w: %s", filepath.Base(path), err, stderr.String())
	}
	return out.buf.Bytes(), nil
}

// maxThumbnailBytes bounds a thumbnail held in memory; a 480-pixel JPEG
// is some tens of kilobytes.
const maxThumbnailBytes = 4 << 20

// capped keeps what is written up to max bytes and notes the excess.
type capped struct {
	buf  bytes.Buffer
	max  int
	over bool
}

// Write keeps p while there is room.
func (c *capped) Write(p []byte) (int, error) {
	if c.buf.Len()+len(p) > c.max {
		c.over = true
		return len(p), nil
	}
	return c.buf.Write(p)
}
