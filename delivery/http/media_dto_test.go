package http

import (
	"encoding/json"
	"testing"
	"time"

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

// FuzzAppendStringIsEncodingJSON: the entry writer's strings are the bytes
// encoding/json writes, whatever the text (Cyrillic, HTML characters,
// control characters, invalid UTF-8, U+2028).
func FuzzAppendStringIsEncodingJSON(f *testing.F) {
	for _, s := range []string{"", "plain", "Матрица (1999)", "a\"b\\c", "<b>&</b>", "tab\there\n", "\x00\x1f",
		"bad \xff utf8", "\xd0", "line\u2028sep\u2029", "ё and 𝄞", "/path/Сериалы/S01E02.mkv"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, err := json.Marshal(s)
		require.NoError(t, err)
		assert.Equal(t, string(want), string(appendString(nil, s)))
	})
}

// TestAppendTimeIsEncodingJSON: times are written as encoding/json writes
// them in UTC, and null where it would fail or the time is unknown.
func TestAppendTimeIsEncodingJSON(t *testing.T) {
	msk := time.FixedZone("MSK", 3*3600)
	for _, tm := range []time.Time{
		time.Date(2026, 11, 23, 13, 44, 50, 455426750, time.UTC),
		time.Date(2026, 11, 23, 13, 44, 50, 0, msk),
		time.Date(1, 1, 1, 0, 0, 0, 1, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC),
		time.Unix(0, 1795441030637060427),
	} {
		want, err := json.Marshal(tm.UTC())
		require.NoError(t, err)
		assert.Equal(t, string(want), string(appendTime(nil, tm)))
	}
	for _, tm := range []time.Time{{}, time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC)} {
		assert.Equal(t, "null", string(appendTime(nil, tm)), "%v", tm)
	}
}

// TestIntListIsEncodingJSON: a list of numbers is written as encoding/json
// writes it, and an empty one as [].
func TestIntListIsEncodingJSON(t *testing.T) {
	for _, list := range [][]int{{8, 19, 22}, {-1, 0, 1 << 40}, {7}} {
		want, _ := json.Marshal(list)
		assert.Equal(t, string(want), string(appendInts(nil, list)))
	}
	assert.Equal(t, "[]", string(appendInts(nil, nil)))
}
