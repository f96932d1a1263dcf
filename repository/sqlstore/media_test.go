package sqlstore

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
)

func lowerNorm(s string) string { return strings.ToLower(s) }

func newMediaRepo(t *testing.T) (*Media, *Store) {
	t.Helper()
	s, _ := openTemp(t)
	return NewMedia(s, lowerNorm), s
}

func fileMedia(path, title, typ string) domain.Media {
	return domain.Media{DiskName: "d", Path: path, Title: title, MediaType: typ, Status: domain.StatusOK,
		Size: 10, ModTime: time.Unix(100, 5)}
}

func TestLibraryMigrationAddsColumns(t *testing.T) {
	s, _ := openTemp(t)
	var cols []struct{ Name string }
	require.NoError(t, s.reader.Raw("PRAGMA table_info(media)").Scan(&cols).Error)
	names := map[string]bool{}
	for _, c := range cols {
		names[c.Name] = true
	}
	for _, c := range []string{"size", "mtime", "content_hash", "edited_fields", "title_norm", "created_at", "updated_at"} {
		assert.True(t, names[c], c)
	}
}

func TestApplyScanResolvesParentsInTheBatch(t *testing.T) {
	r, _ := newMediaRepo(t)
	ctx := context.Background()
	series := domain.Media{DiskName: "d", Path: "/tv/Show", Title: "Show", MediaType: domain.MediaSeries, Status: "ok"}
	season := domain.Media{DiskName: "d", Path: "/tv/Show#S01", Title: "Show", MediaType: domain.MediaSeason, Status: "ok"}
	ep := fileMedia("/tv/Show/e1.mkv", "Pilot", domain.MediaEpisode)
	ep.Genres = []string{"drama"}
	ids, err := r.ApplyScan(ctx, []domain.MediaChange{
		{Media: series}, {Media: season, ParentPath: "/tv/Show"}, {Media: ep, ParentPath: "/tv/Show#S01"},
	})
	require.NoError(t, err)
	require.Len(t, ids, 3)
	got, err := r.ByID(ctx, ids["/tv/Show/e1.mkv"])
	require.NoError(t, err)
	assert.Equal(t, ids["/tv/Show#S01"], got.ParentID)
	assert.Equal(t, []string{"drama"}, got.Genres)
	assert.Equal(t, time.Unix(100, 5).UTC(), got.ModTime)
	assert.True(t, got.HasFile())
	assert.False(t, got.CreatedAt.IsZero())
	sea, err := r.ByID(ctx, ids["/tv/Show#S01"])
	require.NoError(t, err)
	assert.False(t, sea.HasFile())

	_, err = r.ApplyScan(ctx, []domain.MediaChange{{Media: fileMedia("/x.mkv", "x", "movie"), ParentPath: "/nowhere"}})
	require.Error(t, err, "a parent outside the batch is a bug, not a silent orphan")
	_, err = r.ApplyScan(ctx, []domain.MediaChange{{Media: fileMedia("/tv/Show/e1.mkv", "dup", "episode")}})
	assert.True(t, domain.IsKind(err, domain.KindConflict), "%v", err)
}

func TestFailedBatchWritesNothing(t *testing.T) {
	r, _ := newMediaRepo(t)
	ctx := context.Background()
	_, err := r.ApplyScan(ctx, []domain.MediaChange{
		{Media: fileMedia("/a.mkv", "A", "movie")},
		{Media: fileMedia("/a.mkv", "A again", "movie")},
	})
	require.Error(t, err)
	n, err := r.Count(ctx, domain.MediaFilter{})
	require.NoError(t, err)
	assert.Zero(t, n)
}

func TestEachFiltersAndPages(t *testing.T) {
	r, _ := newMediaRepo(t)
	ctx := context.Background()
	a := fileMedia("/m/a.mkv", "Ёлки", domain.MediaMovie)
	a.MainCategory = "comedy"
	b := fileMedia("/m/b.mkv", "50%_off", domain.MediaMovie)
	c := fileMedia("/s/c.mkv", "Show", domain.MediaEpisode)
	c.DiskName = "other"
	c.MainCategory = "no-such-slug"
	_, err := r.ApplyScan(ctx, []domain.MediaChange{{Media: a}, {Media: b}, {Media: c}})
	require.NoError(t, err)

	titles := func(f domain.MediaFilter) []string {
		var out []string
		require.NoError(t, r.Each(ctx, f, func(m domain.Media) error { out = append(out, m.Title); return nil }))
		return out
	}
	assert.Equal(t, []string{"Ёлки", "50%_off", "Show"}, titles(domain.MediaFilter{}))
	assert.Equal(t, []string{"Ёлки"}, titles(domain.MediaFilter{Category: "comedy"}))
	assert.Equal(t, []string{"50%_off", "Show"}, titles(domain.MediaFilter{Category: domain.CategoryUncategorized}),
		"uncategorized is no category of the fixed list")
	assert.Equal(t, []string{"50%_off", "Show"}, titles(domain.MediaFilter{AfterID: 1}))
	assert.Equal(t, []string{"Show"}, titles(domain.MediaFilter{AfterID: 1, Offset: 1}))
	assert.Equal(t, []string{"Show"}, titles(domain.MediaFilter{Disk: "other"}))
	assert.Equal(t, []string{"Ёлки", "50%_off"}, titles(domain.MediaFilter{TopLevel: true}))
	assert.Equal(t, []string{"50%_off"}, titles(domain.MediaFilter{Limit: 1, Offset: 1}))
	assert.Equal(t, []string{"Show"}, titles(domain.MediaFilter{Offset: 2}))
	n, err := r.Count(ctx, domain.MediaFilter{Type: domain.MediaMovie, Limit: 1})
	require.NoError(t, err)
	assert.EqualValues(t, 2, n)
}

func TestUpdateKeepsTitleNormInStep(t *testing.T) {
	r, s := newMediaRepo(t)
	ctx := context.Background()
	ids, err := r.ApplyScan(ctx, []domain.MediaChange{{Media: fileMedia("/a.mkv", "Old", "movie")}})
	require.NoError(t, err)
	id := ids["/a.mkv"]
	require.NoError(t, s.writer.Exec(`UPDATE media SET content_hash = 'h' WHERE id = ?`, id).Error)
	m, err := r.ByID(ctx, id)
	require.NoError(t, err)
	m.Title, m.TitleRu, m.Size = "New", "Новое", 99
	got, err := r.Update(ctx, m, []string{"title", "size"})
	require.NoError(t, err)
	assert.Equal(t, "New", got.Title)
	assert.Empty(t, got.TitleRu, "columns not named are left alone")
	var norm, hash *string
	require.NoError(t, s.reader.Raw(`SELECT title_norm FROM media WHERE id = ?`, id).Row().Scan(&norm))
	require.NoError(t, s.reader.Raw(`SELECT content_hash FROM media WHERE id = ?`, id).Row().Scan(&hash))
	assert.Equal(t, "new||", *norm)
	assert.Nil(t, hash, "a new size clears the content hash")

	_, err = r.Update(ctx, domain.Media{ID: 999}, []string{"title"})
	assert.ErrorIs(t, err, domain.ErrMediaNotFound)
}

func TestScanStateSelectsByPrefix(t *testing.T) {
	r, _ := newMediaRepo(t)
	ctx := context.Background()
	var changes []domain.MediaChange
	for _, p := range []string{"/tv", "/tv/a.mkv", "/tv#show", "/tv#show#S01", "/tv-2/b.mkv", "/tvx.mkv", "/t/c.mkv"} {
		changes = append(changes, domain.MediaChange{Media: fileMedia(p, p, "movie")})
	}
	_, err := r.ApplyScan(ctx, changes)
	require.NoError(t, err)
	var got []string
	require.NoError(t, r.ScanState(ctx, []string{"/tv"}, func(m domain.Media) error { got = append(got, m.Path); return nil }))
	assert.ElementsMatch(t, []string{"/tv", "/tv/a.mkv", "/tv#show", "/tv#show#S01"}, got)
	got = nil
	require.NoError(t, r.ScanState(ctx, []string{"/"}, func(m domain.Media) error { got = append(got, m.Path); return nil }))
	assert.Len(t, got, 7)
}

func TestReconcileAndMarkMissing(t *testing.T) {
	r, s := newMediaRepo(t)
	ctx := context.Background()
	series := domain.Media{DiskName: "d", Path: "/tv/S", MediaType: domain.MediaSeries, Status: "ok"}
	one, two := 1, 2
	s1 := domain.Media{DiskName: "d", Path: "/tv/S#S01", MediaType: domain.MediaSeason, Status: "ok", Number: &one}
	s2 := domain.Media{DiskName: "d", Path: "/tv/S#S02", MediaType: domain.MediaSeason, Status: "ok", Number: &two}
	e1 := fileMedia("/tv/S/1.mkv", "1", domain.MediaEpisode)
	e2 := fileMedia("/tv/S/2.mkv", "2", domain.MediaEpisode)
	e3 := fileMedia("/tv/S/3.mkv", "3", domain.MediaEpisode)
	ids, err := r.ApplyScan(ctx, []domain.MediaChange{{Media: series}, {Media: s1, ParentPath: "/tv/S"},
		{Media: s2, ParentPath: "/tv/S"}, {Media: e1, ParentPath: "/tv/S#S01"}, {Media: e2, ParentPath: "/tv/S#S01"},
		{Media: e3, ParentPath: "/tv/S#S02"}})
	require.NoError(t, err)
	n, err := r.Reconcile(ctx)
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	got, _ := r.ByID(ctx, ids["/tv/S"])
	assert.Equal(t, 2, *got.NumOfSeasons)
	assert.Equal(t, []int{2, 1}, got.NumEpisodesPerSeason)

	n, err = r.Reconcile(ctx)
	require.NoError(t, err)
	assert.Zero(t, n, "nothing changed, nothing written")

	marked, err := r.MarkMissing(ctx, []int64{ids["/tv/S/3.mkv"]})
	require.NoError(t, err)
	assert.Equal(t, 1, marked)
	marked, err = r.MarkMissing(ctx, []int64{ids["/tv/S/3.mkv"]})
	require.NoError(t, err)
	assert.Zero(t, marked)
	_, err = r.Reconcile(ctx)
	require.NoError(t, err)
	sea, _ := r.ByID(ctx, ids["/tv/S#S02"])
	assert.Equal(t, domain.StatusMissing, sea.Status)
	got, _ = r.ByID(ctx, ids["/tv/S"])
	assert.Equal(t, domain.StatusOK, got.Status)

	require.NoError(t, s.writer.Exec(`UPDATE media SET num_of_seasons = 7, edited_fields = '["num_of_seasons"]' WHERE id = ?`, ids["/tv/S"]).Error)
	_, err = r.Reconcile(ctx)
	require.NoError(t, err)
	got, _ = r.ByID(ctx, ids["/tv/S"])
	assert.Equal(t, 7, *got.NumOfSeasons, "an edited count is a person's and stays")
}

func TestSharedSizeFilesAndHashes(t *testing.T) {
	r, _ := newMediaRepo(t)
	ctx := context.Background()
	a, b, c := fileMedia("/a.mkv", "a", "movie"), fileMedia("/b.mkv", "b", "movie"), fileMedia("/c.mkv", "c", "movie")
	c.Size = 11
	ids, err := r.ApplyScan(ctx, []domain.MediaChange{{Media: a}, {Media: b}, {Media: c}})
	require.NoError(t, err)
	files, err := r.SharedSizeFiles(ctx)
	require.NoError(t, err)
	require.Len(t, files, 2)
	assert.Equal(t, "/a.mkv", files[0].Path)
	require.NoError(t, r.SetContentHashes(ctx, []domain.FileHash{{ID: ids["/a.mkv"], Size: 10, Hash: "h1"}, {ID: ids["/b.mkv"], Size: 99, Hash: "stale"}}))
	files, err = r.SharedSizeFiles(ctx)
	require.NoError(t, err)
	assert.Equal(t, "h1", files[0].Hash)
	assert.Equal(t, "", files[1].Hash, "a hash taken at another size is not stored")
}

func TestKeysAndLogSearches(t *testing.T) {
	r, s := newMediaRepo(t)
	ctx := context.Background()
	m := fileMedia("/a.mkv", "Title", "movie")
	m.TitleOrig = "Orig"
	y := 1999
	m.Year = &y
	_, err := r.ApplyScan(ctx, []domain.MediaChange{{Media: m}})
	require.NoError(t, err)
	var keys []domain.MediaKey
	require.NoError(t, r.Keys(ctx, func(k domain.MediaKey) error { keys = append(keys, k); return nil }))
	require.Len(t, keys, 1)
	assert.Equal(t, []string{"title", "", "orig"}, keys[0].Titles)
	assert.Equal(t, 1999, keys[0].Year)

	require.NoError(t, r.LogSearches(ctx, []domain.SearchRecord{{Query: "q", ResultsCount: 3}}))
	var n int
	require.NoError(t, s.reader.Raw(`SELECT results_count FROM search_history WHERE query = 'q'`).Row().Scan(&n))
	assert.Equal(t, 3, n)
	counts, err := r.CountByType(ctx)
	require.NoError(t, err)
	assert.Equal(t, 1, counts["movie"]["ok"])
}

// Thousands of library folders: neither query may grow with their number
// (SQLite refuses an expression tree deeper than 1000).
func TestScanStateAndCountUnderThousandsOfPrefixes(t *testing.T) {
	r, _ := newMediaRepo(t)
	ctx := context.Background()
	var changes []domain.MediaChange
	for _, p := range []string{"/tv", "/tv/a.mkv", "/tv/deep/b.mkv", "/tv#show", "/tv#show#S01", "/tv-2/b.mkv", "/tvx.mkv", "/t/c.mkv"} {
		changes = append(changes, domain.MediaChange{Media: fileMedia(p, p, "movie")})
	}
	_, err := r.ApplyScan(ctx, changes)
	require.NoError(t, err)
	prefixes := []string{"/tv/"}
	for i := range 1500 {
		prefixes = append(prefixes, fmt.Sprintf("/disk%04d", i))
	}
	prefixes = append(prefixes, "/t", "/")
	var got []string
	require.NoError(t, r.ScanState(ctx, prefixes[:1501], func(m domain.Media) error { got = append(got, m.Path); return nil }))
	assert.ElementsMatch(t, []string{"/tv", "/tv/a.mkv", "/tv/deep/b.mkv", "/tv#show", "/tv#show#S01"}, got)

	counts, err := r.CountUnder(ctx, prefixes)
	require.NoError(t, err)
	require.Len(t, counts, len(prefixes))
	assert.Equal(t, 5, counts[0], "/tv/ counts the folder, below it and its #-paths")
	assert.Equal(t, 0, counts[1])
	assert.Equal(t, 1, counts[1501], "/t holds only /t/c.mkv")
	assert.Equal(t, 8, counts[1502], "/ holds everything")
}
