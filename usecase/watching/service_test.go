package watching_test

import (
	"context"
	"math"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/repository/localfs"
	"mediateka/repository/sqlstore/sqlstoretest"
	"mediateka/usecase/catalog"
	"mediateka/usecase/offline"
	"mediateka/usecase/watching"
)

// clock is a settable test clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// rig is the service over a real store and catalogue, with a film, a
// series with an episode, and two accounts.
type rig struct {
	db                   *sqlstoretest.DB
	svc                  *watching.Service
	clock                *clock
	ann, bob             int64
	heat, series, season int64
	episode              int64
}

func newRig(t *testing.T) *rig {
	t.Helper()
	db := sqlstoretest.New(t, nil)
	c := &clock{t: time.Date(2026, 3, 1, 20, 0, 0, 0, time.UTC)}
	cat := catalog.New(db.Media, db.Media, localfs.FS{}, catalog.Options{})
	r := &rig{db: db, clock: c, svc: watching.New(db.Watching, cat, watching.Options{Now: c.Now})}
	r.ann, r.bob = db.User("ann@example.org").ID, db.User("bob@example.org").ID
	r.heat = db.Movie("Heat", 1995).ID
	s := db.Series("Dark")
	season := s.Season(1)
	r.series, r.season, r.episode = s.ID, season.ID, season.Episode(1).ID
	return r
}

func (r *rig) state(t *testing.T, user, media int64) (domain.WatchState, bool) {
	t.Helper()
	st, err := r.svc.States(context.Background(), user)
	require.NoError(t, err)
	w, ok := st[media]
	return w, ok
}

func TestReportKeepsThePositionAndMarksWatchedAt90Percent(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	require.NoError(t, r.svc.Report(ctx, r.ann, r.heat, 600, 6000))
	w, ok := r.state(t, r.ann, r.heat)
	require.True(t, ok)
	assert.Equal(t, domain.WatchState{MediaID: r.heat, Position: 600, Duration: 6000, UpdatedAt: r.clock.Now()}, w)
	pos, err := r.svc.Position(ctx, r.ann, r.heat)
	require.NoError(t, err)
	assert.InDelta(t, 600, pos, 0)
	pos, err = r.svc.Position(ctx, r.bob, r.heat)
	require.NoError(t, err)
	assert.Zero(t, pos, "nothing stored for another account")
	_, ok = r.state(t, r.bob, r.heat)
	assert.False(t, ok)

	r.clock.add(time.Minute)
	require.NoError(t, r.svc.Report(ctx, r.ann, r.heat, 5399, 6000))
	w, _ = r.state(t, r.ann, r.heat)
	assert.False(t, w.Watched, "just under 90 %")
	r.clock.add(time.Second)
	require.NoError(t, r.svc.Report(ctx, r.ann, r.heat, 5400, 6000))
	w, _ = r.state(t, r.ann, r.heat)
	assert.True(t, w.Watched, "90 % is watched, written at once though the last write was a second ago")
	pos, err = r.svc.Position(ctx, r.ann, r.heat)
	require.NoError(t, err)
	assert.Zero(t, pos, "a watched film starts over")

	r.clock.add(time.Hour)
	require.NoError(t, r.svc.Report(ctx, r.ann, r.heat, 30, 6000))
	w, _ = r.state(t, r.ann, r.heat)
	assert.Equal(t, domain.WatchState{MediaID: r.heat, Position: 30, Duration: 6000, Watched: true, UpdatedAt: r.clock.Now()}, w,
		"a second viewing keeps the mark")
}

// TestReportsAreThrottled: a player reporting every second is written
// every five seconds; a seek and reaching watched are written at once.
func TestReportsAreThrottled(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	stored := func() float64 { w, _ := r.state(t, r.ann, r.heat); return w.Position }
	var seen []float64
	for sec := 0; sec <= 11; sec++ {
		require.NoError(t, r.svc.Report(ctx, r.ann, r.heat, float64(100+sec), 6000))
		seen = append(seen, stored())
		r.clock.add(time.Second)
	}
	assert.Equal(t, []float64{100, 100, 100, 100, 100, 105, 105, 105, 105, 105, 110, 110}, seen)

	before := r.db.DataVersion()
	require.NoError(t, r.svc.Report(ctx, r.ann, r.heat, 112, 6000))
	assert.Equal(t, before, r.db.DataVersion(), "a dropped report writes nothing")
	require.NoError(t, r.svc.Report(ctx, r.ann, r.heat, 3000, 6000))
	assert.InDelta(t, 3000, stored(), 0, "a seek ahead is written at once")
	r.clock.add(time.Second)
	require.NoError(t, r.svc.Report(ctx, r.ann, r.heat, 20, 6000))
	assert.InDelta(t, 20, stored(), 0, "a seek back is written at once")

	require.NoError(t, r.svc.Report(ctx, r.bob, r.heat, 21, 6000))
	w, _ := r.state(t, r.bob, r.heat)
	assert.InDelta(t, 21, w.Position, 0, "each account has its own throttle")
}

// TestTheLastPositionIsNeverLost: the report the throttle dropped last is
// written by Flush (the player paused, stopped, moved on or left), and
// Save writes at once whatever the throttle (a page's own saves, a pause).
func TestTheLastPositionIsNeverLost(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	stored := func() float64 { w, _ := r.state(t, r.ann, r.heat); return w.Position }
	require.NoError(t, r.svc.Flush(ctx, r.ann, r.heat), "nothing to flush")
	_, ok := r.state(t, r.ann, r.heat)
	assert.False(t, ok)
	for sec := 1; sec <= 14; sec++ {
		require.NoError(t, r.svc.Report(ctx, r.ann, r.heat, float64(sec), 6000))
		r.clock.add(time.Second)
	}
	assert.InDelta(t, 11, stored(), 0, "written at 1, 6 and 11")
	require.NoError(t, r.svc.Flush(ctx, r.ann, r.heat))
	w, _ := r.state(t, r.ann, r.heat)
	assert.Equal(t, domain.WatchState{MediaID: r.heat, Position: 14, Duration: 6000, UpdatedAt: r.clock.Now().Add(-time.Second)}, w,
		"the last report, as of when it was made")
	before := r.db.DataVersion()
	require.NoError(t, r.svc.Flush(ctx, r.ann, r.heat))
	assert.Equal(t, before, r.db.DataVersion(), "flushed once")

	require.NoError(t, r.svc.Report(ctx, r.ann, r.heat, 15, 6000))
	assert.InDelta(t, 14, stored(), 0, "throttled: the flush was a write")
	require.NoError(t, r.svc.Save(ctx, r.ann, r.heat, 15.5, 6000))
	assert.InDelta(t, 15.5, stored(), 0, "Save writes at once")
	require.NoError(t, r.svc.Flush(ctx, r.ann, r.heat))
	assert.InDelta(t, 15.5, stored(), 0, "a Save replaces what was held")
	require.NoError(t, r.svc.Save(ctx, r.ann, r.heat, 15.5, 6000))
	assert.InDelta(t, 15.5, stored(), 0)

	err := r.svc.Save(ctx, r.ann, r.heat, -1, 6000)
	assert.True(t, domain.IsKind(err, domain.KindInvalid), "Save checks like Report: %v", err)
	assert.ErrorIs(t, r.svc.Save(ctx, r.ann, r.series, 1, 6000), domain.ErrNotPlayable)
}

// TestBadReportsAreRefusedAndWriteNothing: negative, infinite or NaN
// numbers, a position past the duration, an entry that is not a movie or
// episode and an unknown entry are refused; nothing is stored.
func TestBadReportsAreRefusedAndWriteNothing(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	for _, c := range []struct {
		name      string
		media     int64
		pos, dur  float64
		code      string
		badFields []string
	}{
		{"negative position", r.heat, -1, 100, "invalid_input", []string{"position"}},
		{"negative duration", r.heat, 1, -100, "invalid_input", []string{"duration"}},
		{"both", r.heat, -1, -1, "invalid_input", []string{"position", "duration"}},
		{"infinite", r.heat, math.Inf(1), 100, "invalid_input", []string{"position"}},
		{"not a number", r.heat, 1, math.NaN(), "invalid_input", []string{"duration"}},
		{"past the end", r.heat, 101.5, 100, "invalid_input", []string{"position"}},
		{"a series", r.series, 1, 100, "not_playable", nil},
		{"a season", r.season, 1, 100, "not_playable", nil},
		{"unknown", 9999, 1, 100, "media_not_found", nil},
	} {
		err := r.svc.Report(ctx, r.ann, c.media, c.pos, c.dur)
		var de *domain.Error
		require.ErrorAs(t, err, &de, c.name)
		assert.Equal(t, c.code, de.Code, c.name)
		for _, f := range c.badFields {
			assert.Contains(t, de.Fields, f, c.name)
		}
		assert.Len(t, de.Fields, len(c.badFields), c.name)
		if c.badFields == nil {
			_, err = r.svc.SetWatched(ctx, r.ann, c.media, true)
			assert.ErrorIs(t, err, &domain.Error{Kind: de.Kind, Code: c.code}, "SetWatched, %s", c.name)
		}
	}
	st, err := r.svc.States(ctx, r.ann)
	require.NoError(t, err)
	assert.Empty(t, st)

	require.NoError(t, r.svc.Report(ctx, r.ann, r.episode, 100.5, 100))
	w, _ := r.state(t, r.ann, r.episode)
	assert.Equal(t, domain.WatchState{MediaID: r.episode, Position: 100, Duration: 100, Watched: true, UpdatedAt: r.clock.Now()}, w,
		"within a second past the end is the end")
	require.NoError(t, r.svc.Report(ctx, r.ann, r.heat, 42, 0))
	w, _ = r.state(t, r.ann, r.heat)
	assert.Equal(t, domain.WatchState{MediaID: r.heat, Position: 42, UpdatedAt: r.clock.Now()}, w, "an unknown duration bounds nothing")

	pack := r.db.Series("Lost").Season(5, func(m *domain.Media) { // one file: /play plays it
		m.Path, m.EpisodeScanSkipped, m.Size, m.ModTime = "/library/Lost Season_05 720p.mkv", 1, 1<<30, time.Unix(1_700_000_000, 0)
	})
	require.NoError(t, r.svc.Report(ctx, r.ann, pack.ID, 600, 30000))
	w, _ = r.state(t, r.ann, pack.ID)
	assert.InDelta(t, 600, w.Position, 0, "a season that is one file is resumed like a film")
}

func TestSetWatched(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	require.NoError(t, r.svc.Report(ctx, r.ann, r.heat, 600, 6000))
	w, err := r.svc.SetWatched(ctx, r.ann, r.heat, true)
	require.NoError(t, err)
	assert.Equal(t, domain.WatchState{MediaID: r.heat, Position: 600, Duration: 6000, Watched: true, UpdatedAt: r.clock.Now()}, w)
	w, err = r.svc.SetWatched(ctx, r.ann, r.heat, false)
	require.NoError(t, err)
	assert.Equal(t, domain.WatchState{MediaID: r.heat, Duration: 6000, UpdatedAt: r.clock.Now()}, w, "unmarking clears the position")

	require.NoError(t, r.svc.Report(ctx, r.ann, r.heat, 601, 6000))
	got, _ := r.state(t, r.ann, r.heat)
	assert.InDelta(t, 601, got.Position, 0, "after a mark the next report is written, whatever the throttle")
	_, ok := r.state(t, r.bob, r.heat)
	assert.False(t, ok)
}

func TestContinue(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	alien := r.db.Movie("Alien", 1979).ID
	require.NoError(t, r.svc.Report(ctx, r.ann, r.heat, 600, 6000))
	r.clock.add(time.Minute)
	require.NoError(t, r.svc.Report(ctx, r.ann, r.episode, 10, 3000))
	r.clock.add(time.Minute)
	require.NoError(t, r.svc.Report(ctx, r.ann, alien, 5900, 6000)) // watched
	require.NoError(t, r.svc.Report(ctx, r.bob, alien, 100, 6000))

	page, err := r.svc.Continue(ctx, r.ann, nil, 0)
	require.NoError(t, err)
	assert.EqualValues(t, 2, page.Total)
	require.Len(t, page.Items, 2)
	assert.Equal(t, []int64{r.episode, r.heat}, []int64{page.Items[0].Media.ID, page.Items[1].Media.ID})
	assert.InDelta(t, 10, page.Items[0].State.Position, 0)
	assert.InDelta(t, 600, page.Items[1].State.Position, 0)

	one := 1
	page, err = r.svc.Continue(ctx, r.ann, &one, 1)
	require.NoError(t, err)
	assert.EqualValues(t, 2, page.Total)
	require.Len(t, page.Items, 1)
	assert.Equal(t, r.heat, page.Items[0].Media.ID)

	raw := sqlstoretest.Raw(t, r.db.Path) // a client without cascades leaves the row
	raw.SetMaxOpenConns(1)
	for _, q := range []string{`PRAGMA foreign_keys = OFF`, `DELETE FROM media WHERE id = ?`} {
		_, err = raw.Exec(q, r.heat)
		require.NoError(t, err)
	}
	page, err = r.svc.Continue(ctx, r.ann, nil, 0)
	require.NoError(t, err)
	require.Len(t, page.Items, 1, "only entries that still exist")
	assert.Equal(t, r.episode, page.Items[0].Media.ID)

	for _, bad := range []struct {
		limit  int
		offset int
		field  string
	}{{-1, 0, "limit"}, {1001, 0, "limit"}, {10, -1, "offset"}} {
		_, err := r.svc.Continue(ctx, r.ann, &bad.limit, bad.offset)
		var de *domain.Error
		require.ErrorAs(t, err, &de)
		assert.Equal(t, "invalid_input", de.Code)
		assert.Contains(t, de.Fields, bad.field)
	}
}

// TestSeenTellsTheOfflineAssistant: watched entries are finished, begun
// ones started, the rest left out.
func TestSeenTellsTheOfflineAssistant(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	var _ offline.Watching = r.svc
	alien := r.db.Movie("Alien", 1979).ID
	require.NoError(t, r.svc.Report(ctx, r.ann, r.heat, 5999, 6000))
	require.NoError(t, r.svc.Report(ctx, r.ann, alien, 60, 6000))
	require.NoError(t, r.svc.Report(ctx, r.ann, r.episode, 0, 6000))
	seen, err := r.svc.Seen(ctx, r.ann, []int64{r.heat, alien, r.episode, r.series})
	require.NoError(t, err)
	assert.Equal(t, map[int64]domain.Seen{r.heat: domain.SeenFinished, alien: domain.SeenStarted}, seen)
	seen, err = r.svc.Seen(ctx, r.bob, []int64{r.heat, alien})
	require.NoError(t, err)
	assert.Empty(t, seen)
}

// A flush that could not write (a cancelled request, a busy store) keeps
// the report, so the next flush (the player leaving) still writes it.
func TestAFailedFlushKeepsTheReport(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	for sec := 1; sec <= 4; sec++ {
		require.NoError(t, r.svc.Report(ctx, r.ann, r.heat, float64(sec), 6000))
		r.clock.add(time.Second)
	}
	gone, cancel := context.WithCancel(ctx)
	cancel()
	require.Error(t, r.svc.Flush(gone, r.ann, r.heat))
	require.NoError(t, r.svc.Flush(ctx, r.ann, r.heat))
	w, _ := r.state(t, r.ann, r.heat)
	assert.InDelta(t, 4, w.Position, 0, "the held report survived the failed write")
}
