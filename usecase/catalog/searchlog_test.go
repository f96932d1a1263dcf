package catalog_test

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/repository/localfs"
	"mediateka/repository/sqlstore/sqlstoretest"
	"mediateka/usecase/catalog"
	"mediateka/usecase/textmatch"
)

// TestSearchHistoryStaysBounded searches more often than the cap allows,
// after older searches have aged out: the table keeps the newest rows only.
func TestSearchHistoryStaysBounded(t *testing.T) {
	var clock atomic.Int64
	start := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	clock.Store(start.UnixNano())
	e := newEnvWith(t, catalog.Options{SearchHistoryRows: 5, SearchHistoryAge: 90 * 24 * time.Hour,
		Now: func() time.Time { return time.Unix(0, clock.Load()) }})
	e.add(rec{path: "/m/1", title: "Heat", typ: "movie"})
	ctx := context.Background()
	queries := func() []string {
		recs, err := e.media.Searches(ctx)
		require.NoError(t, err)
		var out []string
		for _, r := range recs {
			out = append(out, r.Query)
		}
		return out
	}

	for i := range 3 {
		_, _ = e.svc.ByTitle(ctx, fmt.Sprintf("old %d", i), "")
	}
	require.Eventually(t, func() bool { return len(queries()) == 3 }, 5*time.Second, 5*time.Millisecond)

	clock.Store(start.Add(91 * 24 * time.Hour).UnixNano())
	_, _ = e.svc.ByTitle(ctx, "new 0", "")
	require.Eventually(t, func() bool { return len(queries()) == 1 }, 5*time.Second, 5*time.Millisecond,
		"rows older than the age bound are pruned")
	for i := 1; i < 12; i++ {
		_, _ = e.svc.ByTitle(ctx, fmt.Sprintf("new %d", i), "")
	}
	e.svc.Close()
	assert.Equal(t, []string{"new 7", "new 8", "new 9", "new 10", "new 11"}, queries(), "the newest rows, at most the cap")
}

// TestSearchHistoryWriterStartsWithTheLifecycle: building the catalogue
// starts nothing; searches made before Start are queued, not written, and
// Close writes them even when the writer never ran.
func TestSearchHistoryWriterStartsWithTheLifecycle(t *testing.T) {
	db := sqlstoretest.New(t, textmatch.Normalize)
	svc := catalog.New(db.Media, db.Media, localfs.FS{}, catalog.Options{SearchLogEvery: time.Millisecond})
	ctx := context.Background()
	_, _ = svc.ByTitle(ctx, "Heat", "")
	time.Sleep(20 * time.Millisecond) // twenty periods of a writer that would be running
	recs, err := db.Media.Searches(ctx)
	require.NoError(t, err)
	assert.Empty(t, recs, "New must not start the writer")

	svc.Close()
	recs, err = db.Media.Searches(ctx)
	require.NoError(t, err)
	require.Len(t, recs, 1, "Close writes what was queued")
	assert.Equal(t, "Heat", recs[0].Query)
}

// TestSearchesNeverWaitForABusyDatabase: while another connection holds
// the database's write lock, searches keep answering; those the queue
// cannot take are dropped, and the writer reports how many once per
// batch, not once per search.
func TestSearchesNeverWaitForABusyDatabase(t *testing.T) {
	logs := &warnings{}
	e := newEnvWith(t, catalog.Options{SearchLogEvery: 5 * time.Millisecond, Logger: slog.New(logs)})
	e.add(rec{path: "/m/1", title: "Heat", typ: "movie"})
	ctx := context.Background()
	lock := sqlstoretest.Raw(t, e.db.Path)
	conn, err := lock.Conn(ctx)
	require.NoError(t, err)
	_, err = conn.ExecContext(ctx, "BEGIN IMMEDIATE")
	require.NoError(t, err)
	unlock := sync.OnceFunc(func() { _, _ = conn.ExecContext(ctx, "COMMIT"); _ = conn.Close() })
	t.Cleanup(unlock) // before the service's cleanup, which would wait for the lock
	const searches = 3000
	for i := range searches {
		_, err := e.svc.ByTitle(ctx, fmt.Sprintf("nothing %d", i), "")
		require.ErrorIs(t, err, domain.ErrMediaNotFound)
	}
	unlock()
	e.svc.Close()

	recs, err := e.media.Searches(ctx)
	require.NoError(t, err)
	dropped, reports := logs.dropped()
	assert.Positive(t, dropped, "the queue holds 1024 searches; some were dropped")
	assert.Equal(t, searches, len(recs)+dropped, "every search is either logged or counted as dropped")
	assert.Less(t, reports, 5, "one report per batch, not one per search")
}

// warnings is a slog handler that keeps the "searches were not logged"
// reports.
type warnings struct {
	mu     sync.Mutex
	counts []int64
}

func (w *warnings) Enabled(context.Context, slog.Level) bool { return true }
func (w *warnings) WithAttrs([]slog.Attr) slog.Handler       { return w }
func (w *warnings) WithGroup(string) slog.Handler            { return w }
func (w *warnings) Handle(_ context.Context, r slog.Record) error {
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "searches" {
			w.mu.Lock()
			w.counts = append(w.counts, a.Value.Int64())
			w.mu.Unlock()
		}
		return true
	})
	return nil
}

func (w *warnings) dropped() (total, reports int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, n := range w.counts {
		total += int(n)
	}
	return total, len(w.counts)
}
