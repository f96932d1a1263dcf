package library_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/usecase/library"
)

func TestEditValidatesEveryField(t *testing.T) {
	e := newEnv(t)
	e.touch("Сериалы/Dark/Season 1/Dark.S01E01.mkv", "Фильмы/Heat.1995.mkv")
	e.scan(library.ScanRequest{})
	heat := e.at("Фильмы/Heat.1995.mkv")
	ep := e.at("Сериалы/Dark/Season 1/Dark.S01E01.mkv")
	series := e.at("Сериалы/Dark")
	ctx := context.Background()
	tests := []struct {
		name  string
		patch library.Patch
		code  string
		field string
	}{
		{"year 3000", library.Patch{"year": 3000.0}, "invalid_input", "year"},
		{"fractional year", library.Patch{"year": 1999.5}, "invalid_input", "year"},
		{"year as text", library.Patch{"year": "1999"}, "invalid_input", "year"},
		{"unknown media type", library.Patch{"media_type": "podcast"}, "invalid_type", "media_type"},
		{"genres not an array", library.Patch{"genres": "drama"}, "invalid_input", "genres"},
		{"genres of numbers", library.Patch{"genres": []any{1.0}}, "invalid_input", "genres"},
		{"rating not numbers", library.Patch{"rating": map[string]any{"imdb": "8"}}, "invalid_input", "rating"},
		{"unknown category", library.Patch{"main_category": "space opera"}, "invalid_category", "main_category"},
		{"path", library.Patch{"path": "/etc/passwd"}, "invalid_input", "path"},
		{"disk name", library.Patch{"disk_name": "x"}, "invalid_input", "disk_name"},
		{"id", library.Patch{"id": 5.0}, "invalid_input", "id"},
		{"status", library.Patch{"status": "ok"}, "invalid_input", "status"},
		{"modified_at", library.Patch{"modified_at": "2020-01-01T00:00:00Z"}, "invalid_input", "modified_at"},
		{"parent is itself", library.Patch{"parent_id": float64(series.ID)}, "invalid_input", "parent_id"},
		{"parent is a descendant", library.Patch{"parent_id": float64(ep.ID)}, "invalid_input", "parent_id"},
		{"parent missing", library.Patch{"parent_id": 99999.0}, "invalid_input", "parent_id"},
		{"nothing known", library.Patch{"colour": "red"}, "invalid_input", ""},
		{"empty", library.Patch{}, "invalid_input", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			target := heat.ID
			if tt.field == "parent_id" {
				target = series.ID
			}
			_, err := e.svc.Edit(ctx, target, tt.patch)
			require.Error(t, err)
			assert.True(t, domain.IsKind(err, domain.KindInvalid), "%v", err)
			assert.Equal(t, tt.code, codeOf(err))
			if tt.field != "" {
				var de *domain.Error
				require.ErrorAs(t, err, &de)
				assert.Contains(t, de.Fields, tt.field)
			}
		})
	}
	assert.Equal(t, heat, e.at("Фильмы/Heat.1995.mkv"), "a refused edit changes nothing")
	_, err := e.svc.Edit(ctx, 424242, library.Patch{"title": "x"})
	assert.ErrorIs(t, err, domain.ErrMediaNotFound)
}

func TestEditAppliesAndClears(t *testing.T) {
	e := newEnv(t)
	e.touch("Фильмы/Боевики/Heat.1995.mkv")
	e.scan(library.ScanRequest{})
	heat := e.at("Фильмы/Боевики/Heat.1995.mkv")
	var patch library.Patch
	dec := json.NewDecoder(stringsReader(`{"title_ru": "Схватка", "genres": ["криминал", "драма"], "rating": {"imdb": 8.3},
		"num_episodes_per_season": [1], "main_category": "Криминал", "year": null, "plot": "Грабители и полицейский.", "colour": "ignored"}`))
	dec.UseNumber()
	require.NoError(t, dec.Decode(&patch))
	got, err := e.svc.Edit(context.Background(), heat.ID, patch)
	require.NoError(t, err)
	assert.Equal(t, "Схватка", got.TitleRu)
	assert.Equal(t, []string{"криминал", "драма"}, got.Genres)
	assert.Equal(t, map[string]float64{"imdb": 8.3}, got.Rating)
	assert.Equal(t, "crime", got.MainCategory, "a category name maps to its slug")
	assert.Nil(t, got.Year, "null clears")
	assert.Equal(t, []string{"genres", "main_category", "num_episodes_per_season", "plot", "rating", "title_ru", "year"}, got.EditedFields)
	assert.Equal(t, "Heat", got.Title, "fields not sent stay")
}
