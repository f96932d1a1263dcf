package library_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/repository/localfs"
	"mediateka/usecase/library"
)

func codeOf(err error) string {
	var de *domain.Error
	if errors.As(err, &de) {
		return de.Code
	}
	return ""
}

func TestScanRequestValidation(t *testing.T) {
	e := newEnv(t)
	e.touch("Фильмы/a.mkv", "notes.txt")
	outside := t.TempDir()
	tests := []struct {
		name string
		req  library.ScanRequest
		code string
	}{
		{"relative path", library.ScanRequest{Paths: []string{"Фильмы"}}, "path_not_absolute"},
		{"dot path", library.ScanRequest{Paths: []string{"./lib"}}, "path_not_absolute"},
		{"outside the roots", library.ScanRequest{Paths: []string{outside}}, "path_outside_roots"},
		{"climbing out with ..", library.ScanRequest{Paths: []string{e.root + "/../.."}}, "path_outside_roots"},
		{"a sibling with the root as prefix", library.ScanRequest{Paths: []string{e.root + "-other"}}, "path_outside_roots"},
		{"missing", library.ScanRequest{Paths: []string{filepath.Join(e.root, "nope")}}, "path_not_found"},
		{"not a video", library.ScanRequest{Paths: []string{filepath.Join(e.root, "notes.txt")}}, "invalid_path"},
		{"NUL byte", library.ScanRequest{Paths: []string{e.root + "/a\x00b"}}, "invalid_path"},
		{"huge path", library.ScanRequest{Paths: []string{e.root + "/" + strings.Repeat("я", 3000)}}, "invalid_path"},
		{"unknown disk", library.ScanRequest{Disk: "Disk 9"}, "unknown_disk"},
		{"too many paths", library.ScanRequest{Paths: make([]string, 101)}, "invalid_input"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := e.svc.StartScan(tt.req)
			require.Error(t, err)
			assert.True(t, domain.IsKind(err, domain.KindInvalid), "%v", err)
			assert.Equal(t, tt.code, codeOf(err))
		})
	}
	assert.Empty(t, e.all(), "a refused scan writes nothing")
	assert.Empty(t, e.events.names(), "and announces nothing")
}

func TestScanWithoutRootsIsAConflict(t *testing.T) {
	e := newEnv(t, withOptions(func(o *library.Options) { o.Roots = nil }))
	_, err := e.svc.StartScan(library.ScanRequest{})
	assert.ErrorIs(t, err, domain.ErrNoRoots)
}

func TestMissingRootIsReportedNotFatal(t *testing.T) {
	gone := filepath.Join(t.TempDir(), "unplugged")
	e := newEnv(t, withOptions(func(o *library.Options) {
		o.Roots = append(o.Roots, domain.Root{Path: gone, Disk: "USB"})
	}))
	e.touch("a.mkv")
	roots := e.svc.Roots()
	require.Len(t, roots, 2)
	assert.True(t, roots[0].Available)
	assert.False(t, roots[1].Available)
	assert.Equal(t, "does not exist", roots[1].Problem)
	st := e.scan(library.ScanRequest{})
	assert.Equal(t, 1, st.Added)
	require.Len(t, st.Errors, 1)
	assert.Equal(t, gone, st.Errors[0].Path)
}

func TestSymlinkLoopIsReportedAndSkipped(t *testing.T) {
	e := newEnv(t)
	e.touch("Сериалы/Show/Season 1/Show.S01E01.mkv")
	require.NoError(t, os.Symlink("../..", filepath.Join(e.root, "Сериалы/Show/loop")))
	require.NoError(t, os.Symlink(filepath.Join(e.root, "Сериалы"), filepath.Join(e.root, "alias")))
	external := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(external, "Heat.1995.mkv"), []byte("heat"), 0o644))
	require.NoError(t, os.Symlink(external, filepath.Join(e.root, "external")))
	require.NoError(t, os.Symlink(filepath.Join(e.root, "nowhere.mkv"), filepath.Join(e.root, "broken.mkv")))

	st := e.scan(library.ScanRequest{})
	assert.Equal(t, 2, st.Added, "the episode once (no alias copy) and the linked movie")
	problems := map[string]string{}
	for _, pe := range st.Errors {
		problems[strings.TrimPrefix(pe.Path, e.root+"/")] = pe.Error
	}
	assert.Contains(t, problems["Сериалы/Show/loop"], "symbolic link loop")
	assert.Equal(t, "does not exist", problems["broken.mkv"])
	assert.Equal(t, "Heat", e.at("external/Heat.1995.mkv").Title)
}

// failingFS refuses to read some folders, as permissions would for a user
// other than root (the tests run as root, who reads everything).
type failingFS struct {
	localfs.FS
	mu     sync.Mutex
	denied map[string]bool
}

func (f *failingFS) deny(p string) { f.mu.Lock(); f.denied[p] = true; f.mu.Unlock() }

func (f *failingFS) ReadDirStat(path string, stat func(string) bool) ([]fs.DirEntry, error) {
	f.mu.Lock()
	denied := f.denied[path]
	f.mu.Unlock()
	if denied {
		return nil, &fs.PathError{Op: "open", Path: path, Err: fs.ErrPermission}
	}
	return f.FS.ReadDirStat(path, stat)
}

func TestUnreadableFolderKeepsItsRecords(t *testing.T) {
	ffs := &failingFS{denied: map[string]bool{}}
	e := newEnv(t, withFS(ffs))
	e.touch("Фильмы/Heat.1995.mkv", "Сериалы/Show/Season 1/Show.S01E01.mkv")
	e.scan(library.ScanRequest{})
	ffs.deny(filepath.Join(e.root, "Сериалы"))
	require.NoError(t, os.Remove(filepath.Join(e.root, "Фильмы/Heat.1995.mkv")))

	st := e.scan(library.ScanRequest{})
	require.Len(t, st.Errors, 1)
	assert.Equal(t, filepath.Join(e.root, "Сериалы"), st.Errors[0].Path)
	assert.Equal(t, "permission denied", st.Errors[0].Error)
	assert.Equal(t, 1, st.Missing, "only the movie that really vanished")
	assert.Equal(t, domain.StatusOK, e.at("Сериалы/Show/Season 1/Show.S01E01.mkv").Status, "nothing is lost behind an unreadable folder")
}

func TestUnreadableFolderOnTheRealDisk(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads folders whatever their mode; TestUnreadableFolderKeepsItsRecords covers this path through an injected file system")
	}
	e := newEnv(t)
	e.touch("locked/a.mkv", "open/b.mkv")
	locked := filepath.Join(e.root, "locked")
	require.NoError(t, os.Chmod(locked, 0))
	t.Cleanup(func() { _ = os.Chmod(locked, 0o755) })
	st := e.scan(library.ScanRequest{})
	assert.Equal(t, 1, st.Added)
	require.Len(t, st.Errors, 1)
	assert.Equal(t, "permission denied", st.Errors[0].Error)
}

func TestOddFileNames(t *testing.T) {
	e := newEnv(t)
	invalid := "Фильмы/Bad\xff\xfeName.2001.mkv"
	huge := "Фильмы/" + strings.Repeat("Очень длинное название ", 10)[:240] + ".mkv"
	e.touch(invalid, huge)
	st := e.scan(library.ScanRequest{})
	assert.Equal(t, 2, st.Added)
	bad := e.at(invalid)
	assert.True(t, utf8.ValidString(bad.Title), "titles are valid UTF-8: %q", bad.Title)
	assert.Equal(t, ptr(2001), bad.Year)
	assert.Equal(t, filepath.Join(e.root, invalid), bad.Path, "the path stays as on disk, so the file can be streamed")
	long := e.at(huge)
	assert.True(t, utf8.ValidString(long.Title))
	assert.NotEmpty(t, long.Title)

	before := e.writes()
	e.scan(library.ScanRequest{})
	assert.Equal(t, before, e.writes(), "odd names are stable across rescans")
}

// cancellingStore cancels the scan right after its first batch commits,
// which is the state a killed scan leaves behind.
type cancellingStore struct {
	library.Store
	svc   func() *library.Service
	once  sync.Once
	calls int
}

func (c *cancellingStore) ApplyScan(ctx context.Context, changes []domain.MediaChange) (map[string]int64, error) {
	ids, err := c.Store.ApplyScan(ctx, changes)
	c.calls++
	c.once.Do(func() { _, _ = c.svc().CancelScan() })
	return ids, err
}

func TestCancelledScanIsCompletedByTheNextOne(t *testing.T) {
	var e *env
	cs := &cancellingStore{svc: func() *library.Service { return e.svc }}
	e = newEnv(t, withStore(func(s library.Store) library.Store { cs.Store = s; return cs }),
		withOptions(func(o *library.Options) { o.BatchSize = 10; o.Walkers = 1 }))
	var files []string
	for s := 1; s <= 3; s++ {
		for ep := 1; ep <= 10; ep++ {
			files = append(files, fmt.Sprintf("Сериалы/Dark/Season %d/Dark.S%02dE%02d.mkv", s, s, ep))
		}
	}
	for i := 1; i <= 30; i++ {
		files = append(files, fmt.Sprintf("Фильмы/Movie %d (%d).mkv", i, 1960+i))
	}
	e.touch(files...)
	st, err := e.svc.Scan(context.Background(), library.ScanRequest{}, nil)
	require.NoError(t, err)
	require.Equal(t, library.StateCancelled, st.State)
	partial := countFiles(t, e)
	assert.Positive(t, partial)
	assert.Less(t, st.Added, 60, "the scan stopped early")
	assert.Zero(t, st.Missing, "a cancelled scan never marks anything missing")
	e.consistent()
	events := e.events.names()
	assert.Equal(t, []string{"scan_started", "scan_completed"}, events)
	assert.Equal(t, domain.JobCancelled, e.events.last().(domain.ScanCompleted).State)

	st = e.scan(library.ScanRequest{})
	assert.Equal(t, 60-partial, st.Added, "the next scan adds exactly what the cancelled one had not")
	e.consistent()
	n := 0
	for _, m := range e.all() {
		if m.HasFile() {
			n++
			assert.Equal(t, domain.StatusOK, m.Status, m.Path)
		}
	}
	assert.Equal(t, 60, n)
	assert.Equal(t, []int{10, 10, 10}, e.at("Сериалы/Dark").NumEpisodesPerSeason, "counts derived after the resume are right")
}

// countFiles counts the records that stand for video files.
func countFiles(t *testing.T, e *env) int {
	t.Helper()
	n := 0
	for _, m := range e.all() {
		if m.HasFile() {
			n++
		}
	}
	return n
}

func TestUnpluggedRootMarksItsFilesMissing(t *testing.T) {
	e := newEnv(t)
	e.touch("Фильмы/Heat.1995.mkv")
	e.scan(library.ScanRequest{})
	moved := e.root + ".away"
	require.NoError(t, os.Rename(e.root, moved))
	st := e.scan(library.ScanRequest{})
	assert.Equal(t, 1, st.Missing, "a vanished disk's files are missing, not deleted")
	require.Len(t, st.Errors, 1)
	assert.Equal(t, "does not exist", st.Errors[0].Error)
	require.NoError(t, os.Rename(moved, e.root))
	st = e.scan(library.ScanRequest{})
	assert.Equal(t, 1, st.Updated, "and come back with it")
	assert.Equal(t, domain.StatusOK, e.at("Фильмы/Heat.1995.mkv").Status)
}
