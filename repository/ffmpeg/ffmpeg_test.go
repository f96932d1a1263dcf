package ffmpeg

import (
	"bytes"
	"context"
	"image/jpeg"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/repository/exectest"
	"mediateka/repository/ffprobe"
)

// mkvWithAC3 is what most real releases are: H.264 video with AC3 sound
// (a Russian 5.1 dub and an English stereo track) in Matroska.
func mkvWithAC3(t *testing.T, seconds int) string {
	t.Helper()
	return exectest.MakeVideo(t, exectest.Video{Name: "Film.mkv", Seconds: seconds, KeyframeEvery: 1,
		Audio: []exectest.Track{{Language: "rus", Codec: "ac3", Channels: 6}, {Language: "eng", Codec: "ac3"}}})
}

func newRunner(t *testing.T) *Runner {
	t.Helper()
	exectest.Require(t, "ffmpeg", "ffmpeg", "ffprobe")
	r, err := New("", Options{})
	require.NoError(t, err)
	return r
}

// probe reads a file the remux wrote with the real ffprobe.
func probe(t *testing.T, path string) domain.MediaInfo {
	t.Helper()
	p, err := ffprobe.New("", 0)
	require.NoError(t, err)
	info, err := p.Probe(context.Background(), path)
	require.NoError(t, err)
	return info
}

func TestRemuxMakesFragmentedMP4WithAACStereo(t *testing.T) {
	t.Parallel()
	r := newRunner(t)
	src := mkvWithAC3(t, 4)
	for _, tc := range []struct {
		name  string
		audio int
		start float64
		want  float64 // the least duration: a start lands on the keyframe before it
	}{{"whole film, second track", 1, 0, 4}, {"from 2.5 s", 0, 2.5, 1.5}} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := r.Remux(context.Background(), src, tc.audio, tc.start)
			require.NoError(t, err)
			raw, err := io.ReadAll(out)
			require.NoError(t, err)
			require.NoError(t, out.Close())
			require.Greater(t, len(raw), 8)
			assert.Equal(t, "ftyp", string(raw[4:8]), "an MP4 starts with its ftyp box")
			file := filepath.Join(t.TempDir(), "out.mp4")
			require.NoError(t, os.WriteFile(file, raw, 0o644))
			info := probe(t, file)
			video, ok := info.Video()
			require.True(t, ok)
			assert.Equal(t, "h264", video.Codec)
			audio := info.Audio()
			require.Len(t, audio, 1)
			assert.Equal(t, "aac", audio[0].Codec)
			assert.Equal(t, 2, audio[0].Channels)
			assert.GreaterOrEqual(t, info.Duration, tc.want-0.1)
			assert.LessOrEqual(t, info.Duration, tc.want+1.1, "at most one keyframe interval (1 s) more")
		})
	}
}

// alive reports whether process pid still exists (a zombie counts: it
// has not been waited for).
func alive(pid int) bool { return syscall.Kill(pid, 0) == nil }

func TestClosingAnUnfinishedRemuxKillsFFmpeg(t *testing.T) {
	t.Parallel()
	r := newRunner(t)
	src := mkvWithAC3(t, 30)
	out, err := r.Remux(context.Background(), src, 0, 0)
	require.NoError(t, err)
	head := make([]byte, 4096)
	_, err = io.ReadFull(out, head)
	require.NoError(t, err)
	pid := out.(*remux).cmd.Process.Pid
	require.True(t, alive(pid), "ffmpeg waits for its output to be read")
	begin := time.Now()
	require.NoError(t, out.Close())
	assert.Less(t, time.Since(begin), 2*time.Second)
	assert.False(t, alive(pid), "ffmpeg is gone once Close returns")

	ctx, cancel := context.WithCancel(context.Background())
	out, err = r.Remux(ctx, src, 0, 0)
	require.NoError(t, err)
	_, err = io.ReadFull(out, head)
	require.NoError(t, err)
	pid = out.(*remux).cmd.Process.Pid
	cancel()
	_, err = io.Copy(io.Discard, out)
	require.NoError(t, err, "the output ends when the context does")
	require.NoError(t, out.Close())
	assert.False(t, alive(pid))
}

func TestThumbnailIsAJPEGAtMost480Wide(t *testing.T) {
	t.Parallel()
	r := newRunner(t)
	for _, tc := range []struct {
		size          string
		width, height int
	}{{"1280x720", 480, 270}, {"160x120", 160, 120}} {
		src := exectest.MakeVideo(t, exectest.Video{Name: "v.mp4", Seconds: 2, Size: tc.size, Audio: []exectest.Track{{}}})
		raw, err := r.Thumbnail(context.Background(), src, 0.2)
		require.NoError(t, err)
		cfg, err := jpeg.DecodeConfig(bytes.NewReader(raw))
		require.NoError(t, err)
		assert.Equal(t, [2]int{tc.width, tc.height}, [2]int{cfg.Width, cfg.Height}, "%s: at most 480 wide, aspect kept", tc.size)
	}
}

func TestThumbnailOfAFileWithoutPicture(t *testing.T) {
	t.Parallel()
	r := newRunner(t)
	src := exectest.MakeVideo(t, exectest.Video{Name: "tone.mka", NoVideo: true, Audio: []exectest.Track{{}}})
	_, err := r.Thumbnail(context.Background(), src, 0)
	assert.Error(t, err)
}

func TestNotInstalled(t *testing.T) {
	t.Parallel()
	_, err := New("no-such-ffmpeg-binary", Options{})
	assert.ErrorIs(t, err, ErrNotInstalled)
}
