package sqlstore

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
)

func TestStatsCountWorksByCategoryAndDecade(t *testing.T) {
	r, _ := newMediaRepo(t)
	ctx := context.Background()
	year := func(y int) *int { return &y }
	var changes []domain.MediaChange
	for _, m := range []struct {
		path, typ, cat string
		year           *int
	}{
		{"/m/heat.mkv", domain.MediaMovie, "action", year(1995)},
		{"/m/matrix.mkv", domain.MediaMovie, "sci_fi", year(1999)},
		{"/m/brat.mkv", domain.MediaMovie, "", year(1997)},
		{"/m/odd.mkv", domain.MediaMovie, "комедии-старые", nil},
		{"/tv/Dark", domain.MediaSeries, "sci_fi", year(2017)},
		{"/tv/Dark/Season 1", domain.MediaSeason, "sci_fi", year(2017)},
		{"/tv/Dark/Season 1/e1.mkv", domain.MediaEpisode, "sci_fi", year(2017)},
	} {
		fm := fileMedia(m.path, m.path, m.typ)
		fm.MainCategory, fm.Year = m.cat, m.year
		changes = append(changes, domain.MediaChange{Media: fm})
	}
	_, err := r.ApplyScan(ctx, changes)
	require.NoError(t, err)
	works, err := r.CountWorks(ctx)
	require.NoError(t, err)
	assert.ElementsMatch(t, []domain.WorkCount{
		{Category: "action", Decade: 1990, Count: 1},
		{Category: "sci_fi", Decade: 1990, Count: 1},
		{Category: "", Decade: 1990, Count: 1},
		{Category: "комедии-старые", Decade: 0, Count: 1},
		{Category: "sci_fi", Decade: 2010, Count: 1},
	}, works, "movies and series only; an unknown year is decade 0")
}

func TestStatsUsageUnderFolders(t *testing.T) {
	r, _ := newMediaRepo(t)
	ctx := context.Background()
	var changes []domain.MediaChange
	for _, m := range []struct {
		path   string
		size   int64
		status string
	}{
		{"/tv", 0, domain.StatusOK},
		{"/tv/a.mkv", 100, domain.StatusOK},
		{"/tv/deep/b.mkv", 20, domain.StatusOK},
		{"/tv/gone.mkv", 7000, domain.StatusMissing},
		{"/tv#show", 0, domain.StatusOK},
		{"/tv-2/b.mkv", 5, domain.StatusOK},
		{"/films/c.mkv", 3, domain.StatusOK},
	} {
		fm := fileMedia(m.path, m.path, domain.MediaMovie)
		fm.Size, fm.Status = m.size, m.status
		changes = append(changes, domain.MediaChange{Media: fm})
	}
	_, err := r.ApplyScan(ctx, changes)
	require.NoError(t, err)
	got, err := r.UsageUnder(ctx, []string{"/tv/", "/nowhere", "/films", "/"})
	require.NoError(t, err)
	assert.Equal(t, []domain.FolderUsage{
		{Entries: 5, Bytes: 120},
		{},
		{Entries: 1, Bytes: 3},
		{Entries: 7, Bytes: 128},
	}, got, "a missing file counts as an entry, not as bytes; /tv-2 is not under /tv")
	counts, err := r.CountUnder(ctx, []string{"/tv/", "/nowhere", "/films", "/"})
	require.NoError(t, err)
	for i, u := range got {
		assert.Equal(t, counts[i], u.Entries, "the same entries as /roots counts")
	}
	none, err := r.UsageUnder(ctx, nil)
	require.NoError(t, err)
	assert.Empty(t, none)
}

// BenchmarkStatsOverview is the admin overview's statements over a
// catalogue of 100 000 records (60 000 movies, 2 000 series, 38 000
// episodes) under 10 library folders: works, usage and by_type run when
// the catalogue changed; version is all a repeated overview asks.
func BenchmarkStatsOverview(b *testing.B) {
	s, err := Open(context.Background(), b.TempDir()+"/bench.db")
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	r := NewMedia(s, lowerNorm)
	ctx := context.Background()
	cats := []string{"action", "comedy", "drama", "sci_fi", "", "horror", "documentary"}
	var batch []domain.MediaChange
	flush := func() {
		if _, err := r.ApplyScan(ctx, batch); err != nil {
			b.Fatal(err)
		}
		batch = batch[:0]
	}
	for i := range 100_000 {
		typ, path := domain.MediaMovie, fmt.Sprintf("/disk%d/Film %d (%d)/film.%d.mkv", i%10, i, 1950+i%75, i)
		switch {
		case i >= 60_000 && i < 62_000:
			typ, path = domain.MediaSeries, fmt.Sprintf("/disk%d/Show %d", i%10, i)
		case i >= 62_000:
			typ, path = domain.MediaEpisode, fmt.Sprintf("/disk%d/Show %d/e%d.mkv", i%10, 60_000+i%2000, i)
		}
		m := fileMedia(path, fmt.Sprintf("Title %d", i), typ)
		year := 1950 + i%75
		m.Year, m.MainCategory, m.Size = &year, cats[i%len(cats)], int64(i)*1000
		batch = append(batch, domain.MediaChange{Media: m})
		if len(batch) == 5000 {
			flush()
		}
	}
	flush()
	roots := make([]string, 10)
	for i := range roots {
		roots[i] = fmt.Sprintf("/disk%d", i)
	}
	b.Run("works", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if w, err := r.CountWorks(ctx); err != nil || len(w) == 0 {
				b.Fatal(err)
			}
		}
	})
	b.Run("usage", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if u, err := r.UsageUnder(ctx, roots); err != nil || u[0].Entries != 10_000 {
				b.Fatal(err, u)
			}
		}
	})
	b.Run("version", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := r.Version(ctx); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("by_type", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := r.CountByType(ctx); err != nil {
				b.Fatal(err)
			}
		}
	})
}
