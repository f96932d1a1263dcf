package playback_test

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/usecase/playback"
)

// tokenOf reads st= from a URL of a /play answer.
func tokenOf(t *testing.T, raw string) string {
	t.Helper()
	u, err := url.Parse(raw)
	require.NoError(t, err)
	st := u.Query().Get("st")
	require.NotEmpty(t, st, raw)
	return st
}

func TestPlayAnMP4Directly(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *playback.Options) { o.Resume = resumeAt(42.5) })
	m := e.film(t, "Heat", mp4(3))
	require.NoError(t, os.WriteFile(strings.TrimSuffix(m.Path, ".mp4")+".ru.srt", []byte("1\n00:00:01,000 --> 00:00:02,000\nПривет\n"), 0o644))

	info, err := e.svc.Play(context.Background(), e.viewer, m.ID)
	require.NoError(t, err)
	st := tokenOf(t, info.StreamURL)
	assert.Equal(t, playback.Info{MediaID: m.ID, Title: "Heat", Mode: "direct",
		StreamURL:    fmt.Sprintf("/api/media/%d/stream?st=%s", m.ID, st),
		ThumbnailURL: fmt.Sprintf("/api/media/%d/thumbnail?st=%s", m.ID, st),
		Subtitles: []playback.SubtitleTrack{{Index: 0, Language: "ru", Label: "Русский",
			URL: fmt.Sprintf("/api/media/%d/subtitles/0.vtt?st=%s", m.ID, st)}},
		AudioTracks:    []playback.AudioTrack{{Index: 0, Language: "en", Label: "English", Codec: "aac", Channels: 2, Default: true}},
		Duration:       info.Duration,
		ResumePosition: 42.5,
		ExpiresAt:      e.clock.Now().Add(6 * time.Hour).UTC(),
	}, info)
	assert.InDelta(t, 3.0, info.Duration, 0.2)
}

func TestPlayAnMKVWithAC3ThroughRemux(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	m := e.film(t, "Matrix", mkv(2))
	info, err := e.svc.Play(context.Background(), e.viewer, m.ID)
	require.NoError(t, err)
	assert.Equal(t, "remux", info.Mode)
	assert.Empty(t, info.Warning)
	assert.Equal(t, fmt.Sprintf("/api/media/%d/stream?st=%s&remux=1", m.ID, tokenOf(t, info.StreamURL)), info.StreamURL)
	assert.Equal(t, []playback.AudioTrack{
		{Index: 0, Language: "ru", Label: "Дубляж", Codec: "ac3", Channels: 6, Default: true},
		{Index: 1, Language: "en", Label: "English", Codec: "ac3", Channels: 2},
	}, info.AudioTracks)
	assert.Equal(t, []playback.SubtitleTrack{}, info.Subtitles)
	assert.Zero(t, info.ResumePosition, "no watching state: from the start")
}

func TestWithoutFFmpegAnMKVPlaysDirectlyWithAWarning(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *playback.Options) { o.Transcoder = nil })
	m := e.film(t, "Matrix", mkv(1))
	info, err := e.svc.Play(context.Background(), e.viewer, m.ID)
	require.NoError(t, err)
	assert.Equal(t, "direct", info.Mode)
	assert.Contains(t, info.Warning, "ffmpeg is not installed")
	assert.NotContains(t, info.StreamURL, "remux")

	e = newEnv(t, func(o *playback.Options) { o.Transcoder, o.Prober = nil, nil })
	m = e.film(t, "Heat", mp4(1))
	info, err = e.svc.Play(context.Background(), e.viewer, m.ID)
	require.NoError(t, err)
	assert.Equal(t, "direct", info.Mode)
	assert.Contains(t, info.Warning, "ffprobe is not installed")
	assert.Equal(t, []playback.AudioTrack{}, info.AudioTracks)
}

func TestWhatDoesNotPlay(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	season := e.db.Series("Dark").Season(1)
	ep := season.Episode(1)
	for _, id := range []int64{season.ParentID, season.ID} {
		_, err := e.svc.Play(context.Background(), e.viewer, id)
		assert.ErrorIs(t, err, playback.ErrNotPlayable, "a series or season folder")
	}
	_, err := e.svc.Play(context.Background(), e.viewer, ep.ID)
	assert.ErrorIs(t, err, domain.ErrFileMissing, "an episode whose file is not on disk")
	_, err = e.svc.Play(context.Background(), e.viewer, 999)
	assert.Equal(t, domain.KindNotFound, domain.KindOf(err))

	// A file ffprobe cannot read still gets an answer: the browser may
	// know better, and the person sees why it may fail.
	notVideo := filepath.Join(t.TempDir(), "broken.mkv")
	require.NoError(t, os.WriteFile(notVideo, []byte("not a video"), 0o644))
	m := e.db.Put(domain.Media{DiskName: "Disk", Path: notVideo, Title: "Broken", MediaType: domain.MediaMovie,
		Status: domain.StatusOK, Size: 1, ModTime: time.Unix(1, 0)})
	info, err := e.svc.Play(context.Background(), e.viewer, m.ID)
	require.NoError(t, err)
	assert.Equal(t, "direct", info.Mode)
	assert.NotEmpty(t, info.Warning)
}

func TestResolvePlayIsThePlayersOwnAnswer(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	m := e.film(t, "Heat", mp4(1))
	other := e.db.User("other@example.org")
	got, err := e.svc.ResolvePlay(context.Background(), domain.CallerOf(other), m)
	require.NoError(t, err)
	info := got.(playback.Info)
	u, err := e.svc.Authorize(context.Background(), tokenOf(t, info.StreamURL), m.ID)
	require.NoError(t, err)
	assert.Equal(t, other.ID, u.ID, "the token is the player's account's")

	_, err = e.svc.ResolvePlay(context.Background(), domain.Caller{UserID: 12345}, m)
	assert.Error(t, err, "an account that is gone")
}
