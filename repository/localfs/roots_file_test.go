package localfs

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
)

func TestRootsFileSavesAtomicallyAndAtOnce(t *testing.T) {
	p := writeRoots(t, `{"dirs": ["/srv/old"]}`)
	f, _, err := OpenRoots(p)
	require.NoError(t, err)
	assert.Equal(t, []domain.Root{{Path: "/srv/old", Disk: "old"}}, f.Roots())

	want := []domain.Root{{Path: "/srv/films", Disk: "Disk 1"}, {Path: "/srv/Сериалы", Disk: "Сериалы"}}
	require.NoError(t, f.SaveRoots(want))
	assert.Equal(t, want, f.Roots(), "current at once")
	back, _, err := LoadRoots(p)
	require.NoError(t, err)
	assert.Equal(t, want, back, "the file reads back the same")
	info, err := os.Stat(p)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), info.Mode().Perm(), "the mode of the replaced file is kept")
	left, err := os.ReadDir(filepath.Dir(p))
	require.NoError(t, err)
	assert.Len(t, left, 1, "no temporary file is left behind")

	got := f.Roots()
	got[0].Disk = "changed by a caller"
	assert.Equal(t, "Disk 1", f.Roots()[0].Disk, "callers get a copy")
}

func TestRootsFileCreatesAnAbsentFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "search_dirs.json")
	f, warnings, err := OpenRoots(p)
	require.NoError(t, err)
	assert.Len(t, warnings, 1)
	assert.Empty(t, f.Roots())
	require.NoError(t, f.SaveRoots([]domain.Root{{Path: "/srv/a", Disk: "a"}}))
	info, err := os.Stat(p)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o644), info.Mode().Perm())
}

func TestRootsFileFailedWriteChangesNothing(t *testing.T) {
	p := filepath.Join(t.TempDir(), "gone", "search_dirs.json")
	f, _, err := OpenRoots(p)
	require.NoError(t, err)
	require.Error(t, f.SaveRoots([]domain.Root{{Path: "/srv/a", Disk: "a"}}))
	assert.Empty(t, f.Roots())
}
