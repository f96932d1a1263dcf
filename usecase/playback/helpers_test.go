package playback_test

import (
	"context"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/repository/exectest"
	"mediateka/repository/ffmpeg"
	"mediateka/repository/ffprobe"
	"mediateka/repository/localfs"
	"mediateka/repository/sqlstore/sqlstoretest"
	"mediateka/usecase/catalog"
	"mediateka/usecase/playback"
	"mediateka/usecase/textmatch"
)

// env is a playback service over a real store, the real catalogue, the
// real ffprobe and ffmpeg (counted) and a thumbnail folder on disk.
type env struct {
	db     *sqlstoretest.DB
	svc    *playback.Service
	ffmpeg *countingFFmpeg
	pics   string
	viewer domain.User
	clock  *clock
}

// clock is a settable time for token expiry.
type clock struct{ now atomic.Int64 }

func (c *clock) Now() time.Time          { return time.Unix(0, c.now.Load()) }
func (c *clock) advance(d time.Duration) { c.now.Add(int64(d)) }

// countingFFmpeg is the real ffmpeg runner that counts thumbnails made.
type countingFFmpeg struct {
	*ffmpeg.Runner
	thumbnails atomic.Int32
}

func (c *countingFFmpeg) Thumbnail(ctx context.Context, path string, at float64) ([]byte, error) {
	c.thumbnails.Add(1)
	return c.Runner.Thumbnail(ctx, path, at)
}

// resumeAt is a watching state where every entry stopped at pos.
type resumeAt float64

func (r resumeAt) Position(context.Context, int64, int64) (float64, error) { return float64(r), nil }

// newEnv builds the service; edit changes its options (nil Transcoder: no
// ffmpeg).
func newEnv(t *testing.T, edit func(*playback.Options)) *env {
	t.Helper()
	exectest.Require(t, "ffmpeg", "ffmpeg", "ffprobe")
	db := sqlstoretest.New(t, textmatch.Normalize)
	cat := catalog.New(db.Media, db.Media, localfs.FS{}, catalog.Options{})
	prober, err := ffprobe.New("", 0)
	require.NoError(t, err)
	runner, err := ffmpeg.New("", ffmpeg.Options{})
	require.NoError(t, err)
	e := &env{db: db, ffmpeg: &countingFFmpeg{Runner: runner}, pics: filepath.Join(t.TempDir(), "thumbnails"), clock: &clock{}}
	e.clock.now.Store(time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC).UnixNano())
	opt := playback.Options{Secret: []byte("a secret of at least sixteen bytes"), Prober: prober, Transcoder: e.ffmpeg,
		Pictures: localfs.NewDir(e.pics), Now: e.clock.Now}
	if edit != nil {
		edit(&opt)
	}
	e.svc = playback.New(cat, db.Users, opt)
	e.viewer = db.User("viewer@example.org")
	return e
}

// film stores a movie whose file is v, made by the real ffmpeg.
func (e *env) film(t *testing.T, title string, v exectest.Video) domain.Media {
	t.Helper()
	path := exectest.MakeVideo(t, v)
	return e.db.Put(domain.Media{DiskName: "Disk", Path: path, Title: title, MediaType: domain.MediaMovie,
		Status: domain.StatusOK, Size: 1, ModTime: time.Unix(1_700_000_000, 0)})
}

// mp4 is an H.264/AAC MP4, which browsers play as it is.
func mp4(seconds int) exectest.Video {
	return exectest.Video{Name: "film.mp4", Seconds: seconds, Audio: []exectest.Track{{Language: "eng"}}}
}

// mkv is an H.264 Matroska with two AC3 tracks (Russian 5.1 marked
// default, English stereo), which no browser plays.
func mkv(seconds int) exectest.Video {
	return exectest.Video{Name: "film.mkv", Seconds: seconds, KeyframeEvery: 1, Audio: []exectest.Track{
		{Language: "rus", Title: "Дубляж", Codec: "ac3", Channels: 6, Default: true}, {Language: "eng", Codec: "ac3"}}}
}
