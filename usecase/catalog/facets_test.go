package catalog_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/repository/sqlstore/sqlstoretest"
	"mediateka/usecase/catalog"
)

func TestFacetsFollowTheFilesFiltersAndEntriesKeepTheOrderAsked(t *testing.T) {
	e := newEnv(t)
	comedy := e.db.Movie("Ёлки", 2010, func(m *domain.Media) { m.MainCategory, m.Genres = "comedy", []string{"комедия"} })
	drama := e.db.Movie("Брат", 1997, func(m *domain.Media) { m.MainCategory, m.DiskName = "drama", "Disk 2" })
	series := e.db.Series("Тьма", sqlstoretest.Year(2017))
	series.Season(1)

	ids := func(q catalog.FilesQuery) []int64 {
		var out []int64
		require.NoError(t, e.svc.Facets(context.Background(), q, func(f domain.MediaFacet) error {
			out = append(out, f.ID)
			return nil
		}))
		return out
	}
	assert.ElementsMatch(t, []int64{comedy.ID, drama.ID}, ids(catalog.FilesQuery{Type: domain.MediaMovie, Text: "ignored"}))
	assert.Equal(t, []int64{comedy.ID}, ids(catalog.FilesQuery{Category: "Комедии"}), "a category by name, as the file list takes it")
	assert.Equal(t, []int64{drama.ID}, ids(catalog.FilesQuery{Disk: "Disk 2"}))
	assert.Equal(t, []int64{series.ID}, ids(catalog.FilesQuery{Type: domain.MediaSeries}))
	err := e.svc.Facets(context.Background(), catalog.FilesQuery{Type: "film"}, func(domain.MediaFacet) error { return nil })
	assert.ErrorIs(t, err, domain.ErrInvalidType)

	got, err := e.svc.Entries(context.Background(), []int64{drama.ID, 999, comedy.ID})
	require.NoError(t, err)
	require.Len(t, got, 2, "an id that does not exist is left out")
	assert.Equal(t, "Брат", got[0].Title)
	assert.Equal(t, []string{"комедия"}, got[1].Genres)
}
