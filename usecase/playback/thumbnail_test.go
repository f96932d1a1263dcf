package playback_test

import (
	"bytes"
	"context"
	"image/jpeg"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/repository/exectest"
	"mediateka/repository/sqlstore/sqlstoretest"
	"mediateka/usecase/playback"
)

func TestThumbnailIsMadeOnceAndKept(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	m := e.film(t, "Heat", exectest.Video{Name: "heat.mp4", Seconds: 2, Size: "1280x720", Audio: []exectest.Track{{}}})
	ctx := context.Background()

	const asks = 8
	got := make([]playback.Thumbnail, asks)
	var wg sync.WaitGroup
	for i := range asks {
		wg.Go(func() {
			var err error
			got[i], err = e.svc.Thumbnail(ctx, m.ID)
			assert.NoError(t, err)
		})
	}
	wg.Wait()
	assert.EqualValues(t, 1, e.ffmpeg.thumbnails.Load(), "concurrent first requests share one ffmpeg")
	cfg, err := jpeg.DecodeConfig(bytes.NewReader(got[0].JPEG))
	require.NoError(t, err)
	assert.Equal(t, 480, cfg.Width)
	for _, g := range got {
		assert.Equal(t, got[0], g)
	}
	kept, err := filepath.Glob(filepath.Join(e.pics, "*.jpg"))
	require.NoError(t, err)
	require.Len(t, kept, 1, "kept in the thumbnail folder")

	again, err := e.svc.Thumbnail(ctx, m.ID)
	require.NoError(t, err)
	assert.Equal(t, got[0], again)
	assert.EqualValues(t, 1, e.ffmpeg.thumbnails.Load(), "the second request reads the kept picture")

	// The file is replaced: a new picture, and the old one is dropped.
	later := time.Now().Add(time.Hour)
	require.NoError(t, os.Chtimes(m.Path, later, later))
	fresh, err := e.svc.Thumbnail(ctx, m.ID)
	require.NoError(t, err)
	assert.NotEqual(t, got[0].ETag, fresh.ETag)
	assert.EqualValues(t, 2, e.ffmpeg.thumbnails.Load())
	kept, _ = filepath.Glob(filepath.Join(e.pics, "*.jpg"))
	assert.Len(t, kept, 1)
}

func TestThumbnailOfASeriesIsItsFirstEpisodes(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	series := e.db.Series("Dark")
	ep := func(season *sqlstoretest.Season, n int, v exectest.Video) domain.Media {
		path := exectest.MakeVideo(t, v)
		return season.Episode(n, func(m *domain.Media) { m.Path = path })
	}
	specials, s1 := series.Season(0), series.Season(1)
	ep(specials, 1, exectest.Video{Name: "special.mkv", Size: "320x240"})
	ep(s1, 2, exectest.Video{Name: "e2.mkv", Size: "160x120"})
	first := ep(s1, 1, exectest.Video{Name: "e1.mkv", Size: "200x100"})

	for _, id := range []int64{series.ID, s1.ID, first.ID} {
		th, err := e.svc.Thumbnail(context.Background(), id)
		require.NoError(t, err)
		cfg, err := jpeg.DecodeConfig(bytes.NewReader(th.JPEG))
		require.NoError(t, err)
		assert.Equal(t, 200, cfg.Width, "S01E01's picture, not the special's nor S01E02's")
	}
	assert.EqualValues(t, 1, e.ffmpeg.thumbnails.Load())

	empty := e.db.Series("Nothing Yet")
	_, err := e.svc.Thumbnail(context.Background(), empty.ID)
	assert.ErrorIs(t, err, playback.ErrNoThumbnail)
}

func TestNoThumbnail(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	tone := e.film(t, "Tone", exectest.Video{Name: "tone.mka", NoVideo: true, Audio: []exectest.Track{{}}})
	for range 2 {
		_, err := e.svc.Thumbnail(context.Background(), tone.ID)
		assert.ErrorIs(t, err, playback.ErrNoThumbnail)
	}
	assert.Zero(t, e.ffmpeg.thumbnails.Load(), "no video stream: ffmpeg is not even asked")

	noFFmpeg := newEnv(t, func(o *playback.Options) { o.Transcoder = nil })
	m := noFFmpeg.film(t, "Heat", mp4(1))
	_, err := noFFmpeg.svc.Thumbnail(context.Background(), m.ID)
	assert.ErrorIs(t, err, playback.ErrNoThumbnail)
}
