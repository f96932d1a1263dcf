package ffprobe_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/repository/exectest"
	"mediateka/repository/ffprobe"
)

// matrixVideo is a two-second Matroska file with one video stream, a
// Russian 5.1 dub marked default, an English stereo track and English
// subtitles.
func matrixVideo(t *testing.T) string {
	t.Helper()
	exectest.Require(t, "ffmpeg", "ffprobe")
	return exectest.MakeVideo(t, exectest.Video{Name: "Матрица (1999).mkv", Seconds: 2,
		Audio: []exectest.Track{
			{Language: "rus", Title: "Дубляж", Codec: "ac3", Channels: 6, Default: true},
			{Language: "eng", Codec: "aac", Channels: 2},
		},
		Subtitles: []exectest.Track{{Language: "eng"}},
	})
}

func TestStreamsOfARealFile(t *testing.T) {
	file := matrixVideo(t)
	p, err := ffprobe.New("", 0)
	require.NoError(t, err)
	streams, err := p.Streams(context.Background(), file)
	require.NoError(t, err)
	require.Len(t, streams, 4)
	assert.Equal(t, domain.StreamVideo, streams[0].Type)
	assert.Equal(t, domain.MediaStream{Index: 1, Type: "audio", Codec: "ac3", Language: "rus", Title: "Дубляж", Channels: 6, Default: true}, streams[1])
	assert.Equal(t, domain.MediaStream{Index: 2, Type: "audio", Codec: "aac", Language: "eng", Channels: 2}, streams[2])
	assert.Equal(t, "subtitle", streams[3].Type)
	assert.Equal(t, "eng", streams[3].Language)
}

func TestProbeReadsDurationAndVideoCodec(t *testing.T) {
	file := matrixVideo(t)
	p, err := ffprobe.New("", 0)
	require.NoError(t, err)
	info, err := p.Probe(context.Background(), file)
	require.NoError(t, err)
	assert.InDelta(t, 2.0, info.Duration, 0.2, "the container's duration in seconds")
	video, ok := info.Video()
	require.True(t, ok)
	assert.Equal(t, "h264", video.Codec)
	audio := info.Audio()
	require.Len(t, audio, 2)
	assert.Equal(t, []string{"ac3", "aac"}, []string{audio[0].Codec, audio[1].Codec})

	noVideo := exectest.MakeVideo(t, exectest.Video{Name: "tone.mka", Seconds: 3, NoVideo: true, Audio: []exectest.Track{{}}})
	info, err = p.Probe(context.Background(), noVideo)
	require.NoError(t, err)
	_, ok = info.Video()
	assert.False(t, ok, "an audio-only file has no picture")
	assert.InDelta(t, 3.0, info.Duration, 0.2)
}

func TestKeyframeIsWhereASeekLands(t *testing.T) {
	// Keyframes every 2 s of a 7 s film, at 0, 2, 4 and 6 (Matroska adds a
	// few milliseconds to each).
	file := exectest.MakeVideo(t, exectest.Video{Seconds: 7, KeyframeEvery: 2, Audio: []exectest.Track{{Codec: "ac3"}}})
	exectest.Require(t, "ffmpeg", "ffprobe")
	p, err := ffprobe.New("", 0)
	require.NoError(t, err)
	for at, want := range map[float64]float64{0: 0, 1.5: 0, 3: 2, 4.5: 4, 6.9: 6} {
		k, err := p.Keyframe(context.Background(), file, at)
		require.NoError(t, err)
		assert.InDelta(t, want, k, 0.05, "a seek to %v", at)
	}
}

func TestErrors(t *testing.T) {
	_, err := ffprobe.New("no-such-ffprobe-binary", 0)
	assert.ErrorIs(t, err, ffprobe.ErrNotInstalled)
	exectest.Require(t, "ffmpeg", "ffprobe")
	p, err := ffprobe.New("", 0)
	require.NoError(t, err)
	_, err = p.Streams(context.Background(), filepath.Join(t.TempDir(), "absent.mkv"))
	assert.Error(t, err)
	notMedia := filepath.Join(t.TempDir(), "-notes.txt")
	require.NoError(t, os.WriteFile(notMedia, []byte("just text"), 0o644))
	_, err = p.Streams(context.Background(), notMedia)
	assert.Error(t, err)
}

// countingFFprobe writes a wrapper around the real ffprobe that records how
// many copies of itself run at the moment it starts, then waits until the
// test creates the release file, so that every call the prober lets through
// is running at once.
func countingFFprobe(t *testing.T) (bin, dir string) {
	t.Helper()
	real := exectest.Require(t, "ffmpeg", "ffprobe")[0]
	dir = t.TempDir()
	bin = filepath.Join(dir, "ffprobe-counting")
	script := `#!/bin/sh
d='` + dir + `'
touch "$d/run.$$"
ls "$d" | grep -c '^run\.' >> "$d/counts"
while [ ! -e "$d/release" ]; do sleep 0.01; done
'` + real + `' "$@"
status=$?
rm -f "$d/run.$$"
exit $status
`
	require.NoError(t, os.WriteFile(bin, []byte(script), 0o755))
	return bin, dir
}

func TestAtMostTwoProbesRunAtOnce(t *testing.T) {
	file := matrixVideo(t)
	bin, dir := countingFFprobe(t)
	p, err := ffprobe.New(bin, 0)
	require.NoError(t, err)

	const asks = 16
	errs := make(chan error, asks)
	for range asks {
		go func() {
			streams, err := p.Streams(context.Background(), file)
			if err == nil && len(streams) != 4 {
				err = fmt.Errorf("got %d streams", len(streams))
			}
			errs <- err
		}()
	}
	counts := func() []string {
		raw, _ := os.ReadFile(filepath.Join(dir, "counts"))
		return strings.Fields(string(raw))
	}
	// Hold the first runs until two have started: without the bound all
	// forty would be waiting here together.
	require.Eventually(t, func() bool { return len(counts()) >= 2 }, 10*time.Second, 5*time.Millisecond)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "release"), nil, 0o644))
	for range asks {
		require.NoError(t, <-errs)
	}
	got := counts()
	require.Len(t, got, asks, "every question ran ffprobe once")
	most := 0
	for _, c := range got {
		n, err := strconv.Atoi(c)
		require.NoError(t, err)
		most = max(most, n)
	}
	assert.LessOrEqual(t, most, ffprobe.MaxConcurrent, "concurrent ffprobe processes")
	assert.Equal(t, 2, ffprobe.MaxConcurrent)
}

func TestWaitingForASlotEndsWithTheContext(t *testing.T) {
	file := matrixVideo(t)
	bin, dir := countingFFprobe(t)
	p, err := ffprobe.New(bin, 0)
	require.NoError(t, err)
	done := make(chan error, ffprobe.MaxConcurrent)
	for range ffprobe.MaxConcurrent {
		go func() { _, err := p.Streams(context.Background(), file); done <- err }()
	}
	require.Eventually(t, func() bool {
		raw, _ := os.ReadFile(filepath.Join(dir, "counts"))
		return len(strings.Fields(string(raw))) == ffprobe.MaxConcurrent
	}, 10*time.Second, 5*time.Millisecond)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = p.Streams(ctx, file)
	assert.ErrorIs(t, err, context.Canceled, "every slot is taken: the cancelled call gives up without running")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "release"), nil, 0o644))
	for range ffprobe.MaxConcurrent {
		require.NoError(t, <-done)
	}
	raw, _ := os.ReadFile(filepath.Join(dir, "counts"))
	assert.Len(t, strings.Fields(string(raw)), ffprobe.MaxConcurrent, "the cancelled call never started ffprobe")
}
