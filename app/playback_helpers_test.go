package app

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/repository/exectest"
	"mediateka/repository/ffprobe"
)

// playApp is a library app whose files are real videos made by ffmpeg:
// an H.264/AAC MP4 with English subtitles beside it, a Matroska with two
// AC3 tracks, and a series with one episode.
type playApp struct {
	*libApp
	heat, matrix, series, season, episode int64
}

func newPlayApp(t *testing.T, env map[string]string) *playApp {
	t.Helper()
	exectest.Require(t, "ffmpeg", "ffmpeg", "ffprobe")
	la := newLibAppEnv(t, nil, env)
	la.place(t, "Heat (1995)/Heat.1995.mp4", exectest.Video{Name: "heat.mp4", Seconds: 3, Size: "1280x720",
		Audio: []exectest.Track{{Language: "eng"}}})
	la.put(t, map[string]string{"Heat (1995)/Heat.1995.en.srt": "1\n00:00:01,000 --> 00:00:02,000\nHello\n"})
	la.place(t, "The Matrix (1999)/The.Matrix.1999.mkv", exectest.Video{Name: "matrix.mkv", Seconds: 4, KeyframeEvery: 1,
		Audio: []exectest.Track{{Language: "rus", Codec: "ac3", Channels: 6, Default: true}, {Language: "eng", Codec: "ac3"}}})
	la.place(t, "Dark (2017)/Season 1/Dark.S01E01.mkv", exectest.Video{Name: "dark.mkv", Seconds: 1, Size: "200x100",
		Audio: []exectest.Track{{Codec: "ac3"}}})
	la.scan(t)
	return &playApp{libApp: la, heat: la.idOf(t, "Heat (1995)/Heat.1995.mp4"),
		matrix: la.idOf(t, "The Matrix (1999)/The.Matrix.1999.mkv"), series: la.idOf(t, "Dark (2017)"),
		season: la.idOf(t, "Dark (2017)/Season 1"), episode: la.idOf(t, "Dark (2017)/Season 1/Dark.S01E01.mkv")}
}

// place makes v with the real ffmpeg and moves it to rel in the library.
func (la *libApp) place(t *testing.T, rel string, v exectest.Video) string {
	t.Helper()
	made := exectest.MakeVideo(t, v)
	raw, err := os.ReadFile(made)
	require.NoError(t, err)
	la.put(t, map[string]string{rel: string(raw)})
	return filepath.Join(la.root, rel)
}

// play asks GET /api/media/{id}/play as token's account.
func (pa *playApp) play(t *testing.T, id int64, token string) map[string]any {
	t.Helper()
	resp, body := pa.do(t, "GET", mediaPath(id, "play"), token, nil)
	require.Equal(t, 200, resp.StatusCode, "%v", body)
	return body
}

// playToken is the st= of a /play answer's stream URL.
func playToken(t *testing.T, play map[string]any) string {
	t.Helper()
	u, err := url.Parse(play["stream_url"].(string))
	require.NoError(t, err)
	return u.Query().Get("st")
}

// mediaPath is /api/media/<id>/<rest>.
func mediaPath(id int64, rest string) string {
	return "/api/media/" + strconv.FormatInt(id, 10) + "/" + rest
}

// probeBytes writes raw to a file and reads it with the real ffprobe.
func probeBytes(t *testing.T, raw []byte) domain.MediaInfo {
	t.Helper()
	path := filepath.Join(t.TempDir(), "out.mp4")
	require.NoError(t, os.WriteFile(path, raw, 0o644))
	p, err := ffprobe.New("", 0)
	require.NoError(t, err)
	info, err := p.Probe(context.Background(), path)
	require.NoError(t, err)
	return info
}
