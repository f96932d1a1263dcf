package app

import (
	"bufio"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// BenchmarkLogsReadTail500 is GET /api/logs/read?tail=500 through the
// whole server (auth, routing, JSON) on a 200 MB log file.
func BenchmarkLogsReadTail500(b *testing.B) {
	ta := newTestApp(b, nil)
	admin, _ := ta.tokens(b)
	f, err := os.Create(filepath.Join(ta.cfg.LogDir, "big.log"))
	require.NoError(b, err)
	w := bufio.NewWriterSize(f, 1<<20)
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for n := 0; n < 200<<20; {
		at = at.Add(10 * time.Millisecond)
		k, _ := fmt.Fprintf(w, `{"time":%q,"level":"INFO","msg":"http","request_id":"%016x","method":"GET","path":"/api/media/%d","query":"","status":200,"duration_ms":%d.5,"remote":"192.168.1.20"}`+"\n",
			at.Format(time.RFC3339Nano), n, n%5000, n%900)
		n += k
	}
	require.NoError(b, w.Flush())
	require.NoError(b, f.Close())
	req := func() {
		r, _ := http.NewRequest("GET", "/api/logs/read?filename=big.log&tail=500", nil)
		r.Header.Set("Authorization", "Bearer "+admin)
		resp, err := ta.HTTP().App().Test(r, -1)
		if err != nil || resp.StatusCode != 200 {
			b.Fatal(err, resp.StatusCode)
		}
		_ = resp.Body.Close()
	}
	req() // the first read counts the file's lines once
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		req()
	}
}
