package localfs

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDirKeepsWholeFilesByBareName(t *testing.T) {
	t.Parallel()
	d := NewDir(filepath.Join(t.TempDir(), "thumbnails"))
	_, err := d.Read("1-a.jpg")
	assert.ErrorIs(t, err, fs.ErrNotExist, "before the folder exists")

	require.NoError(t, d.Write("1-a.jpg", []byte("old")))
	require.NoError(t, d.Write("1-b.jpg", []byte("new")))
	require.NoError(t, d.Write("12-a.jpg", []byte("another film")))
	raw, err := d.Read("1-b.jpg")
	require.NoError(t, err)
	assert.Equal(t, "new", string(raw))

	require.NoError(t, d.RemoveOthers("1-", "1-b.jpg"))
	names, err := os.ReadDir(d.path)
	require.NoError(t, err)
	var left []string
	for _, n := range names {
		left = append(left, n.Name())
	}
	assert.Equal(t, []string{"1-b.jpg", "12-a.jpg"}, left, "only the other versions of film 1 go; no temporary file is left")

	for _, bad := range []string{"", "../x.jpg", "a/b.jpg", ".hidden", "/etc/passwd"} {
		assert.Error(t, d.Write(bad, []byte("x")), bad)
		_, err := d.Read(bad)
		assert.Error(t, err, bad)
	}
}
