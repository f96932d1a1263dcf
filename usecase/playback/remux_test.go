package playback_test

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/usecase/playback"
)

func ptr(i int) *int { return &i }

func TestRemuxRequestsAreChecked(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	m := e.film(t, "Matrix", mkv(3))
	ctx := context.Background()
	for _, tc := range []struct {
		req   playback.RemuxRequest
		field string
	}{
		{playback.RemuxRequest{Start: 3.5}, "start"},
		{playback.RemuxRequest{Start: -1}, "start"},
		{playback.RemuxRequest{Audio: ptr(2)}, "audio"},
		{playback.RemuxRequest{Audio: ptr(-1)}, "audio"},
	} {
		_, err := e.svc.Remux(ctx, m.ID, tc.req)
		var de *domain.Error
		require.ErrorAs(t, err, &de, "%+v", tc.req)
		assert.Equal(t, "invalid_input", de.Code)
		assert.Contains(t, de.Fields, tc.field)
		_, err = e.svc.RemuxStart(ctx, m.ID, tc.req)
		assert.ErrorAs(t, err, &de, "HEAD checks the same")
	}
	assert.Zero(t, e.svc.RunningRemuxes(), "nothing started for a refused request")

	noFFmpeg := newEnv(t, func(o *playback.Options) { o.Transcoder = nil })
	m2 := noFFmpeg.film(t, "Matrix", mkv(1))
	_, err := noFFmpeg.svc.Remux(ctx, m2.ID, playback.RemuxRequest{})
	assert.ErrorIs(t, err, playback.ErrRemuxUnavailable)
}

func TestRemuxStartIsTheKeyframeBefore(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	m := e.film(t, "Matrix", mkv(5)) // a keyframe every second
	for at, want := range map[float64]float64{0: 0, 2.5: 2, 4.2: 4} {
		got, err := e.svc.RemuxStart(context.Background(), m.ID, playback.RemuxRequest{Start: at})
		require.NoError(t, err)
		assert.InDelta(t, want, got, 0.05, "start %v", at)
	}
}

func TestAtMostMaxRemuxesRunAtOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *playback.Options) { o.MaxRemuxes = 1 })
	m := e.film(t, "Matrix", mkv(20))
	ctx := context.Background()
	first, err := e.svc.Remux(ctx, m.ID, playback.RemuxRequest{})
	require.NoError(t, err)
	head := make([]byte, 1024)
	_, err = io.ReadFull(first, head)
	require.NoError(t, err)
	assert.Equal(t, "ftyp", string(head[4:8]))
	assert.Equal(t, 1, e.svc.RunningRemuxes())

	begin := time.Now()
	_, err = e.svc.Remux(ctx, m.ID, playback.RemuxRequest{Audio: ptr(1)})
	assert.ErrorIs(t, err, playback.ErrRemuxBusy)
	assert.GreaterOrEqual(t, time.Since(begin), time.Second, "it waited a moment for the slot first")

	// A seek: the player closes its stream and opens the next at once.
	second := make(chan error, 1)
	go func() {
		out, err := e.svc.Remux(ctx, m.ID, playback.RemuxRequest{Start: 10})
		if err == nil {
			err = out.Close()
		}
		second <- err
	}()
	time.Sleep(100 * time.Millisecond)
	require.NoError(t, first.Close())
	require.NoError(t, <-second, "the waiting remux got the freed slot")
	assert.Zero(t, e.svc.RunningRemuxes())
}
