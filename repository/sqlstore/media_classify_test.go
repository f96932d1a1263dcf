package sqlstore

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
)

func TestFillMissingWritesOnlyEmptyUneditedColumns(t *testing.T) {
	r, s := newMediaRepo(t)
	ctx := context.Background()
	movie := fileMedia("/m.mkv", "Matrix", domain.MediaMovie)
	movie.Country = "США"
	movie.EditedFields = []string{"plot"}
	ids, err := r.ApplyScan(ctx, []domain.MediaChange{{Media: movie}})
	require.NoError(t, err)
	id := ids["/m.mkv"]

	year := 1999
	values := domain.Media{TitleRu: "Матрица", Year: &year, Country: "Австралия", Plot: "AI plot", Genres: []string{"фантастика"}}
	written, err := r.FillMissing(ctx, id, values, []string{"title_ru", "year", "country", "plot", "genres", "mood"})
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"title_ru", "year", "genres"}, written,
		"a stored country and an edited plot stay; mood had no value to write")

	got, err := r.ByID(ctx, id)
	require.NoError(t, err)
	assert.Equal(t, "Матрица", got.TitleRu)
	assert.Equal(t, "США", got.Country)
	assert.Empty(t, got.Plot)
	assert.Equal(t, []string{"фантастика"}, got.Genres)
	var norm string
	require.NoError(t, s.reader.Raw(`SELECT title_norm FROM media WHERE id = ?`, id).Row().Scan(&norm))
	assert.Equal(t, "matrix|матрица|", norm, "the title search sees the new title")

	var left []int64
	require.NoError(t, r.Unclassified(ctx, func(m domain.Media) error { left = append(left, m.ID); return nil }))
	assert.Empty(t, left, "a classified entry is not picked again")

	_, err = r.FillMissing(ctx, 999, values, []string{"title_ru"})
	assert.ErrorIs(t, err, domain.ErrMediaNotFound)
}

func TestUnclassifiedSkipsEpisodesAndMissingFiles(t *testing.T) {
	r, _ := newMediaRepo(t)
	ctx := context.Background()
	gone := fileMedia("/gone.mkv", "Gone", domain.MediaMovie)
	gone.Status = domain.StatusMissing
	ids, err := r.ApplyScan(ctx, []domain.MediaChange{
		{Media: fileMedia("/m.mkv", "Movie", domain.MediaMovie)},
		{Media: fileMedia("/e.mkv", "Episode", domain.MediaEpisode)},
		{Media: gone},
	})
	require.NoError(t, err)
	var got []int64
	require.NoError(t, r.Unclassified(ctx, func(m domain.Media) error { got = append(got, m.ID); return nil }))
	assert.Equal(t, []int64{ids["/m.mkv"]}, got)
}
