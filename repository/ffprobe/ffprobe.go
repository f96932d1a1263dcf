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
		Duration  string `json:"duration"`
		StartTime string `json:"start_time"`
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
	raw, err := p.run(ctx, path, "-print_format", "json", "-show_streams", "-show_format")
	if err != nil {
		return domain.MediaInfo{}, err
	}
	var out probeOutput
	if err := json.Unmarshal(raw, &out); err != nil {
		return domain.MediaInfo{}, fmt.Errorf("ffprobe %s: unreadable output: %w", filepath.Base(path), err)
	}
	return out.info(), nil
}

// run runs ffprobe with args on the file at path and returns what it
// wrote. It waits for a free slot first; a context that ends while
// waiting ends the call without running anything.
func (p *Prober) run(ctx context.Context, path string, args ...string) ([]byte, error) {
	select {
	case p.slots <- struct{}{}:
		defer func() { <-p.slots }()
	case <-ctx.Done():
		return nil, fmt.Errorf("ffprobe %s: waiting for a free slot: %w", filepath.Base(path), ctx.Err())
	}
	ctx, cancel := context.WithTimeout(ctx, p.timeout)
	defer cancel()
	if !filepath.IsAbs(path) {
		path = "./" + path // a relative name starting with "-" must not read as an option
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, p.bin, append(append([]string{"-v", "error"}, args...), path)...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("ffprobe %s: %w: %s", filepath.Base(path), err, strings.TrimSpace(stderr.String()))
	}
	return stdout.Bytes(), nil
}

// info maps ffprobe's answer; a duration that is missing or not a
// positive number is 0 (unknown).
func (out probeOutput) info() domain.MediaInfo {
	info := domain.MediaInfo{Streams: make([]domain.MediaStream, 0, len(out.Streams))}
	info.Duration = seconds(out.Format.Duration)
	info.Start = seconds(out.Format.StartTime)
	for _, s := range out.Streams {
		info.Streams = append(info.Streams, domain.MediaStream{
			Index: s.Index, Type: s.CodecType, Codec: s.CodecName, Channels: s.Channels,
			Language: tag(s.Tags, "language"), Title: tag(s.Tags, "title"), Default: s.Disposition["default"] == 1,
			Picture: s.Disposition["attached_pic"] == 1,
		})
	}
	return info
}

// seconds reads a time ffprobe wrote; missing, negative or not a number
// is 0.
func seconds(s string) float64 {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || v <= 0 || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0
	}
	return v
}

// Keyframe is where a seek to at (in the container's own time, which
// starts at MediaInfo.Start) lands in the file's first video stream: the
// time of the first packet read after seeking there, the keyframe at or
// before at, as ffmpeg's input seeking (-ss before -i) finds it. A file
// with no packet there (at past the end) gives at. It shares the bound of
// MaxConcurrent processes.
func (p *Prober) Keyframe(ctx context.Context, path string, at float64) (float64, error) {
	raw, err := p.run(ctx, path, "-select_streams", "V:0", "-read_intervals", strconv.FormatFloat(at, 'f', 3, 64)+"%+#1",
		"-show_entries", "packet=pts_time", "-of", "csv=p=0")
	if err != nil {
		return 0, fmt.Errorf("keyframe before %.3f: %w", at, err)
	}
	first, _, _ := strings.Cut(strings.TrimSpace(string(raw)), "\n")
	k, err := strconv.ParseFloat(strings.TrimSpace(first), 64)
	if err != nil {
		return at, nil
	}
	return k, nil
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
