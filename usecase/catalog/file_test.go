package catalog_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/repository/localfs"
	"mediateka/repository/sqlstore/sqlstoretest"
	"mediateka/usecase/catalog"
	"mediateka/usecase/textmatch"
)

// TestFileAndFileAtFindPlayableEntriesOnly checks both lookups a room's
// play command uses: a video file on disk is found by id and by its exact
// path; a folder, a missing file and anything outside the catalogue are
// refused with the codes the sender sees.
func TestFileAndFileAtFindPlayableEntriesOnly(t *testing.T) {
	db := sqlstoretest.New(t, textmatch.Normalize)
	svc := catalog.New(db.Media, db.Media, localfs.FS{}, catalog.Options{})
	ctx := context.Background()
	heat := db.Movie("Heat", 1995)
	season := db.Series("Dark").Season(1)
	ep := season.Episode(2)
	gone := db.Movie("Gone", 2001, func(m *domain.Media) { m.Status = domain.StatusMissing })

	for _, want := range []domain.Media{heat, ep} {
		got, err := svc.File(ctx, want.ID)
		require.NoError(t, err)
		assert.Equal(t, want.Path, got.Path)
		got, err = svc.FileAt(ctx, want.Path)
		require.NoError(t, err)
		assert.Equal(t, want.ID, got.ID)
	}
	tests := []struct {
		name string
		id   int64
		path string
		want *domain.Error
	}{
		{"a season folder", season.ID, season.Path, domain.ErrNoFile},
		{"a file gone from disk", gone.ID, gone.Path, domain.ErrFileMissing},
		{"nothing", 999, "/etc/passwd", domain.ErrMediaNotFound},
	}
	for _, tt := range tests {
		_, err := svc.File(ctx, tt.id)
		assert.ErrorIs(t, err, tt.want, "File: %s", tt.name)
		_, err = svc.FileAt(ctx, tt.path)
		assert.ErrorIs(t, err, tt.want, "FileAt: %s", tt.name)
	}
}
