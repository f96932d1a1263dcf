package catalog_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/usecase/catalog"
)

// TestEverySearchableFieldIsSearched: for every field the table flags
// searchable, an entry whose only match is that field is found by title
// search and by the file list's text filter, after it is stored and after
// a person edits the field; text in the other fields is not searched. A
// field the search key or the title index forgets fails here.
func TestEverySearchableFieldIsSearched(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	names := domain.MediaFieldNames(domain.FieldSearchable)
	require.NotEmpty(t, names)
	for i, name := range names {
		f, _ := domain.MediaFieldNamed(name)
		stored := fmt.Sprintf("Квокка %d", 10+i)
		m := e.db.Movie(fmt.Sprintf("Decoy %d", i), 2000+i, func(m *domain.Media) { *f.Ref(m).(*string) = stored })
		settle(t, e.svc)
		assertOnlyMatch(t, e.svc, stored, m.ID, name)

		edited := fmt.Sprintf("Ехидна %d", 10+i)
		*f.Ref(&m).(*string) = edited
		_, err := e.media.Update(ctx, m, []string{name})
		require.NoError(t, err)
		settle(t, e.svc)
		assertOnlyMatch(t, e.svc, edited, m.ID, name+" after an edit")
		_, err = e.svc.ByTitle(ctx, stored, "")
		assert.ErrorIs(t, err, domain.ErrMediaNotFound, "%s: the old value is gone from the index", name)
	}

	const hidden = "Вомбат"
	e.db.Movie("Control", 1990, func(m *domain.Media) {
		for _, f := range domain.MediaFields() {
			if p, ok := f.Ref(m).(*string); ok && !f.Is(domain.FieldSearchable) {
				*p = hidden
			}
		}
		m.MediaType = domain.MediaMovie // the one text field with a fixed set of values
	})
	settle(t, e.svc)
	_, err := e.svc.ByTitle(ctx, hidden, "")
	assert.ErrorIs(t, err, domain.ErrMediaNotFound, "text outside the searchable fields is not searched")
	assert.Empty(t, filesMatching(t, e.svc, hidden))
}

// assertOnlyMatch checks that title search and the file list's text
// filter find exactly entry id for query.
func assertOnlyMatch(t *testing.T, svc *catalog.Service, query string, id int64, what string) {
	t.Helper()
	res, err := svc.ByTitle(context.Background(), query, "")
	require.NoError(t, err, "%s: by-title %q", what, query)
	assert.Equal(t, id, res.Match.ID, "%s: by-title %q", what, query)
	assert.Empty(t, res.Alternatives, what)
	assert.Equal(t, []int64{id}, filesMatching(t, svc, query), "%s: files text=%q", what, query)
}

// filesMatching lists the ids the file list shows for text.
func filesMatching(t *testing.T, svc *catalog.Service, text string) []int64 {
	t.Helper()
	l, err := svc.Files(context.Background(), catalog.FilesQuery{Text: text})
	require.NoError(t, err)
	var ids []int64
	require.NoError(t, l.Each(context.Background(), func(m domain.Media) error { ids = append(ids, m.ID); return nil }))
	return ids
}

// settle reports a change and brings the index up to date, as the scan
// and an edit do.
func settle(t *testing.T, svc *catalog.Service) {
	t.Helper()
	svc.MediaChanged()
	require.NoError(t, svc.Settle(context.Background()))
}
