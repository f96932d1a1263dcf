package library_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/usecase/library"
)

// A library of many small disks: the scan's queries must not grow with the
// number of roots (SQLite refuses an expression tree deeper than 1000).
func TestScanOfThousandsOfRoots(t *testing.T) {
	const n = 1500
	base := t.TempDir()
	roots := make([]domain.Root, 0, n)
	for i := range n {
		dir := filepath.Join(base, fmt.Sprintf("disk%04d", i))
		require.NoError(t, os.MkdirAll(dir, 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, fmt.Sprintf("Film %d (2001).mkv", i)), []byte{byte(i)}, 0o644))
		roots = append(roots, domain.Root{Path: dir, Disk: fmt.Sprintf("Disk %d", i)})
	}
	e := newEnv(t, withOptions(func(o *library.Options) { o.Roots = roots; o.BatchSize = 2000 }))

	st := e.scan(library.ScanRequest{})
	assert.Equal(t, n, st.Added)
	gone := filepath.Join(roots[700].Path, "Film 700 (2001).mkv")
	require.NoError(t, os.Remove(gone))
	st = e.scan(library.ScanRequest{})
	assert.Equal(t, 1, st.Missing)
	all := e.all()
	assert.Equal(t, domain.StatusMissing, all[gone].Status)
	assert.Equal(t, domain.StatusOK, all[filepath.Join(roots[701].Path, "Film 701 (2001).mkv")].Status)
	assert.Equal(t, "Disk 699", all[filepath.Join(roots[699].Path, "Film 699 (2001).mkv")].DiskName)
}
