package sqlstore_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/repository/sqlstore/sqlstoretest"
)

var watchT0 = time.Date(2026, 3, 1, 20, 0, 0, 0, time.UTC)

func progress(id int64, pos, dur float64, watched bool, at time.Time) domain.WatchState {
	return domain.WatchState{MediaID: id, Position: pos, Duration: dur, Watched: watched, UpdatedAt: at}
}

// TestWatchStatesRoundTripPerAccount: what is saved for one account is
// read back as saved, exactly once per entry, and never for another
// account; the watched mark, once set by a report, stays.
func TestWatchStatesRoundTripPerAccount(t *testing.T) {
	db := sqlstoretest.New(t, nil)
	ctx := context.Background()
	ann, bob := db.User("ann@example.org"), db.User("bob@example.org")
	heat, alien := db.Movie("Heat", 1995), db.Movie("Alien", 1979)

	require.NoError(t, db.Watching.SaveProgress(ctx, ann.ID, progress(heat.ID, 600.5, 6000, false, watchT0)))
	require.NoError(t, db.Watching.SaveProgress(ctx, ann.ID, progress(alien.ID, 5500, 6000, true, watchT0)))
	got, err := db.Watching.States(ctx, ann.ID)
	require.NoError(t, err)
	assert.Equal(t, map[int64]domain.WatchState{
		heat.ID:  progress(heat.ID, 600.5, 6000, false, watchT0),
		alien.ID: progress(alien.ID, 5500, 6000, true, watchT0),
	}, got)
	none, err := db.Watching.States(ctx, bob.ID)
	require.NoError(t, err)
	assert.Empty(t, none, "another account's states are its own")

	later := watchT0.Add(time.Hour)
	require.NoError(t, db.Watching.SaveProgress(ctx, ann.ID, progress(alien.ID, 60, 6000, false, later)))
	got, err = db.Watching.States(ctx, ann.ID)
	require.NoError(t, err)
	assert.Equal(t, progress(alien.ID, 60, 6000, true, later), got[alien.ID], "a second viewing keeps the mark")
}

// TestSetWatchedKeepsOrClearsThePosition: marking watched keeps the
// position; unmarking clears it; marking an entry never started creates
// its state.
func TestSetWatchedKeepsOrClearsThePosition(t *testing.T) {
	db := sqlstoretest.New(t, nil)
	ctx := context.Background()
	ann := db.User("ann@example.org")
	heat, alien := db.Movie("Heat", 1995), db.Movie("Alien", 1979)
	require.NoError(t, db.Watching.SaveProgress(ctx, ann.ID, progress(heat.ID, 600, 6000, false, watchT0)))

	w, err := db.Watching.SetWatched(ctx, ann.ID, heat.ID, true, watchT0.Add(time.Minute))
	require.NoError(t, err)
	assert.Equal(t, progress(heat.ID, 600, 6000, true, watchT0.Add(time.Minute)), w)
	w, err = db.Watching.SetWatched(ctx, ann.ID, heat.ID, false, watchT0.Add(2*time.Minute))
	require.NoError(t, err)
	assert.Equal(t, progress(heat.ID, 0, 6000, false, watchT0.Add(2*time.Minute)), w)
	w, err = db.Watching.SetWatched(ctx, ann.ID, alien.ID, true, watchT0)
	require.NoError(t, err)
	assert.Equal(t, progress(alien.ID, 0, 0, true, watchT0), w)

	_, err = db.Watching.SetWatched(ctx, ann.ID, 999, true, watchT0)
	assert.ErrorIs(t, err, domain.ErrMediaNotFound)
	err = db.Watching.SaveProgress(ctx, ann.ID, progress(999, 1, 2, false, watchT0))
	assert.ErrorIs(t, err, domain.ErrMediaNotFound)
}

// TestContinueListsStartedEntriesNewestFirst: only begun, unwatched
// entries short of 90 % are listed, most recently updated first, paged,
// with the total of all of them; other accounts' never.
func TestContinueListsStartedEntriesNewestFirst(t *testing.T) {
	db := sqlstoretest.New(t, nil)
	ctx := context.Background()
	ann, bob := db.User("ann@example.org"), db.User("bob@example.org")
	var ids []int64
	for i, title := range []string{"A", "B", "C", "D", "E", "F"} {
		ids = append(ids, db.Movie(title, 2000+i).ID)
	}
	save := func(user int64, w domain.WatchState) {
		require.NoError(t, db.Watching.SaveProgress(ctx, user, w))
	}
	save(ann.ID, progress(ids[0], 100, 1000, false, watchT0.Add(1*time.Minute)))
	save(ann.ID, progress(ids[1], 200, 0, false, watchT0.Add(3*time.Minute)))   // duration unknown
	save(ann.ID, progress(ids[2], 0, 1000, false, watchT0.Add(5*time.Minute)))  // not begun
	save(ann.ID, progress(ids[3], 950, 1000, true, watchT0.Add(6*time.Minute))) // watched
	save(ann.ID, progress(ids[4], 300, 1000, false, watchT0.Add(2*time.Minute)))
	save(bob.ID, progress(ids[5], 300, 1000, false, watchT0.Add(9*time.Minute)))
	_, err := db.Watching.SetWatched(ctx, ann.ID, ids[5], true, watchT0.Add(7*time.Minute))
	require.NoError(t, err)

	page, total, err := db.Watching.Continue(ctx, ann.ID, 100, 0)
	require.NoError(t, err)
	assert.EqualValues(t, 3, total)
	assert.Equal(t, []domain.WatchState{
		progress(ids[1], 200, 0, false, watchT0.Add(3*time.Minute)),
		progress(ids[4], 300, 1000, false, watchT0.Add(2*time.Minute)),
		progress(ids[0], 100, 1000, false, watchT0.Add(1*time.Minute)),
	}, page)

	page, total, err = db.Watching.Continue(ctx, ann.ID, 1, 1)
	require.NoError(t, err)
	assert.EqualValues(t, 3, total)
	require.Len(t, page, 1)
	assert.Equal(t, ids[4], page[0].MediaID)
	page, total, err = db.Watching.Continue(ctx, ann.ID, 0, 0)
	require.NoError(t, err)
	assert.EqualValues(t, 3, total)
	assert.Empty(t, page)
	page, _, err = db.Watching.Continue(ctx, ann.ID, 10, 5)
	require.NoError(t, err)
	assert.Empty(t, page)

	var plan []string
	rows, err := sqlstoretest.Raw(t, db.Path).Query(`EXPLAIN QUERY PLAN SELECT media_id FROM watch_state
		WHERE user_id = ? AND watched = 0 AND position > 0 AND (duration = 0 OR position < ? * duration)
		ORDER BY updated_at DESC, media_id DESC`, ann.ID, domain.WatchedShare)
	require.NoError(t, err)
	defer rows.Close()
	for rows.Next() {
		var id, parent, unused int
		var detail string
		require.NoError(t, rows.Scan(&id, &parent, &unused, &detail))
		plan = append(plan, detail)
	}
	assert.Contains(t, strings.Join(plan, "\n"), "idx_watch_state_continue", "continue reads its index")
}

// TestWatchStatesGoWithTheirAccountAndEntry: deleting an account or a
// media record deletes its states.
func TestWatchStatesGoWithTheirAccountAndEntry(t *testing.T) {
	db := sqlstoretest.New(t, nil)
	ctx := context.Background()
	ann, bob := db.User("ann@example.org"), db.User("bob@example.org")
	heat, alien := db.Movie("Heat", 1995), db.Movie("Alien", 1979)
	for _, u := range []int64{ann.ID, bob.ID} {
		for _, m := range []int64{heat.ID, alien.ID} {
			require.NoError(t, db.Watching.SaveProgress(ctx, u, progress(m, 10, 100, false, watchT0)))
		}
	}
	require.NoError(t, db.Users.Delete(ctx, bob.ID))
	db.Exec(`DELETE FROM media WHERE id = ?`, heat.ID)

	var n int
	db.Scan(`SELECT count(*) FROM watch_state`, nil, &n)
	assert.Equal(t, 1, n, "only ann's Alien is left")
	got, err := db.Watching.States(ctx, ann.ID)
	require.NoError(t, err)
	assert.Equal(t, []int64{alien.ID}, keys(got))
}

// TestStatesSeeEveryChangeAtOnce: an account's states are kept in
// memory, yet a write here, by another process or by raw SQL is what the
// next read gives.
func TestStatesSeeEveryChangeAtOnce(t *testing.T) {
	db := sqlstoretest.New(t, nil)
	ctx := context.Background()
	ann := db.User("ann@example.org")
	heat := db.Movie("Heat", 1995)
	read := func() map[int64]domain.WatchState {
		got, err := db.Watching.States(ctx, ann.ID)
		require.NoError(t, err)
		return got
	}
	assert.Empty(t, read())
	require.NoError(t, db.Watching.SaveProgress(ctx, ann.ID, progress(heat.ID, 10, 100, false, watchT0)))
	assert.InDelta(t, 10, read()[heat.ID].Position, 0)
	require.NoError(t, db.Another().Watching.SaveProgress(ctx, ann.ID, progress(heat.ID, 20, 100, false, watchT0)))
	assert.InDelta(t, 20, read()[heat.ID].Position, 0, "a write by another process")
	db.Exec(`UPDATE watch_state SET position = 30`)
	assert.InDelta(t, 30, read()[heat.ID].Position, 0, "a write by raw SQL")
}

func keys(m map[int64]domain.WatchState) []int64 {
	out := []int64{}
	for k := range m {
		out = append(out, k)
	}
	return out
}
