package exectest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// Track is one audio or subtitle stream of a test video. Codec defaults to
// aac for audio (srt for subtitles is the only one made), Channels to 2.
type Track struct {
	Language string
	Title    string
	Codec    string
	Channels int
	Default  bool
}

// Video describes a small test video: Name's extension picks the container
// ("movie.mkv" when empty), Seconds its length (1 when 0). The video stream
// is ffmpeg's test pattern in H.264, Size pixels ("160x120" when empty) at
// Rate frames a second (10 when 0), with a keyframe every KeyframeEvery
// seconds (x264's default of 250 frames when 0); NoVideo leaves it out.
// Noise makes every frame grainy, so the file is large for its length
// (about 1 MB a second at 320×240 and 25 frames): for tests that must keep
// ffmpeg writing for longer than socket buffers hold. Each audio track is
// a sine tone.
type Video struct {
	Name          string
	Seconds       int
	Size          string
	Rate          int
	KeyframeEvery int
	NoVideo       bool
	Noise         bool
	Audio         []Track
	Subtitles     []Track
}

// MakeVideo writes v into a temporary folder with the real ffmpeg and
// returns its path. Tests of ffprobe, thumbnails and remuxing share it, so
// each describes the tracks it needs instead of repeating ffmpeg's options.
// A missing ffmpeg skips the test, or fails it under CI (see Require).
func MakeVideo(t testing.TB, v Video) string {
	t.Helper()
	Require(t, "ffmpeg", "ffmpeg")
	dir := t.TempDir()
	if v.Name == "" {
		v.Name = "movie.mkv"
	}
	if v.Seconds <= 0 {
		v.Seconds = 1
	}
	out := filepath.Join(dir, v.Name)
	raw, err := exec.Command("ffmpeg", v.args(t, dir, out)...).CombinedOutput()
	if err != nil {
		t.Fatalf("ffmpeg could not make %s: %v\n%s", v.Name, err, raw)
	}
	return out
}

// args builds ffmpeg's command line: inputs (pattern, tones, subtitle
// files), then the maps, codecs, tags and dispositions of each stream.
func (v Video) args(t testing.TB, dir, out string) []string {
	d := strconv.Itoa(v.Seconds)
	in, maps := v.video(d)
	input := 1 // the next input's number: the test pattern is input 0
	if v.NoVideo {
		input = 0
	}
	for i, a := range v.Audio {
		in = append(in, "-f", "lavfi", "-i", fmt.Sprintf("sine=frequency=%d:duration=%s", 440*(i+1), d))
		codec, channels := a.Codec, a.Channels
		if codec == "" {
			codec = "aac"
		}
		if channels == 0 {
			channels = 2
		}
		s := strconv.Itoa(i)
		maps = append(maps, "-map", strconv.Itoa(input)+":a", "-c:a:"+s, codec, "-ac:a:"+s, strconv.Itoa(channels))
		maps = append(maps, a.tags("a:"+s)...)
		input++
	}
	for i, sub := range v.Subtitles {
		srt := filepath.Join(dir, fmt.Sprintf("sub%d.srt", i))
		// The cue lasts the whole video, so -shortest does not cut the
		// film to the subtitle's length.
		cue := fmt.Sprintf("1\n00:00:00,000 --> %02d:%02d:%02d,000\nHello\n", v.Seconds/3600, v.Seconds/60%60, v.Seconds%60)
		if err := os.WriteFile(srt, []byte(cue), 0o644); err != nil {
			t.Fatal(err)
		}
		in = append(in, "-i", srt)
		maps = append(maps, "-map", strconv.Itoa(input)+":s", "-c:s:"+strconv.Itoa(i), "srt")
		maps = append(maps, sub.tags("s:"+strconv.Itoa(i))...)
		input++
	}
	return append(append(in, maps...), "-shortest", out)
}

// video is the test pattern's input and options (none with NoVideo):
// "-v error -y" then, with a picture, "-f lavfi -i testsrc=…".
func (v Video) video(seconds string) (in, maps []string) {
	in = []string{"-v", "error", "-y"}
	if v.NoVideo {
		return in, nil
	}
	size, rate := v.Size, v.Rate
	if size == "" {
		size = "160x120"
	}
	if rate <= 0 {
		rate = 10
	}
	in = append(in, "-f", "lavfi", "-i", fmt.Sprintf("testsrc=duration=%s:size=%s:rate=%d", seconds, size, rate))
	maps = []string{"-map", "0:v", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"}
	if v.KeyframeEvery > 0 {
		maps = append(maps, "-g", strconv.Itoa(v.KeyframeEvery*rate))
	}
	if v.Noise {
		maps = append(maps, "-vf", "noise=alls=40:allf=t")
	}
	return in, maps
}

// tags are the language, title and default flag of stream spec (a:0, s:1…).
func (tr Track) tags(spec string) []string {
	var out []string
	if tr.Language != "" {
		out = append(out, "-metadata:s:"+spec, "language="+tr.Language)
	}
	if tr.Title != "" {
		out = append(out, "-metadata:s:"+spec, "title="+tr.Title)
	}
	disposition := "0"
	if tr.Default {
		disposition = "default"
	}
	return append(out, "-disposition:"+spec, disposition)
}
