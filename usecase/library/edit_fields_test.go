package library_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/domain/domaintest"
	"mediateka/usecase/library"
)

// TestEditAcceptsExactlyTheEditableFields sends, for every field of the
// table, a valid value as a client would (decoded JSON): an editable field
// is written and remembered as a person's, any other is refused and
// changes nothing.
func TestEditAcceptsExactlyTheEditableFields(t *testing.T) {
	e := newEnv(t)
	e.touch("Сериалы/Dark/Season 1/Dark.S01E01.mkv", "Фильмы/Heat.1995.mkv")
	e.scan(library.ScanRequest{})
	heat := e.at("Фильмы/Heat.1995.mkv")
	season := e.at("Сериалы/Dark/Season 1")
	want := domaintest.FilledMedia(season.ID)
	ctx := context.Background()
	for _, f := range domain.MediaFields() {
		raw, err := json.Marshal(f.Ref(&want))
		require.NoError(t, err)
		var v any
		require.NoError(t, json.Unmarshal(raw, &v))
		got, err := e.svc.Edit(ctx, heat.ID, library.Patch{f.Name: v})
		if !f.Is(domain.FieldEditable) {
			var de *domain.Error
			require.ErrorAs(t, err, &de, f.Name)
			assert.Equal(t, "cannot be changed", de.Fields[f.Name])
			continue
		}
		require.NoError(t, err, f.Name)
		assert.Equal(t, f.Ref(&want), f.Ref(&got), f.Name)
		assert.Contains(t, got.EditedFields, f.Name)
	}
	after := e.at("Фильмы/Heat.1995.mkv")
	for _, f := range domain.MediaFields() {
		if !f.Is(domain.FieldEditable) {
			assert.Equal(t, f.Ref(&heat), f.Ref(&after), "a refused field is unchanged: %s", f.Name)
		}
	}
}
