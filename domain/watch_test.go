package domain_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"

	"mediateka/domain"
)

func TestCheckProgress(t *testing.T) {
	for _, c := range []struct {
		pos, dur float64
		want     float64
		bad      []string
	}{
		{0, 0, 0, nil},
		{42.5, 0, 42.5, nil},      // unknown duration
		{42.5, 6000, 42.5, nil},   //
		{6000, 6000, 6000, nil},   // the end
		{6000.9, 6000, 6000, nil}, // within the slack: the end
		{6001.5, 6000, 0, []string{"position"}},
		{-0.1, 6000, 0, []string{"position"}},
		{1, -1, 0, []string{"duration"}},
		{math.Inf(1), 0, 0, []string{"position"}},
		{math.NaN(), math.Inf(1), 0, []string{"position", "duration"}},
	} {
		got, err := domain.CheckProgress(c.pos, c.dur)
		if c.bad == nil {
			assert.NoError(t, err, "%v/%v", c.pos, c.dur)
			assert.InDelta(t, c.want, got, 0, "%v/%v", c.pos, c.dur)
			continue
		}
		var de *domain.Error
		if assert.ErrorAs(t, err, &de, "%v/%v", c.pos, c.dur) {
			assert.Equal(t, "invalid_input", de.Code)
			assert.Len(t, de.Fields, len(c.bad))
			for _, f := range c.bad {
				assert.Contains(t, de.Fields, f)
			}
		}
	}
}

func TestWatchStateRules(t *testing.T) {
	for _, c := range []struct {
		w       domain.WatchState
		started bool
		resume  float64
	}{
		{domain.WatchState{}, false, 0},
		{domain.WatchState{Position: 10, Duration: 100}, true, 10},
		{domain.WatchState{Position: 10}, true, 10}, // unknown duration
		{domain.WatchState{Position: 89.9, Duration: 100}, true, 89.9},
		{domain.WatchState{Position: 90, Duration: 100}, false, 90},
		{domain.WatchState{Position: 10, Duration: 100, Watched: true}, false, 0},
	} {
		assert.Equal(t, c.started, c.w.Started(), "%+v", c.w)
		assert.InDelta(t, c.resume, c.w.ResumeAt(), 0, "%+v", c.w)
	}
	assert.True(t, domain.ReachesWatched(90, 100))
	assert.False(t, domain.ReachesWatched(89.99, 100))
	assert.False(t, domain.ReachesWatched(1e9, 0), "an unknown duration is never reached")
}
