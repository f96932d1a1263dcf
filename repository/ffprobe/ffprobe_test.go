package ffprobe_test

import (
	"context"
	"mediateka/repository/exectest"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/repository/ffprobe"
)

// makeMKV builds a two-second Matroska file with one video stream, a
// Russian 5.1 dub marked default, an English stereo track and English
// subtitles, using the real ffmpeg.
func makeMKV(t *testing.T) string {
	t.Helper()
	exectest.Require(t, "ffmpeg", "ffmpeg", "ffprobe")
	dir := t.TempDir()
	srt := filepath.Join(dir, "en.srt")
	require.NoError(t, os.WriteFile(srt, []byte("1\n00:00:00,000 --> 00:00:01,000\nHello\n"), 0o644))
	out := filepath.Join(dir, "Матрица (1999).mkv")
	cmd := exec.Command("ffmpeg", "-v", "error", "-y",
		"-f", "lavfi", "-i", "testsrc=duration=2:size=160x120:rate=10",
		"-f", "lavfi", "-i", "sine=frequency=440:duration=2",
		"-f", "lavfi", "-i", "sine=frequency=880:duration=2",
		"-i", srt,
		"-map", "0:v", "-map", "1:a", "-map", "2:a", "-map", "3:s",
		"-c:v", "libx264", "-c:a:0", "ac3", "-ac:a:0", "6", "-c:a:1", "aac", "-ac:a:1", "2", "-c:s", "srt",
		"-metadata:s:a:0", "language=rus", "-metadata:s:a:0", "title=Дубляж",
		"-metadata:s:a:1", "language=eng", "-metadata:s:s:0", "language=eng",
		"-disposition:a:0", "default", "-disposition:a:1", "0",
		"-shortest", out)
	raw, err := cmd.CombinedOutput()
	require.NoError(t, err, string(raw))
	return out
}

func TestStreamsOfARealFile(t *testing.T) {
	file := makeMKV(t)
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
