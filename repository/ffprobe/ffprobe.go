// Package ffprobe reads the streams of a media file (video, audio tracks,
// embedded subtitles) by running ffprobe from FFmpeg, the Debian package
// "ffmpeg". No Go wrapper of ffprobe is available here, and the program's
// JSON output is stable, so this package runs it and decodes that output.
package ffprobe

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"mediateka/domain"
)

// DefaultTimeout bounds one probe: ffprobe reads only the headers, so a
// file that takes longer sits on a dead disk or share.
const DefaultTimeout = 15 * time.Second

// MaxConcurrent is how many ffprobe processes one Prober runs at once.
// Each question about a title's tracks starts one; forty people asking at
// once must not start forty processes on a small server, so the rest wait
// for a slot (or for their context to end).
const MaxConcurrent = 2

// ErrNotInstalled is returned by New when ffprobe is not on the PATH.
var ErrNotInstalled = errors.New("ffprobe is not installed (Debian package ffmpeg)")

// Prober runs ffprobe, at most MaxConcurrent at a time. It is safe for
// concurrent use.
type Prober struct {
	bin     string
	timeout time.Duration
	slots   chan struct{}
}

// New finds ffprobe (bin, or "ffprobe" on the PATH when bin is empty).
func New(bin string, timeout time.Duration) (*Prober, error) {
	if bin == "" {
		bin = "ffprobe"
	}
	path, err := exec.LookPath(bin)
	if err != nil {
		return nil, ErrNotInstalled
	}
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	return &Prober{bin: path, timeout: timeout, slots: make(chan struct{}, MaxConcurrent)}, nil
}

// probeOutput is the part of `ffprobe -print_format json -show_streams
// -show_format` this package reads.
type probeOutput struct {
	Streams []struct {
		Index       int               `json:"index"`
		CodecName   string            `json:"codec_name"`
		CodecType   string            `json:"codec_type"`
		Channels    int               `json:"channels"`
		Tags        map[string]string `json:"tags"`
		Disposition map[string]int    `json:"disposition"`
	} `json:"streams"`
	Format struct {
		Duration string `json:"duration"`
	} `json:"format"`
}

// Streams lists the streams of the file at path, in container order.
// It waits for a free slot first; a context that ends while waiting ends
// the call without running anything.
func (p *Prober) Streams(ctx context.Context, path string) ([]domain.MediaStream, error) {
	info, err := p.Probe(ctx, path)
	return info.Streams, err
}

// Probe reads the file's duration and streams (the video codec is its
// video stream's), in one run of ffprobe, within the same bound of
// MaxConcurrent processes as Streams.
func (p *Prober) Probe(ctx context.Context, path string) (domain.MediaInfo, error) {
	select {
	case p.slots <- struct{}{}:
		defer func() { <-p.slots }()
	case <-ctx.Done():
		return domain.MediaInfo{}, fmt.Errorf("ffprobe %s: waiting for a free slot: %w", filepath.Base(path), ctx.Err())
	}
	ctx, cancel := context.WithTimeout(ctx, p.timeout)
	defer cancel()
	if !filepath.IsAbs(path) {
		path = "./" + path // a relative name starting with "-" must not read as an option
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, p.bin, "-v", "error", "-print_format", "json", "-show_streams", "-show_format", path)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return domain.MediaInfo{}, fmt.Errorf("ffprobe %s: %w: %s", filepath.Base(path), err, strings.TrimSpace(stderr.String()))
	}
	var out probeOutput
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		return domain.MediaInfo{}, fmt.Errorf("ffprobe %s: unreadable output: %w", filepath.Base(path), err)
	}
	return out.info(), nil
}

// info maps ffprobe's answer; a duration that is missing or not a
// positive number is 0 (unknown).
func (out probeOutput) info() domain.MediaInfo {
	info := domain.MediaInfo{Streams: make([]domain.MediaStream, 0, len(out.Streams))}
	if d, err := strconv.ParseFloat(out.Format.Duration, 64); err == nil && d > 0 && !math.IsInf(d, 0) {
		info.Duration = d
	}
	for _, s := range out.Streams {
		info.Streams = append(info.Streams, domain.MediaStream{
			Index: s.Index, Type: s.CodecType, Codec: s.CodecName, Channels: s.Channels,
			Language: tag(s.Tags, "language"), Title: tag(s.Tags, "title"), Default: s.Disposition["default"] == 1,
			Picture: s.Disposition["attached_pic"] == 1,
		})
	}
	return info
}

// tag reads a tag whatever its case (Matroska writes "language", some
// muxers "LANGUAGE"); "und" (undetermined) counts as no language.
func tag(tags map[string]string, name string) string {
	for k, v := range tags {
		if strings.EqualFold(k, name) {
			if strings.EqualFold(v, "und") {
				return ""
			}
			return v
		}
	}
	return ""
}
