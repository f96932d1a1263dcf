package localfs

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReadDirStatIsReadDirWithInfo: the same entries in the same order as
// os.ReadDir, and every entry's Info (read with the listing or later) is
// what os.Lstat says of it.
func TestReadDirStatIsReadDirWithInfo(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"b.mkv", "a.avi", "Фильм.mp4", "notes.txt", "z.mkv"} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(name), 0o640))
	}
	old := time.Date(2001, 2, 3, 4, 5, 6, 789, time.UTC)
	require.NoError(t, os.Chtimes(filepath.Join(dir, "a.avi"), old, old))
	require.NoError(t, os.Chmod(filepath.Join(dir, "z.mkv"), 0o4755))
	require.NoError(t, os.Mkdir(filepath.Join(dir, "Season 1"), 0o750))
	require.NoError(t, os.Symlink("b.mkv", filepath.Join(dir, "link.mkv")))

	want, err := os.ReadDir(dir)
	require.NoError(t, err)
	asked := map[string]bool{}
	got, err := FS{}.ReadDirStat(dir, func(name string) bool { asked[name] = true; return strings.HasSuffix(name, ".mkv") || name == "a.avi" })
	require.NoError(t, err)
	require.Len(t, got, len(want))
	for i, e := range got {
		assert.Equal(t, want[i].Name(), e.Name())
		assert.Equal(t, want[i].Type(), e.Type(), e.Name())
		info, err := e.Info()
		require.NoError(t, err)
		st, err := os.Lstat(filepath.Join(dir, e.Name()))
		require.NoError(t, err)
		assert.Equal(t, st.Size(), info.Size(), e.Name())
		assert.Equal(t, st.Mode(), info.Mode(), e.Name())
		assert.True(t, st.ModTime().Equal(info.ModTime()), e.Name())
		assert.Equal(t, st.IsDir(), info.IsDir(), e.Name())
		assert.Equal(t, e.Name(), info.Name())
	}
	assert.True(t, asked["notes.txt"], "every regular file is offered")
	assert.False(t, asked["Season 1"] || asked["link.mkv"], "folders and links are not")

	_, err = FS{}.ReadDirStat(filepath.Join(dir, "absent"), func(string) bool { return true })
	assert.ErrorIs(t, err, fs.ErrNotExist)
}
