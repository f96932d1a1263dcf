package catalog_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/repository/localfs"
	"mediateka/repository/sqlstore"
	"mediateka/repository/sqlstore/sqlstoretest"
	"mediateka/usecase/catalog"
	"mediateka/usecase/textmatch"
)

type env struct {
	t     *testing.T
	dir   string
	db    *sqlstoretest.DB
	media *sqlstore.Media
	svc   *catalog.Service
}

func newEnv(t *testing.T) *env {
	t.Helper()
	return newEnvWith(t, catalog.Options{})
}

// newEnvWith is newEnv with service options (search history is written
// every 10ms unless opt says otherwise).
func newEnvWith(t *testing.T, opt catalog.Options) *env {
	t.Helper()
	dir := t.TempDir()
	db := sqlstoretest.New(t, textmatch.Normalize)
	media := db.Media
	if opt.SearchLogEvery == 0 {
		opt.SearchLogEvery = 10 * time.Millisecond
	}
	svc := catalog.New(media, media, localfs.FS{}, opt)
	require.NoError(t, svc.Start(context.Background()))
	t.Cleanup(svc.Close)
	return &env{t: t, dir: dir, db: db, media: media, svc: svc}
}

// rec describes a record to insert: a path "#…" suffix makes it a folder
// record (no file); a parent is named by path.
type rec struct {
	path, title, ru, orig, typ, parent, category string
	year                                         int
}

// add inserts records in order and returns their ids by path.
func (e *env) add(recs ...rec) map[string]int64 {
	e.t.Helper()
	ids := map[string]int64{}
	for _, r := range recs {
		m := domain.Media{DiskName: "Disk", Path: r.path, Title: r.title, TitleRu: r.ru, TitleOrig: r.orig, MediaType: r.typ,
			Status: domain.StatusOK, MainCategory: r.category, ParentID: ids[r.parent]}
		if r.year > 0 {
			y := r.year
			m.Year = &y
		}
		if r.typ == domain.MediaMovie || r.typ == domain.MediaEpisode {
			m.Size, m.ModTime = 1, time.Unix(1, 0)
		}
		got, err := e.media.ApplyScan(context.Background(), []domain.MediaChange{{Media: m}})
		require.NoError(e.t, err)
		ids[r.path] = got[r.path]
	}
	e.svc.MediaChanged()
	require.NoError(e.t, e.svc.Settle(context.Background()), "what a scan or an edit wrote is searchable when it ends")
	return ids
}

func titlesOf(tm catalog.TitleMatch) []string {
	out := []string{tm.Match.Title}
	for _, a := range tm.Alternatives {
		out = append(out, a.Title)
	}
	return out
}

func TestByTitleRanking(t *testing.T) {
	e := newEnv(t)
	e.add(
		rec{path: "/m/1", title: "The Matrix", ru: "Матрица", typ: "movie", year: 1999},
		rec{path: "/m/2", title: "The Matrix Reloaded", typ: "movie", year: 2003},
		rec{path: "/m/3", title: "Matrix", typ: "movie", year: 2021},
		rec{path: "/m/4", title: "Animatrix", typ: "movie", year: 2003},
		rec{path: "/m/5", title: "Matrix Resurrections", typ: "movie", year: 2021},
		rec{path: "/m/6", title: "Ёлки 2", typ: "movie", year: 2011},
		rec{path: "/s", title: "Matrix", typ: "series", year: 1993},
		rec{path: "/s#S01", title: "Matrix", typ: "season", parent: "/s"},
		rec{path: "/s/e1", title: "Matrix", typ: "episode", parent: "/s#S01"},
	)
	ctx := context.Background()
	tm, err := e.svc.ByTitle(ctx, "matrix", "")
	require.NoError(t, err)
	assert.Equal(t, []string{"Matrix", "Matrix", "Matrix", "Matrix", "Matrix Resurrections", "The Matrix Reloaded", "The Matrix", "Animatrix"}, titlesOf(tm))
	assert.Equal(t, domain.MediaMovie, tm.Match.MediaType, "exact, then movies and series, then newer first")
	assert.Equal(t, domain.MediaSeries, tm.Alternatives[0].MediaType)
	assert.Equal(t, domain.MediaSeason, tm.Alternatives[1].MediaType)

	for query, want := range map[string]string{
		"МАТРИЦА": "The Matrix", "the.matrix": "The Matrix", "  The_Matrix!! ": "The Matrix",
		"ёлки": "Ёлки 2", "ЕЛКИ 2": "Ёлки 2", "reloaded": "The Matrix Reloaded", "atrix": "Matrix",
	} {
		tm, err := e.svc.ByTitle(ctx, query, "")
		require.NoError(t, err, query)
		assert.Equal(t, want, tm.Match.Title, query)
	}
	tm, err = e.svc.ByTitle(ctx, "matrix", "series")
	require.NoError(t, err)
	assert.Equal(t, domain.MediaSeries, tm.Match.MediaType)
	assert.Empty(t, tm.Alternatives)

	_, err = e.svc.ByTitle(ctx, "ёлки", "series")
	assert.ErrorIs(t, err, domain.ErrMediaNotFound)
	_, err = e.svc.ByTitle(ctx, "...", "")
	assert.ErrorIs(t, err, domain.ErrMediaNotFound)
	_, err = e.svc.ByTitle(ctx, "   ", "")
	assert.True(t, domain.IsKind(err, domain.KindInvalid))
	_, err = e.svc.ByTitle(ctx, strings.Repeat("я", 501), "")
	assert.True(t, domain.IsKind(err, domain.KindInvalid))
	_, err = e.svc.ByTitle(ctx, "matrix", "podcast")
	assert.ErrorIs(t, err, domain.ErrInvalidType)
}

func TestByTitleKeepsTenAlternativesAndLogsSearches(t *testing.T) {
	e := newEnv(t)
	var recs []rec
	for i := range 15 {
		recs = append(recs, rec{path: "/m/" + string(rune('a'+i)), title: "Star " + string(rune('A'+i)), typ: "movie", year: 2000 + i})
	}
	e.add(recs...)
	tm, err := e.svc.ByTitle(context.Background(), "star", "")
	require.NoError(t, err)
	assert.Len(t, tm.Alternatives, 10)
	assert.Equal(t, "Star O", tm.Match.Title, "newest first among equal matches")
	_, err = e.svc.ByTitle(context.Background(), "nothing like it", "")
	require.Error(t, err)

	e.svc.Close()
	var n, hits, misses int
	var first string
	e.db.Scan(`SELECT count(*), (SELECT query FROM search_history ORDER BY id LIMIT 1),
		(SELECT results_count FROM search_history ORDER BY id LIMIT 1),
		(SELECT results_count FROM search_history ORDER BY id LIMIT 1 OFFSET 1) FROM search_history`, nil, &n, &first, &hits, &misses)
	assert.Equal(t, 2, n)
	assert.Equal(t, "star", first)
	assert.Equal(t, 15, hits)
	assert.Equal(t, 0, misses)
}

func TestIndexFollowsChanges(t *testing.T) {
	e := newEnv(t)
	e.add(rec{path: "/m/1", title: "Heat", typ: "movie", year: 1995})
	_, err := e.svc.ByTitle(context.Background(), "solaris", "")
	require.ErrorIs(t, err, domain.ErrMediaNotFound)
	e.add(rec{path: "/m/2", title: "Solaris", typ: "movie", year: 1972})
	tm, err := e.svc.ByTitle(context.Background(), "solaris", "")
	require.NoError(t, err)
	assert.Equal(t, "Solaris", tm.Match.Title)
}

// A change reported without Settle (classification fills one entry after
// another) never makes a search wait: the index it has answers until the
// background rebuild lands, no sooner than the gap after the last build.
func TestStaleIndexIsServedUntilItIsSettled(t *testing.T) {
	e := newEnvWith(t, catalog.Options{IndexRefreshGap: time.Hour})
	ctx := context.Background()
	e.add(rec{path: "/m/1", title: "Heat", typ: "movie", year: 1995})
	heat, err := e.svc.ByTitle(ctx, "heat", "")
	require.NoError(t, err)
	e.db.Put(domain.Media{DiskName: "Disk", Path: "/m/2", Title: "Solaris", MediaType: "movie", Status: "ok"})
	filled := heat.Match
	filled.Genres = []string{"crime"}
	_, err = e.media.Update(ctx, filled, []string{"genres"})
	require.NoError(t, err)
	e.svc.MediaChanged()
	_, err = e.svc.ByTitle(ctx, "solaris", "")
	assert.ErrorIs(t, err, domain.ErrMediaNotFound, "the search ran on the index it had")
	again, err := e.svc.ByTitle(ctx, "heat", "")
	require.NoError(t, err)
	assert.Equal(t, []string{"crime"}, again.Match.Genres, "the entries found are read fresh while the index is stale")
	require.NoError(t, e.svc.Settle(ctx))
	tm, err := e.svc.ByTitle(ctx, "solaris", "")
	require.NoError(t, err, "Settle brings the index up to date at once")
	assert.Equal(t, "Solaris", tm.Match.Title)
}

func TestStaleIndexCatchesUpInTheBackground(t *testing.T) {
	e := newEnvWith(t, catalog.Options{IndexRefreshGap: 10 * time.Millisecond})
	ctx := context.Background()
	e.add(rec{path: "/m/1", title: "Heat", typ: "movie", year: 1995})
	_, err := e.svc.ByTitle(ctx, "heat", "")
	require.NoError(t, err)
	e.db.Put(domain.Media{DiskName: "Disk", Path: "/m/2", Title: "Solaris", MediaType: "movie", Status: "ok"})
	e.svc.MediaChanged()
	require.Eventually(t, func() bool {
		tm, err := e.svc.ByTitle(ctx, "solaris", "")
		return err == nil && tm.Match.Title == "Solaris"
	}, 10*time.Second, 5*time.Millisecond, "the background rebuild catches up without a Settle")
}

func TestIndexNoticesWritesOfAnotherProcess(t *testing.T) {
	e := newEnv(t)
	var mu sync.Mutex
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	svc := catalog.New(e.media, e.media, localfs.FS{}, catalog.Options{Now: clock})
	t.Cleanup(svc.Close)
	e.add(rec{path: "/m/1", title: "Heat", typ: "movie", year: 1995})
	_, err := svc.ByTitle(context.Background(), "heat", "")
	require.NoError(t, err)
	// The command-line scan writes through its own store and never tells
	// this service.
	e.db.Another().Put(domain.Media{DiskName: "d", Path: "/m/2", Title: "Solaris", MediaType: "movie", Status: "ok"})
	_, err = svc.ByTitle(context.Background(), "solaris", "")
	assert.ErrorIs(t, err, domain.ErrMediaNotFound, "within a second the index may be stale")
	mu.Lock()
	now = now.Add(2 * time.Second)
	mu.Unlock()
	tm, err := svc.ByTitle(context.Background(), "solaris", "")
	require.NoError(t, err)
	assert.Equal(t, "Solaris", tm.Match.Title)
}

func TestFilesFiltersAndValidation(t *testing.T) {
	e := newEnv(t)
	e.add(
		rec{path: "/m/1", title: "Heat", typ: "movie", category: "crime", year: 1995},
		rec{path: "/m/2", title: "Ёлки", typ: "movie", year: 2010},
		rec{path: "/s", title: "Dark", typ: "series"},
	)
	ctx := context.Background()
	list := func(q catalog.FilesQuery) []string {
		var out []string
		l, err := e.svc.Files(ctx, q)
		require.NoError(t, err)
		require.NoError(t, l.Each(ctx, func(m domain.Media) error { out = append(out, m.Title); return nil }))
		return out
	}
	assert.Equal(t, []string{"Heat", "Ёлки", "Dark"}, list(catalog.FilesQuery{}))
	assert.Equal(t, []string{"Heat"}, list(catalog.FilesQuery{Category: "Криминал"}))
	assert.Equal(t, []string{"Ёлки", "Dark"}, list(catalog.FilesQuery{Category: "uncategorized"}))
	assert.Equal(t, []string{"Dark"}, list(catalog.FilesQuery{Type: "series"}))
	assert.Equal(t, []string{"Ёлки"}, list(catalog.FilesQuery{Text: "ЕЛК"}))
	assert.Equal(t, []string{"Ёлки"}, list(catalog.FilesQuery{Limit: new(1), Offset: 1}))
	assert.Empty(t, list(catalog.FilesQuery{Limit: new(0)}), "limit 0 is an empty page")
	l, err := e.svc.Files(ctx, catalog.FilesQuery{Type: "movie", Limit: new(1)})
	require.NoError(t, err)
	assert.EqualValues(t, 2, l.Total, "the total ignores paging")
	l, err = e.svc.Files(ctx, catalog.FilesQuery{Limit: new(0)})
	require.NoError(t, err)
	assert.EqualValues(t, 3, l.Total, "limit 0 still counts")

	for _, q := range []catalog.FilesQuery{{Type: "x"}, {Category: "nope"}, {Limit: new(1001)}, {Limit: new(-1)}, {Offset: -5}} {
		_, err := e.svc.Files(ctx, q)
		assert.True(t, domain.IsKind(err, domain.KindInvalid), "%+v", q)
	}
	stop := errors.New("client gone")
	seen := 0
	l, err = e.svc.Files(ctx, catalog.FilesQuery{})
	require.NoError(t, err)
	err = l.Each(ctx, func(domain.Media) error { seen++; return stop })
	assert.ErrorIs(t, err, stop)
	assert.Equal(t, 1, seen, "the stream stops when the reader does")
}

// TestFilesByStatus: the administrator's "missing" filter selects the
// records whose file is gone, through the store (no text) and through the
// title index (with q) alike, and counts them; a status that is neither
// ok nor missing is refused.
func TestFilesByStatus(t *testing.T) {
	e := newEnv(t)
	ids := e.add(
		rec{path: "/m/1", title: "Heat", typ: "movie", year: 1995},
		rec{path: "/m/2", title: "Heat Wave", typ: "movie", year: 2010},
		rec{path: "/m/3", title: "Dark", typ: "movie"},
	)
	ctx := context.Background()
	_, err := e.media.MarkMissing(ctx, []int64{ids["/m/2"], ids["/m/3"]})
	require.NoError(t, err)
	e.svc.MediaChanged()
	require.NoError(t, e.svc.Settle(ctx))
	list := func(q catalog.FilesQuery) ([]string, int64) {
		l, err := e.svc.Files(ctx, q)
		require.NoError(t, err)
		var out []string
		require.NoError(t, l.Each(ctx, func(m domain.Media) error { out = append(out, m.Title); return nil }))
		return out, l.Total
	}
	got, total := list(catalog.FilesQuery{Status: "missing"})
	assert.Equal(t, []string{"Heat Wave", "Dark"}, got)
	assert.EqualValues(t, 2, total)
	got, total = list(catalog.FilesQuery{Status: "ok"})
	assert.Equal(t, []string{"Heat"}, got)
	assert.EqualValues(t, 1, total)
	got, total = list(catalog.FilesQuery{Status: "missing", Text: "heat"})
	assert.Equal(t, []string{"Heat Wave"}, got, "the text search narrows by status too")
	assert.EqualValues(t, 1, total)
	got, _ = list(catalog.FilesQuery{Status: "ok", Text: "heat", Limit: new(1)})
	assert.Equal(t, []string{"Heat"}, got)
	_, err = e.svc.Files(ctx, catalog.FilesQuery{Status: "gone"})
	if assert.True(t, domain.IsKind(err, domain.KindInvalid)) {
		var de *domain.Error
		require.ErrorAs(t, err, &de)
		assert.Contains(t, de.Fields, "status")
	}
}

// TestWalksReadPageByPage crosses several store pages (256 entries each)
// with and without a limit and an offset, so the keyset paging neither
// drops nor repeats an entry.
func TestWalksReadPageByPage(t *testing.T) {
	e := newEnv(t)
	changes := make([]domain.MediaChange, 0, 700)
	for i := range 700 {
		m := domain.Media{DiskName: "Disk", Path: fmt.Sprintf("/m/%04d.mkv", i), Title: fmt.Sprintf("T%04d", i),
			MediaType: domain.MediaMovie, Status: domain.StatusOK, Size: 1, ModTime: time.Unix(1, 0)}
		if i%2 == 0 {
			m.MainCategory = "drama"
		}
		changes = append(changes, domain.MediaChange{Media: m})
	}
	_, err := e.media.ApplyScan(context.Background(), changes)
	require.NoError(t, err)
	ctx := context.Background()
	titles := func(q catalog.FilesQuery) []string {
		l, err := e.svc.Files(ctx, q)
		require.NoError(t, err)
		var out []string
		require.NoError(t, l.Each(ctx, func(m domain.Media) error { out = append(out, m.Title); return nil }))
		return out
	}
	all := titles(catalog.FilesQuery{})
	require.Len(t, all, 700)
	assert.Equal(t, "T0000", all[0])
	assert.Equal(t, "T0699", all[699])
	assert.Equal(t, all[300:600], titles(catalog.FilesQuery{Offset: 300, Limit: new(300)}))
	assert.Equal(t, all[10:], titles(catalog.FilesQuery{Offset: 10}))

	sh, err := e.svc.ByCategory(ctx, "")
	require.NoError(t, err)
	shelves := map[string]int{}
	require.NoError(t, sh.Each(ctx, domain.MediaMovie, func(shelf string, _ domain.Media) error { shelves[shelf]++; return nil }))
	assert.Equal(t, map[string]int{"drama": 350, "uncategorized": 350}, shelves)
}

func TestByCategoryAndGet(t *testing.T) {
	e := newEnv(t)
	ids := e.add(
		rec{path: "/m/1", title: "Heat", typ: "movie", category: "crime", year: 1995},
		rec{path: "/m/2", title: "Odd", typ: "movie", category: "no-such-slug"},
		rec{path: "/s", title: "Dark", typ: "series", category: "crime"},
		rec{path: "/s#S01", title: "Dark", typ: "season", parent: "/s"},
		rec{path: "/s#S01/e1", title: "Dark", typ: "episode", parent: "/s#S01"},
		rec{path: "/s#S01/e2", title: "Dark", typ: "episode", parent: "/s#S01"},
	)
	ctx := context.Background()
	sh, err := e.svc.ByCategory(ctx, "")
	require.NoError(t, err)
	assert.Len(t, sh.Categories, len(domain.Categories())+1)
	counts := map[string]int{}
	for _, c := range sh.Categories {
		counts[c.Slug] = c.Count
	}
	assert.Equal(t, 2, counts["crime"])
	assert.Equal(t, 1, counts["uncategorized"], "an unknown slug is shown as uncategorized")
	shelves := func(typ string) map[string][]string {
		out := map[string][]string{}
		require.NoError(t, sh.Each(ctx, typ, func(shelf string, m domain.Media) error {
			out[shelf] = append(out[shelf], m.Title)
			return nil
		}))
		return out
	}
	assert.Equal(t, map[string][]string{"crime": {"Heat"}, "uncategorized": {"Odd"}}, shelves(domain.MediaMovie))
	assert.Equal(t, map[string][]string{"crime": {"Dark"}}, shelves(domain.MediaSeries))

	sh, err = e.svc.ByCategory(ctx, "crime")
	require.NoError(t, err)
	require.Len(t, sh.Categories, 1)
	_, err = e.svc.ByCategory(ctx, "nope")
	assert.ErrorIs(t, err, domain.ErrInvalidCategory)

	got, err := e.svc.Get(ctx, ids["/s"])
	require.NoError(t, err)
	require.Len(t, got.Children, 1)
	assert.Len(t, got.Children[0].Children, 2)
	movie, err := e.svc.Get(ctx, ids["/m/1"])
	require.NoError(t, err)
	assert.NotNil(t, movie.Children)
	assert.Empty(t, movie.Children)
	_, err = e.svc.Get(ctx, 9999)
	assert.ErrorIs(t, err, domain.ErrMediaNotFound)
}

func TestStreamResolvesOnlyCatalogueFiles(t *testing.T) {
	e := newEnv(t)
	video := filepath.Join(e.dir, "Heat.1995.mp4")
	require.NoError(t, os.WriteFile(video, []byte("0123456789"), 0o644))
	ids := e.add(
		rec{path: video, title: "Heat", typ: "movie"},
		rec{path: filepath.Join(e.dir, "gone.mkv"), title: "Gone", typ: "movie"},
		rec{path: "/s", title: "Dark", typ: "series"},
	)
	ctx := context.Background()
	f, err := e.svc.Stream(ctx, ids[video])
	require.NoError(t, err)
	assert.Equal(t, "video/mp4", f.ContentType)
	assert.EqualValues(t, 10, f.Size)
	_, err = e.svc.Stream(ctx, ids["/s"])
	assert.ErrorIs(t, err, domain.ErrNoFile)
	_, err = e.svc.Stream(ctx, ids[filepath.Join(e.dir, "gone.mkv")])
	assert.ErrorIs(t, err, domain.ErrFileMissing)
	_, err = e.svc.Stream(ctx, 777)
	assert.ErrorIs(t, err, domain.ErrMediaNotFound)
	assert.Equal(t, "video/x-matroska", catalog.ContentType("a.MKV"))
	assert.Equal(t, "video/mp2t", catalog.ContentType("a.m2ts"))
}
