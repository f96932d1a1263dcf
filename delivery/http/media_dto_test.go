package http

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/domain/domaintest"
)

// TestEntryShowsEveryField: every field of the table is a member of the
// entry with its value, and an empty one is null, [] or {} as API.md §3
// says (a field that is never NULL shows its value).
func TestEntryShowsEveryField(t *testing.T) {
	full := domaintest.FilledMedia(3)
	var got, empty map[string]json.RawMessage
	raw, err := json.Marshal(toMediaDTO(full))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(raw, &got))
	raw, err = json.Marshal(toMediaDTO(domain.Media{}))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(raw, &empty))
	for _, f := range domain.MediaFields() {
		want, err := json.Marshal(f.Ref(&full))
		require.NoError(t, err)
		assert.JSONEq(t, string(want), string(got[f.Name]), f.Name)
		blank := map[domain.FieldKind]string{domain.FieldText: "null", domain.FieldInt: "null",
			domain.FieldArray: "[]", domain.FieldObject: "{}"}[f.Kind]
		if f.Is(domain.FieldNotNull) {
			var zero domain.Media
			raw, _ := json.Marshal(f.Ref(&zero))
			blank = string(raw)
		}
		assert.JSONEq(t, blank, string(empty[f.Name]), "empty %s", f.Name)
	}
	for _, name := range []string{"id", "size", "modified_at", "edited_fields", "created_at", "updated_at"} {
		assert.Contains(t, got, name)
	}
	assert.Len(t, got, len(domain.MediaFields())+6, "no member outside the table and the bookkeeping ones")
}
