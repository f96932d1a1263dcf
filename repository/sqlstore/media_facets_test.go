package sqlstore

import (
	"cmp"
	"context"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
)

// Facets reads what counting and suggesting need, the same values whole
// records carry, for the records the filter selects.
func TestFacetsAreTheLightViewOfTheRecords(t *testing.T) {
	r, s := newMediaRepo(t)
	ctx := context.Background()
	year := 2010
	rated := fileMedia("/m/inception.mkv", "Inception", domain.MediaMovie)
	rated.Year, rated.MainCategory, rated.Genres = &year, "sci_fi", []string{"фантастика", "триллер"}
	rated.Rating, rated.WhyWatch = map[string]float64{"imdb": 8.8}, "Сон во сне."
	plain := fileMedia("/m/plain.mkv", "Plain", domain.MediaMovie)
	plain.DiskName, plain.Status = "other", domain.StatusMissing
	odd := fileMedia("/m/odd.mkv", "Odd", domain.MediaMovie)
	odd.Plot, odd.TitleRu, odd.TitleOrig = "About something.", "Странное", "Odd"
	series := domain.Media{DiskName: "d", Path: "/tv/Show", Title: "Show", MediaType: domain.MediaSeries, Status: "ok",
		Genres: []string{"фантастика", "триллер"}}
	ids, err := r.ApplyScan(ctx, []domain.MediaChange{{Media: rated}, {Media: plain}, {Media: odd}, {Media: series}})
	require.NoError(t, err)
	require.NoError(t, s.writer.Exec(`UPDATE media SET genres = 'not json' WHERE id = ?`, ids["/m/odd.mkv"]).Error)

	facets := func(f domain.MediaFilter) []domain.MediaFacet {
		var out []domain.MediaFacet
		require.NoError(t, r.Facets(ctx, f, func(m domain.MediaFacet) error { out = append(out, m); return nil }))
		slices.SortFunc(out, func(a, b domain.MediaFacet) int { return cmp.Compare(a.ID, b.ID) })
		return out
	}
	movies := facets(domain.MediaFilter{Type: domain.MediaMovie, Limit: 1})
	require.Len(t, movies, 3, "the limit is ignored")
	assert.Equal(t, domain.MediaFacet{ID: ids["/m/inception.mkv"], Type: domain.MediaMovie, Title: "Inception", Year: 2010, MainCategory: "sci_fi",
		Status: domain.StatusOK, Genres: []string{"фантастика", "триллер"}, Rating: map[string]float64{"imdb": 8.8}, Described: true}, movies[0])
	assert.Equal(t, domain.MediaFacet{ID: ids["/m/plain.mkv"], Type: domain.MediaMovie, Title: "Plain", Status: domain.StatusMissing}, movies[1])
	whole, err := r.ByID(ctx, ids["/m/odd.mkv"])
	require.NoError(t, err)
	assert.Equal(t, whole.Genres, movies[2].Genres, "a malformed list reads as whole records read it")
	assert.True(t, movies[2].Described, "a plot describes it")
	assert.Equal(t, [3]string{"Odd", "Странное", "Odd"}, [3]string{movies[2].Title, movies[2].TitleRu, movies[2].TitleOrig})

	assert.Len(t, facets(domain.MediaFilter{Disk: "other"}), 1)
	shows := facets(domain.MediaFilter{Type: domain.MediaSeries})
	require.Len(t, shows, 1)
	assert.Equal(t, []string{"фантастика", "триллер"}, shows[0].Genres)
}
