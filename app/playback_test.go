package app

import (
	"bytes"
	"context"
	"encoding/json"
	"image/jpeg"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPlayAnswersForRealFiles(t *testing.T) {
	t.Parallel()
	pa := newPlayApp(t, nil)

	heat := pa.play(t, pa.heat, pa.user)
	st := playToken(t, heat)
	assert.Equal(t, "direct", heat["mode"])
	assert.Equal(t, mediaPath(pa.heat, "stream?st="+st), heat["stream_url"])
	assert.Equal(t, mediaPath(pa.heat, "thumbnail?st="+st), heat["thumbnail_url"])
	assert.Equal(t, []any{map[string]any{"index": 0.0, "language": "en", "label": "English",
		"url": mediaPath(pa.heat, "subtitles/0.vtt?st="+st)}}, heat["subtitles"])
	assert.Equal(t, []any{map[string]any{"index": 0.0, "language": "en", "label": "English", "codec": "aac",
		"channels": 2.0, "default": true}}, heat["audio_tracks"])
	assert.InDelta(t, 3.0, heat["duration"], 0.2)
	assert.Equal(t, 0.0, heat["resume_position"], "never started")
	expires, err := time.Parse(time.RFC3339, heat["expires_at"].(string))
	require.NoError(t, err)
	assert.WithinDuration(t, time.Now().Add(6*time.Hour), expires, time.Minute)
	assert.NotContains(t, heat, "warning")

	matrix := pa.play(t, pa.matrix, pa.user)
	assert.Equal(t, "remux", matrix["mode"])
	assert.Equal(t, mediaPath(pa.matrix, "stream?st="+playToken(t, matrix)+"&remux=1"), matrix["stream_url"])
	assert.Equal(t, []any{
		map[string]any{"index": 0.0, "language": "ru", "label": "Русский", "codec": "ac3", "channels": 6.0, "default": true},
		map[string]any{"index": 1.0, "language": "en", "label": "English", "codec": "ac3", "channels": 2.0, "default": false},
	}, matrix["audio_tracks"])
	assert.Equal(t, []any{}, matrix["subtitles"])

	for _, id := range []int64{pa.series, pa.season} {
		resp, body := pa.do(t, "GET", mediaPath(id, "play"), pa.user, nil)
		assert.Equal(t, 400, resp.StatusCode)
		assert.Equal(t, "not_playable", errCode(body))
	}
	resp, body := pa.do(t, "GET", mediaPath(pa.heat, "play"), "", nil)
	assert.Equal(t, 401, resp.StatusCode)
	assert.Equal(t, "unauthorized", errCode(body))
	resp, _ = pa.do(t, "GET", "/api/media/x/play", pa.user, nil)
	assert.Equal(t, 400, resp.StatusCode)
	resp, body = pa.do(t, "GET", mediaPath(9999, "play"), pa.user, nil)
	assert.Equal(t, 404, resp.StatusCode)
	assert.Equal(t, "media_not_found", errCode(body))
}

func TestPlayTokenOpensOnlyItsEntryForItsAccount(t *testing.T) {
	t.Parallel()
	pa := newPlayApp(t, nil)
	heat := pa.play(t, pa.heat, pa.user)
	st := playToken(t, heat)
	get := func(path, token string, header map[string]string) (int, string, []byte) {
		resp, raw := pa.raw(t, "GET", path, token, header)
		return resp.StatusCode, errCodeOf(raw), raw
	}

	status, _, _ := get(heat["stream_url"].(string), "", nil)
	assert.Equal(t, 200, status, "the stream with the play token alone")
	status, _, raw := get(heat["stream_url"].(string), "", map[string]string{"Range": "bytes=0-7"})
	assert.Equal(t, 206, status)
	assert.Equal(t, "ftyp", string(raw[4:8]))
	status, _, raw = get(heat["subtitles"].([]any)[0].(map[string]any)["url"].(string), "", nil)
	assert.Equal(t, 200, status)
	assert.Contains(t, string(raw), "WEBVTT")
	status, _, _ = get(mediaPath(pa.heat, "subtitles?st="+st), "", nil)
	assert.Equal(t, 200, status)
	status, _, _ = get(heat["stream_url"].(string), pa.user, nil)
	assert.Equal(t, 200, status, "with its own account's session too")

	for name, tc := range map[string]struct {
		path, session string
		code          string
	}{
		"another entry":              {mediaPath(pa.matrix, "stream?st="+st), "", "invalid_play_token"},
		"another entry's subtitles":  {mediaPath(pa.matrix, "subtitles?st="+st), "", "invalid_play_token"},
		"another entry's thumbnail":  {mediaPath(pa.episode, "thumbnail?st="+st), "", "invalid_play_token"},
		"another account's session":  {heat["stream_url"].(string), pa.admin, "invalid_play_token"},
		"a forged token":             {mediaPath(pa.heat, "stream?st="+forge(st)), "", "invalid_play_token"},
		"a session token used as st": {mediaPath(pa.heat, "stream?st="+pa.user), "", "invalid_play_token"},
		"no token at all":            {mediaPath(pa.heat, "stream"), "", "unauthorized"},
	} {
		status, code, _ := get(tc.path, tc.session, nil)
		assert.Equal(t, 401, status, name)
		assert.Equal(t, tc.code, code, name)
	}
	// The session token keeps working where it did.
	status, _, _ = get(mediaPath(pa.heat, "stream?token="+pa.user), "", nil)
	assert.Equal(t, 200, status)
	status, _, _ = get(mediaPath(pa.matrix, "stream"), pa.user, nil)
	assert.Equal(t, 200, status)

	u, err := pa.repos.users.ByEmail(context.Background(), "viewer@example.org")
	require.NoError(t, err)
	require.NoError(t, pa.repos.users.Delete(context.Background(), u.ID))
	status, code, _ := get(heat["stream_url"].(string), "", nil)
	assert.Equal(t, 401, status, "a deleted account's token")
	assert.Equal(t, "invalid_play_token", code)

	logged := pa.stderr.String()
	if file, err := os.ReadFile(filepath.Join(pa.cfg.LogDir, "mediateka.log")); err == nil {
		logged += string(file)
	}
	assert.NotContains(t, logged, st, "a play token never reaches the log")
	assert.Contains(t, logged, "st=%2A%2A%2A", "the access log masks it")
}

// forge flips the last character of a token.
func forge(st string) string {
	last := st[len(st)-1]
	if last == 'A' {
		return st[:len(st)-1] + "B"
	}
	return st[:len(st)-1] + "A"
}

// errCodeOf reads error.code from a raw error body ("" for other bodies).
func errCodeOf(raw []byte) string { return errCode(jsonBody(raw)) }

// jsonBody decodes a JSON object; nil for anything else.
func jsonBody(raw []byte) map[string]any {
	var body map[string]any
	_ = json.Unmarshal(raw, &body)
	return body
}

func TestAnExpiredPlayToken(t *testing.T) {
	t.Parallel()
	pa := newPlayApp(t, map[string]string{"MEDIATEKA_MEDIA__PLAY_TOKEN_TTL": "1s"})
	heat := pa.play(t, pa.heat, pa.user)
	require.Eventually(t, func() bool {
		resp, raw := pa.raw(t, "GET", heat["stream_url"].(string), "", nil)
		return resp.StatusCode == 401 && errCodeOf(raw) == "play_token_expired"
	}, 5*time.Second, 100*time.Millisecond)
}

func TestRemuxOverHTTP(t *testing.T) {
	t.Parallel()
	pa := newPlayApp(t, nil)
	url := pa.play(t, pa.matrix, pa.user)["stream_url"].(string)

	resp, raw := pa.raw(t, "GET", url+"&audio=1", "", nil)
	require.Equal(t, 200, resp.StatusCode, string(raw))
	assert.Equal(t, "video/mp4", resp.Header.Get("Content-Type"))
	assert.Equal(t, "ftyp", string(raw[4:8]), "fragmented MP4 starts with its ftyp box")
	info := probeBytes(t, raw)
	video, ok := info.Video()
	require.True(t, ok)
	assert.Equal(t, "h264", video.Codec)
	audio := info.Audio()
	require.Len(t, audio, 1)
	assert.Equal(t, "aac", audio[0].Codec)
	assert.Equal(t, 2, audio[0].Channels)
	assert.InDelta(t, 4.0, info.Duration, 0.3)

	resp, raw = pa.raw(t, "GET", url+"&start=2.5", "", map[string]string{"Range": "bytes=100-"})
	require.Equal(t, 200, resp.StatusCode, "a remux has no ranges: a seek asks again with start")
	assert.InDelta(t, 2.0, probeBytes(t, raw).Duration, 0.3, "from the keyframe at 2 s")

	resp, _ = pa.raw(t, "HEAD", url+"&start=2.5", "", nil)
	assert.Equal(t, 200, resp.StatusCode)
	begins, err := strconv.ParseFloat(resp.Header.Get("X-Remux-Start"), 64)
	require.NoError(t, err)
	assert.InDelta(t, 2.0, begins, 0.05, "HEAD tells where the stream begins: the keyframe before start")

	for query, field := range map[string]string{"&start=4.5": "start", "&start=-1": "start", "&start=abc": "start",
		"&start=NaN": "start", "&audio=2": "audio", "&audio=x": "audio"} {
		resp, raw := pa.raw(t, "GET", url+query, "", nil)
		assert.Equal(t, 400, resp.StatusCode, query)
		body := jsonBody(raw)
		assert.Equal(t, "invalid_input", errCode(body), query)
		assert.Contains(t, body["error"].(map[string]any)["fields"], field, query)
	}
	resp, _ = pa.raw(t, "GET", strings.Replace(url, "remux=1", "remux=yes", 1), "", nil)
	assert.Equal(t, 400, resp.StatusCode)
	assert.Zero(t, pa.playback.RunningRemuxes())
}

func TestThumbnailOverHTTP(t *testing.T) {
	t.Parallel()
	pa := newPlayApp(t, nil)
	heat := pa.play(t, pa.heat, pa.user)

	resp, raw := pa.raw(t, "GET", heat["thumbnail_url"].(string), "", nil)
	require.Equal(t, 200, resp.StatusCode, string(raw))
	assert.Equal(t, "image/jpeg", resp.Header.Get("Content-Type"))
	assert.Equal(t, "private, max-age=86400", resp.Header.Get("Cache-Control"))
	etag := resp.Header.Get("ETag")
	require.NotEmpty(t, etag)
	cfg, err := jpeg.DecodeConfig(bytes.NewReader(raw))
	require.NoError(t, err)
	assert.Equal(t, 480, cfg.Width, "a 1280×720 film is pictured 480 wide")

	kept, err := filepath.Glob(filepath.Join(pa.cfg.DataDir, "thumbnails", "*.jpg"))
	require.NoError(t, err)
	require.Len(t, kept, 1, "kept in the data folder")
	// Mark the kept picture: a second request that ran ffmpeg again would
	// not answer these bytes.
	require.NoError(t, os.WriteFile(kept[0], []byte("kept picture"), 0o600))
	resp, raw = pa.raw(t, "GET", mediaPath(pa.heat, "thumbnail"), pa.user, nil)
	assert.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, "kept picture", string(raw))
	resp, _ = pa.raw(t, "GET", mediaPath(pa.heat, "thumbnail?token="+pa.user), "", map[string]string{"If-None-Match": etag})
	assert.Equal(t, http.StatusNotModified, resp.StatusCode)

	resp, raw = pa.raw(t, "GET", mediaPath(pa.series, "thumbnail"), pa.user, nil)
	require.Equal(t, 200, resp.StatusCode)
	cfg, err = jpeg.DecodeConfig(bytes.NewReader(raw))
	require.NoError(t, err)
	assert.Equal(t, 200, cfg.Width, "a series shows its first episode")

	resp, _ = pa.raw(t, "GET", mediaPath(pa.heat, "thumbnail"), "", nil)
	assert.Equal(t, 401, resp.StatusCode)
}
