package sqlstore

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
)

// TestApplyScanLargeBatchComesBackRowForRow: a batch of hundreds of rows,
// naming different columns, children after their parents, comes back row
// for row with the ids ApplyScan gave.
func TestApplyScanLargeBatchComesBackRowForRow(t *testing.T) {
	r, _ := newMediaRepo(t)
	ctx := context.Background()
	series := domain.Media{DiskName: "d", Path: "/tv/Show", Title: "Show", MediaType: domain.MediaSeries, Status: "ok"}
	changes := []domain.MediaChange{{Media: series}}
	for s := 1; s <= 2; s++ {
		season := domain.Media{DiskName: "d", Path: fmt.Sprintf("/tv/Show/Season %d", s), Title: "Show", MediaType: domain.MediaSeason, Status: "ok", Number: ptrInt(s)}
		changes = append(changes, domain.MediaChange{Media: season, ParentPath: "/tv/Show"})
		for e := 1; e <= 150; e++ {
			ep := fileMedia(fmt.Sprintf("/tv/Show/Season %d/E%03d.mkv", s, e), fmt.Sprintf("Episode %d", e), domain.MediaEpisode)
			ep.Number = ptrInt(e)
			if e%3 == 0 {
				ep.TitleRu = "Серия" // another set of columns
			}
			changes = append(changes, domain.MediaChange{Media: ep, ParentPath: season.Path})
		}
	}
	for m := 1; m <= 100; m++ {
		changes = append(changes, domain.MediaChange{Media: fileMedia(fmt.Sprintf("/films/M%03d.mkv", m), fmt.Sprintf("Film %d", m), domain.MediaMovie)})
	}
	ids, err := r.ApplyScan(ctx, changes)
	require.NoError(t, err)
	require.Len(t, ids, len(changes))
	for _, c := range changes {
		got, err := r.ByID(ctx, ids[c.Media.Path])
		require.NoError(t, err)
		assert.Equal(t, c.Media.Path, got.Path)
		assert.Equal(t, c.Media.Title, got.Title, c.Media.Path)
		assert.Equal(t, c.Media.TitleRu, got.TitleRu, c.Media.Path)
		assert.Equal(t, ids[c.Media.Path], c.Media.ID, "the change carries its new id")
		if c.ParentPath != "" {
			assert.Equal(t, ids[c.ParentPath], got.ParentID, c.Media.Path)
		}
	}
}

// TestApplyScanConflictNamesTheRowAndWritesNothing: a path already stored,
// in the middle of a batch, fails the batch with a Conflict that names
// that path, and no row of the batch is kept.
func TestApplyScanConflictNamesTheRowAndWritesNothing(t *testing.T) {
	r, _ := newMediaRepo(t)
	ctx := context.Background()
	_, err := r.ApplyScan(ctx, []domain.MediaChange{{Media: fileMedia("/films/M020.mkv", "Taken", domain.MediaMovie)}})
	require.NoError(t, err)
	var changes []domain.MediaChange
	for m := 1; m <= 40; m++ {
		changes = append(changes, domain.MediaChange{Media: fileMedia(fmt.Sprintf("/films/M%03d.mkv", m), "Film", domain.MediaMovie)})
	}
	_, err = r.ApplyScan(ctx, changes)
	require.Error(t, err)
	assert.True(t, domain.IsKind(err, domain.KindConflict), "%v", err)
	assert.Contains(t, err.Error(), "/films/M020.mkv")
	n, err := r.Count(ctx, domain.MediaFilter{})
	require.NoError(t, err)
	assert.Equal(t, int64(1), n)
}

// TestScanStateGivesEachRecordAsStored: the light view a scan compares
// holds every record's id, path, status, size, mtime and edited fields as
// stored, for files and for folders (no size, no mtime), whatever
// characters the path holds.
func TestScanStateGivesEachRecordAsStored(t *testing.T) {
	r, s := newMediaRepo(t)
	ctx := context.Background()
	film := fileMedia("/lib/Фильмы/Дьявол носит Prada (2006) #1/a'b\"c.mkv", "Prada", domain.MediaMovie)
	film.Size, film.ModTime, film.EditedFields = 1<<40, time.Unix(1_700_000_000, 123456789).UTC(), []string{"title", "year"}
	folder := domain.Media{DiskName: "d", Path: "/lib/Сериалы/Show#S01", Title: "Show", MediaType: domain.MediaSeason, Status: domain.StatusMissing}
	ids, err := r.ApplyScan(ctx, []domain.MediaChange{{Media: film}, {Media: folder}})
	require.NoError(t, err)
	require.NoError(t, s.writer.Exec(`INSERT INTO media (disk_name, path, size, mtime) VALUES ('d', '/lib/old.avi', 7.0, 8)`).Error)
	got := map[string]domain.Media{}
	require.NoError(t, r.ScanState(ctx, nil, func(m domain.Media) error { got[m.Path] = m; return nil }))
	require.Len(t, got, 3)
	assert.Equal(t, domain.Media{ID: ids[film.Path], Path: film.Path, Status: domain.StatusOK, Size: 1 << 40,
		ModTime: film.ModTime, EditedFields: []string{"title", "year"}}, got[film.Path])
	assert.Equal(t, domain.Media{ID: ids[folder.Path], Path: folder.Path, Status: domain.StatusMissing}, got[folder.Path])
	old := got["/lib/old.avi"]
	assert.Equal(t, int64(7), old.Size, "a whole number stored as a real")
	assert.Equal(t, time.Unix(0, 8).UTC(), old.ModTime)
	assert.Empty(t, old.Status)
}
