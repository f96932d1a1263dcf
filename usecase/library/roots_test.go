package library_test

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/usecase/library"
)

func TestSetRootsTakesEffectAtOnce(t *testing.T) {
	e := newEnv(t)
	e.touch("Heat.1995.mkv")
	e.scan(library.ScanRequest{})
	other := filepath.Join(t.TempDir(), "Сериалы")
	require.NoError(t, os.MkdirAll(other, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(other, "Dark.S01E01.mkv"), []byte("x"), 0o644))
	ctx := context.Background()

	got, err := e.svc.SetRoots(ctx, []domain.Root{{Path: e.root + "/", Disk: " Disk 1 "}, {Path: other}})
	require.NoError(t, err)
	assert.Equal(t, []library.RootInfo{
		{Path: e.root, Disk: "Disk 1", Exists: true, Entries: 1},
		{Path: other, Disk: "Сериалы", Exists: true, Entries: 0},
	}, got, "cleaned, the disk named after the folder, entries counted")
	listed, err := e.svc.ListRoots(ctx)
	require.NoError(t, err)
	assert.Equal(t, got, listed)

	rep, err := e.svc.Audit(ctx)
	require.NoError(t, err)
	assert.Equal(t, 1, rep.Summary[library.IssueUnregisteredFile], "the audit walks the new folder")
	st := e.scan(library.ScanRequest{Disk: "Сериалы"})
	assert.Equal(t, 1, st.Added, "the next scan walks the new folder, no restart")
	listed, err = e.svc.ListRoots(ctx)
	require.NoError(t, err)
	assert.Equal(t, 3, listed[1].Entries, "series, season and episode")

	_, err = e.svc.SetRoots(ctx, []domain.Root{{Path: other, Disk: "S"}})
	require.NoError(t, err)
	_, err = e.svc.StartScan(library.ScanRequest{Disk: "Disk 1"})
	assert.True(t, domain.IsKind(err, domain.KindInvalid), "the removed folder's disk is gone: %v", err)
	require.NoError(t, os.RemoveAll(other))
	listed, err = e.svc.ListRoots(ctx)
	require.NoError(t, err)
	assert.Equal(t, []library.RootInfo{{Path: other, Disk: "S", Exists: false, Entries: 3}}, listed)
}

func TestSetRootsNamesEveryBadEntry(t *testing.T) {
	e := newEnv(t)
	base := t.TempDir()
	films := filepath.Join(base, "films")
	require.NoError(t, os.MkdirAll(filepath.Join(films, "inner"), 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(films, "other"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(base, "file.mkv"), []byte("x"), 0o644))
	require.NoError(t, os.Symlink(filepath.Join(films, "other"), filepath.Join(base, "link")))
	before, err := e.svc.ListRoots(context.Background())
	require.NoError(t, err)

	_, err = e.svc.SetRoots(context.Background(), []domain.Root{
		{Path: films, Disk: "A"},                         // 0: fine
		{Path: "relative/films", Disk: "B"},              // 1
		{Path: filepath.Join(base, "absent")},            // 2
		{Path: filepath.Join(base, "file.mkv")},          // 3
		{Path: filepath.Join(films, "inner"), Disk: "C"}, // 4: inside 0
		{Path: films + "/", Disk: "D"},                   // 5: 0 again
		{Path: filepath.Join(base, "link"), Disk: "E"},   // 6: inside 0 through a link
		{Path: e.root, Disk: "A"},                        // 7: disk of 0
		{Path: ""},                                       // 8
	})
	var de *domain.Error
	require.ErrorAs(t, err, &de)
	assert.Equal(t, "invalid_input", de.Code)
	assert.ElementsMatch(t, []string{"dirs[1].path", "dirs[2].path", "dirs[3].path", "dirs[4].path", "dirs[5].path",
		"dirs[6].path", "dirs[7].disk", "dirs[8].path"}, keys(de.Fields))
	assert.Contains(t, de.Fields["dirs[4].path"], "inside dirs[0]")
	assert.Contains(t, de.Fields["dirs[6].path"], "inside dirs[0]")
	assert.Contains(t, de.Fields["dirs[2].path"], "does not exist")
	after, err := e.svc.ListRoots(context.Background())
	require.NoError(t, err)
	assert.Equal(t, before, after, "nothing changes")
}

func TestSetRootsWaitsForTheScan(t *testing.T) {
	gate := make(chan struct{})
	e := newEnv(t, withFS(&gatedFS{gate: gate}))
	e.touch("a/x.mkv")
	_, err := e.svc.StartScan(library.ScanRequest{})
	require.NoError(t, err)
	other := t.TempDir()
	_, err = e.svc.SetRoots(context.Background(), []domain.Root{{Path: other}})
	assert.ErrorIs(t, err, domain.ErrScanRunning)
	close(gate)
	st := waitState(t, e.svc, library.StateCompleted)
	assert.Equal(t, 1, st.Added, "the scan kept its folders")

	unlock, ok, err := lockOf(e).TryLock()
	require.NoError(t, err)
	require.True(t, ok)
	_, err = e.svc.SetRoots(context.Background(), []domain.Root{{Path: other}})
	assert.ErrorIs(t, err, domain.ErrScanRunning, "a scan of the command line holds the lock")
	unlock()
	got, err := e.svc.SetRoots(context.Background(), []domain.Root{{Path: other}})
	require.NoError(t, err)
	assert.Equal(t, other, got[0].Path)
}

func keys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// changingRoots answers the library folders it was built with once, then
// the others: the folders changed between a scan's request and its start.
type changingRoots struct {
	mu           sync.Mutex
	first, later []domain.Root
	calls        int
}

func (c *changingRoots) Roots() []domain.Root {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls++
	if c.calls == 1 {
		return c.first
	}
	return c.later
}

func (c *changingRoots) SaveRoots([]domain.Root) error { return nil }

// TestScanDoesNotWalkFoldersReplacedAsItStarts: when the library folders
// change between the scan request and the moment the scan holds its slot,
// the scan fails with a reason instead of walking the old folders (and
// marking what is under the new ones missing).
func TestScanDoesNotWalkFoldersReplacedAsItStarts(t *testing.T) {
	var roots *changingRoots
	e := newEnv(t, withOptions(func(o *library.Options) {
		roots = &changingRoots{first: o.Roots, later: []domain.Root{{Path: filepath.Dir(o.Roots[0].Path), Disk: "Other"}}}
		o.RootStore = roots
	}))
	e.touch("Heat (1995)/Heat.1995.mkv")

	st, err := e.svc.Scan(context.Background(), library.ScanRequest{}, nil)
	require.Error(t, err)
	assert.Equal(t, library.StateFailed, st.State)
	assert.Contains(t, st.Failure, "library folders changed")
	assert.Zero(t, st.FilesSeen, "nothing was walked")
	assert.Empty(t, e.all(), "nothing was written")
}
