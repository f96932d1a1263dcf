package logfile

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLineCacheKeepsItsOwnNames: the name a caller hands in may share a
// buffer it reuses (Fiber's c.Query does), as here: after counting
// aaaa.log then bbbb.log through one buffer, both entries must still be
// there under their own names.
func TestLineCacheKeepsItsOwnNames(t *testing.T) {
	_, _, d := newLogged(t)
	require.NoError(t, os.WriteFile(filepath.Join(d.Path(), "aaaa.log"), []byte("1\n2\n"), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(d.Path(), "bbbb.log"), []byte("1\n2\n3\n"), 0o600))
	buf := []byte("aaaa.log")
	name := unsafe.String(&buf[0], len(buf)) // what a zero-copy c.Query returns
	for range 3 {
		copy(buf, "aaaa.log")
		n, err := d.LineCount(name)
		require.NoError(t, err)
		assert.Equal(t, 2, n)
		copy(buf, "bbbb.log")
		n, err = d.LineCount(name)
		require.NoError(t, err)
		assert.Equal(t, 3, n)
	}
	d.lines.mu.Lock()
	var keys []string
	for k := range d.lines.m {
		keys = append(keys, k)
	}
	d.lines.mu.Unlock()
	assert.ElementsMatch(t, []string{"aaaa.log", "bbbb.log"}, keys)
}

// TestLineCacheIsBounded: counting many files keeps at most maxCounted,
// and the one asked about all along stays; reads of two names at once
// are race-free (run with -race).
func TestLineCacheIsBounded(t *testing.T) {
	_, _, d := newLogged(t)
	require.NoError(t, os.WriteFile(filepath.Join(d.Path(), "keep.log"), []byte("k\n"), 0o600))
	for i := range 3 * maxCounted {
		name := fmt.Sprintf("f%03d.log", i)
		require.NoError(t, os.WriteFile(filepath.Join(d.Path(), name), []byte("x\n"), 0o600))
		_, err := d.LineCount(name)
		require.NoError(t, err)
		_, err = d.LineCount("keep.log")
		require.NoError(t, err)
	}
	d.lines.mu.Lock()
	n := len(d.lines.m)
	_, kept := d.lines.m["keep.log"]
	d.lines.mu.Unlock()
	assert.LessOrEqual(t, n, maxCounted)
	assert.True(t, kept, "the most used file stays counted")

	var wg sync.WaitGroup
	for _, name := range []string{"f000.log", "keep.log"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 200 {
				n, err := d.LineCount(name)
				assert.NoError(t, err)
				assert.Equal(t, 1, n)
			}
		}()
	}
	wg.Wait()
}
