//go:build unix

package sqlstore

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
)

// TestDatabaseFilesAreOwnerOnly opens a database in a folder that already
// exists with the usual 0755 and umask 022 (Docker's /data), writes, and
// checks that the database, its -wal and its -shm are 0600; a database
// left 0644 by an older build is tightened at the next open.
func TestDatabaseFilesAreOwnerOnly(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	dir := filepath.Join(t.TempDir(), "data")
	require.NoError(t, os.Mkdir(dir, 0o755))
	path := filepath.Join(dir, "mediateka.db")

	s, err := Open(context.Background(), path)
	require.NoError(t, err)
	_, err = NewUsers(s).Create(context.Background(), domain.User{Email: "a@example.org", Name: "A"})
	require.NoError(t, err)
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		st, err := os.Stat(p)
		require.NoError(t, err, p)
		assert.Equal(t, os.FileMode(0o600), st.Mode().Perm(), p)
	}
	require.NoError(t, s.Close())

	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		if _, err := os.Stat(p); err == nil {
			require.NoError(t, os.Chmod(p, 0o644))
		}
	}
	s, err = Open(context.Background(), path)
	require.NoError(t, err)
	defer s.Close()
	_, err = NewUsers(s).Create(context.Background(), domain.User{Email: "b@example.org", Name: "B"})
	require.NoError(t, err)
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		st, err := os.Stat(p)
		require.NoError(t, err, p)
		assert.Equal(t, os.FileMode(0o600), st.Mode().Perm(), "reopened: %s", p)
	}
}
