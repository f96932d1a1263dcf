package sqlstore

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/domain/domaintest"
)

// TestSearchKeyIsTheSearchableFields: the stored search key and the keys
// the title index reads hold the searchable fields of the table, each at
// its place, and no other field: a field flagged searchable that the key
// builder forgot, or a field it took without the flag, fails here.
func TestSearchKeyIsTheSearchableFields(t *testing.T) {
	r, _ := newMediaRepo(t)
	ctx := context.Background()
	names := domain.MediaFieldNames(domain.FieldSearchable)
	require.NotEmpty(t, names)
	m := domaintest.FilledMedia(0) // every text field holds a value of its own
	want := make([]string, len(names))
	for i, name := range names {
		f, _ := domain.MediaFieldNamed(name)
		want[i] = lowerNorm(*f.Ref(&m).(*string))
	}
	key := r.titleNorm(&m)
	assert.Equal(t, strings.Join(want, "|"), key)
	for _, f := range domain.MediaFields() {
		if p, ok := f.Ref(&m).(*string); ok && !f.Is(domain.FieldSearchable) {
			assert.NotContains(t, key, lowerNorm(*p), "%s is not searchable", f.Name)
		}
	}

	ids, err := r.ApplyScan(ctx, []domain.MediaChange{{Media: m}})
	require.NoError(t, err)
	k := onlyKey(t, r)
	assert.Equal(t, want, k.Titles, "keys after an insert")
	assert.Equal(t, m.MainCategory, k.Category, "the key carries what the file list filters on")
	assert.Equal(t, m.DiskName, k.Disk)

	// An edit of one searchable field rewrites its place in the key and
	// keeps the others.
	other := domaintest.FilledMedia(0)
	other.ID = ids[m.Path]
	for i, name := range names {
		f, _ := domain.MediaFieldNamed(name)
		*f.Ref(&other).(*string) = "Edited " + name
		_, err := r.Update(ctx, other, []string{name})
		require.NoError(t, err, name)
		want[i] = "edited " + name
		assert.Equal(t, want, onlyKey(t, r).Titles, "keys after an edit of %s", name)
	}
}

// onlyKey reads the keys of a store holding one record.
func onlyKey(t *testing.T, r *Media) domain.MediaKey {
	t.Helper()
	var keys []domain.MediaKey
	require.NoError(t, r.Keys(context.Background(), func(k domain.MediaKey) error { keys = append(keys, k); return nil }))
	require.Len(t, keys, 1)
	return keys[0]
}
