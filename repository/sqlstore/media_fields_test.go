package sqlstore

import (
	"context"
	"database/sql"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/domain/domaintest"
)

// TestEveryMediaFieldRoundTrips writes a record with every field of the
// table set, then one update per field, and reads each back: a field the
// row mapping forgets comes back empty.
func TestEveryMediaFieldRoundTrips(t *testing.T) {
	r, _ := newMediaRepo(t)
	ctx := context.Background()
	want := domaintest.FilledMedia(7)
	ids, err := r.ApplyScan(ctx, []domain.MediaChange{{Media: want}})
	require.NoError(t, err)
	got, err := r.ByID(ctx, ids[want.Path])
	require.NoError(t, err)
	for _, f := range domain.MediaFields() {
		assert.Equal(t, f.Ref(&want), f.Ref(&got), "insert then read: %s", f.Name)
	}

	other := domaintest.FilledMedia(9)
	other.ID = got.ID
	for _, f := range domain.MediaFields() {
		if f.Name == "path" {
			continue
		}
		_, err := r.Update(ctx, other, []string{f.Name})
		require.NoError(t, err, f.Name)
	}
	again, err := r.ByID(ctx, got.ID)
	require.NoError(t, err)
	for _, f := range domain.MediaFields() {
		if f.Name != "path" {
			assert.Equal(t, f.Ref(&other), f.Ref(&again), "update then read: %s", f.Name)
		}
	}
}

// TestEmptyMediaFieldsAreNull: unknown values are NULL in the file (so
// "unknown" and zero stay apart), except the fields that are never NULL.
func TestEmptyMediaFieldsAreNull(t *testing.T) {
	r, s := newMediaRepo(t)
	ctx := context.Background()
	ids, err := r.ApplyScan(ctx, []domain.MediaChange{{Media: domain.Media{DiskName: "d", Path: "/empty.mkv"}}})
	require.NoError(t, err)
	db, err := s.reader.DB()
	require.NoError(t, err)
	for _, f := range domain.MediaFields() {
		var isNull sql.NullBool
		require.NoError(t, db.QueryRow(`SELECT `+quoteColumn(f.Name)+` IS NULL FROM media WHERE id = ?`, ids["/empty.mkv"]).Scan(&isNull))
		assert.Equal(t, !f.Is(domain.FieldNotNull), isNull.Bool, f.Name)
	}
}
