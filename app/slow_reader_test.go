package app

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// slowLibrary is a scanned library of n films with long paths, so that one
// by-category answer is larger than what the kernel's socket buffers take
// in (about 4 MiB on loopback): only then does a reader that never reads
// hold the server's writes.
func slowLibrary(t *testing.T, n int, env map[string]string) *libApp {
	t.Helper()
	la := newLibAppEnv(t, nil, env)
	long := strings.Repeat("Long Title Words ", 11)
	for i := range n {
		dir := filepath.Join(la.root, fmt.Sprintf("%s%02d", long, i%20), long)
		require.NoError(t, os.MkdirAll(dir, 0o755))
		name := fmt.Sprintf("%s%05d (%d).mkv", long, i, 1950+i%70)
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), nil, 0o644))
	}
	la.scan(t)
	return la
}

// heapInUse is the live heap after a collection.
func heapInUse() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// stalledClient sends GET path and never reads: once the socket buffers
// are full the server's writes block.
func stalledClient(t *testing.T, addr, path, token string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	_, err = fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\n\r\n", path, token)
	require.NoError(t, err)
	return c
}

// TestSlowReadersCannotPinMemory: clients that ask for the big answers and
// never read are dropped after the write timeout, hold little memory and
// no database connection meanwhile, and a normal client still gets the
// whole answer.
func TestSlowReadersCannotPinMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a library of 5 000 films")
	}
	la := slowLibrary(t, 5000, map[string]string{"MEDIATEKA_HTTP__WRITE_TIMEOUT": "1s"})
	_, want := la.raw(t, "GET", "/api/media/by-category", la.user, nil)
	require.Greater(t, len(want), 6<<20, "one answer is more than the socket buffers hold")
	addr, stop := runOnLoopback(t, la.testApp)
	defer func() { _ = stop() }()

	before := heapInUse()
	var stalled []net.Conn
	for i := range 12 {
		path := "/api/media/by-category"
		if i%4 == 0 {
			path = "/api/media/files" // each used to hold a read connection of the pool
		}
		stalled = append(stalled, stalledClient(t, addr, path, la.user))
	}
	time.Sleep(700 * time.Millisecond) // answers are under way, the write timeout not yet over
	growth := int64(heapInUse()) - int64(before)
	t.Logf("heap growth with 12 stalled readers: %.1f MiB", float64(growth)/(1<<20))
	// Whole answers would pin 12 × len(want) (over 72 MiB); a page each
	// measures 6–17 MiB here, up to 24 MiB with the race detector on a
	// busy machine. Half the whole-answer figure separates the two
	// without failing on the noise of a loaded CI runner.
	assert.Less(t, growth, int64(12*len(want)/2), "stalled readers pin at most a page each, not whole answers")

	client := &http.Client{Timeout: 10 * time.Second}
	for _, path := range []string{"/api/media/by-category", "/api/media/files"} {
		req, _ := http.NewRequest("GET", "http://"+addr+path, nil)
		req.Header.Set("Authorization", "Bearer "+la.user)
		resp, err := client.Do(req)
		require.NoError(t, err, "a normal client is served while others stall: %s", path)
		got, err := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		require.NoError(t, err)
		if path == "/api/media/by-category" {
			assert.Equal(t, string(want), string(got))
		} else {
			assert.Equal(t, "5000", resp.Header.Get("X-Total-Count"))
			assert.Greater(t, len(got), 6<<20)
		}
	}

	time.Sleep(1500 * time.Millisecond) // past the write timeout
	for _, c := range stalled {
		require.NoError(t, c.SetReadDeadline(time.Now().Add(5*time.Second)))
		got, err := io.ReadAll(c)
		var ne net.Error
		if err != nil && assert.ErrorAs(t, err, &ne) {
			assert.False(t, ne.Timeout(), "the server closed the connection; it did not wait for the reader")
		}
		assert.NotContains(t, string(got[max(0, len(got)-16):]), "0\r\n\r\n", "the answer was cut off, not finished")
	}
}
