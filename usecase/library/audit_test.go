package library_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/usecase/library"
)

func TestAuditFindsEveryKindOfIssue(t *testing.T) {
	e := newEnv(t)
	e.touch("Фильмы/Heat.1995.mkv", "Фильмы/Copy/Heat (1995).avi", "Фильмы/Untitled.mkv", "Сериалы/Dark/Season 1/Dark.S01E01.mkv")
	big := make([]byte, 300<<10)
	for i := range big {
		big[i] = byte(i * 7)
	}
	require.NoError(t, os.WriteFile(filepath.Join(e.root, "Фильмы/Alien.1979.mkv"), big, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(e.root, "Фильмы/Чужой (1979) copy.mkv"), big, 0o644))
	e.scan(library.ScanRequest{})
	ctx := context.Background()
	require.NoError(t, os.Remove(filepath.Join(e.root, "Фильмы/Untitled.mkv")))
	e.touch("Новое/Fresh.2024.mkv")
	dark := e.at("Сериалы/Dark")
	e.db.Exec(`UPDATE media SET parent_id = 9999 WHERE id = ?`, dark.ID)

	rep, err := e.svc.Audit(ctx)
	require.NoError(t, err)
	assert.Equal(t, len(e.all()), rep.Checked)
	byKind := map[string][]library.Issue{}
	for _, i := range rep.Issues {
		byKind[i.Kind] = append(byKind[i.Kind], i)
	}
	require.Len(t, byKind[library.IssueMissingFile], 1)
	assert.Equal(t, filepath.Join(e.root, "Фильмы/Untitled.mkv"), byKind[library.IssueMissingFile][0].Path)
	require.Len(t, byKind[library.IssueUnregisteredFile], 1)
	assert.Equal(t, filepath.Join(e.root, "Новое/Fresh.2024.mkv"), byKind[library.IssueUnregisteredFile][0].Path)
	require.Len(t, byKind[library.IssueOrphan], 1)
	assert.Equal(t, dark.ID, byKind[library.IssueOrphan][0].MediaID)
	var noYear []int64
	for _, i := range byKind[library.IssueIncompleteMetadata] {
		noYear = append(noYear, i.MediaID)
	}
	assert.Contains(t, noYear, e.at("Фильмы/Untitled.mkv").ID)
	assert.Contains(t, noYear, dark.ID, "the series has no year")
	require.Len(t, byKind[library.IssueDuplicate], 2, "one per extra copy: Heat by title, Alien by content")
	assert.Equal(t, rep.Total, len(rep.Issues))
	assert.Equal(t, 2, rep.Summary[library.IssueDuplicate])
	assert.Contains(t, e.events.names(), "audit_completed")
	assert.Equal(t, domain.StatusOK, e.at("Фильмы/Untitled.mkv").Status, "the audit reports, it does not rewrite")

	groups, err := e.svc.Duplicates(ctx)
	require.NoError(t, err)
	require.Len(t, groups, 2)
	reasons := map[string][]string{}
	for _, g := range groups {
		for _, m := range g.Entries {
			reasons[g.Reason] = append(reasons[g.Reason], filepath.Base(m.Path))
		}
	}
	assert.ElementsMatch(t, []string{"Heat.1995.mkv", "Heat (1995).avi"}, reasons[library.DuplicateSameTitleYear])
	assert.ElementsMatch(t, []string{"Alien.1979.mkv", "Чужой (1979) copy.mkv"}, reasons[library.DuplicateSameContent])
}

func TestSameSizeDifferentContentIsNoDuplicate(t *testing.T) {
	e := newEnv(t)
	a := make([]byte, 400<<10)
	b := make([]byte, 400<<10)
	b[len(b)/2] = 1 // differs only in the middle chunk
	require.NoError(t, os.WriteFile(filepath.Join(e.root, "One.2001.mkv"), a, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(e.root, "Two.2002.mkv"), b, 0o644))
	e.scan(library.ScanRequest{})
	groups, err := e.svc.Duplicates(context.Background())
	require.NoError(t, err)
	assert.Empty(t, groups)
	before := e.writes()
	_, err = e.svc.Duplicates(context.Background())
	require.NoError(t, err)
	assert.Equal(t, before, e.writes(), "hashes are computed once and kept")
}

func TestStats(t *testing.T) {
	e := newEnv(t)
	e.touch("Фильмы/Heat.1995.mkv", "Сериалы/Dark/Season 1/Dark.S01E01.mkv", "Сериалы/Dark/Season 1/Dark.S01E02.mkv")
	e.scan(library.ScanRequest{})
	st, err := e.svc.Stats(context.Background())
	require.NoError(t, err)
	assert.Equal(t, library.Stats{Movies: 1, Series: 1, Seasons: 1, Episodes: 2}, st)
}
