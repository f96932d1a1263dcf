package localfs

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
)

func writeRoots(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "search_dirs.json")
	require.NoError(t, os.WriteFile(p, []byte(body), 0o600))
	return p
}

func TestLoadRoots(t *testing.T) {
	roots, warnings, err := LoadRoots(writeRoots(t, `{"dirs": [{"path": "/srv/films/", "disk": "Disk 1"}, "/srv/series", {"path": "/srv/series"}]}`))
	require.NoError(t, err)
	assert.Equal(t, []domain.Root{{Path: "/srv/films", Disk: "Disk 1"}, {Path: "/srv/series", Disk: "series"}}, roots)
	assert.Len(t, warnings, 1, "the duplicate is reported")

	roots, _, err = LoadRoots(writeRoots(t, `["/a", {"path": "/b", "disk": "B"}]`))
	require.NoError(t, err)
	assert.Len(t, roots, 2)

	roots, warnings, err = LoadRoots(filepath.Join(t.TempDir(), "absent.json"))
	require.NoError(t, err, "no file: no folders, and the server still starts")
	assert.Empty(t, roots)
	assert.Len(t, warnings, 1)
}

func TestLoadRootsRejectsBadFiles(t *testing.T) {
	for name, body := range map[string]string{
		"not JSON":      `{"dirs": [`,
		"relative path": `{"dirs": ["films"]}`,
		"empty path":    `{"dirs": [{"path": " "}]}`,
		"nested":        `{"dirs": ["/srv", "/srv/films"]}`,
		"wrong type":    `{"dirs": [42]}`,
	} {
		t.Run(name, func(t *testing.T) {
			_, _, err := LoadRoots(writeRoots(t, body))
			assert.Error(t, err)
		})
	}
}

func TestLockIsExclusive(t *testing.T) {
	p := filepath.Join(t.TempDir(), "sub", "scan.lock")
	a, b := NewLock(p), NewLock(p)
	unlock, ok, err := a.TryLock()
	require.NoError(t, err)
	require.True(t, ok)
	_, ok, err = b.TryLock()
	require.NoError(t, err)
	assert.False(t, ok, "a second holder is refused")
	unlock()
	unlock2, ok, err := b.TryLock()
	require.NoError(t, err)
	assert.True(t, ok, "free again once released")
	unlock2()
}
