package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"mediateka/app"
	"mediateka/config"
	"mediateka/usecase/library"
)

// serveLibrary starts the whole server on loopback over a scanned copy of
// the synthetic library and returns its address and an admin token. The
// log level is "error" unless MEDIATEKA_BENCH_LOG names another (the
// default configuration logs every request at "info").
func serveLibrary(b *testing.B) (base, token string, stop func()) {
	b.Helper()
	root, files := benchLibrary(b)
	return serveRoot(b, root, files)
}

// serveRoot is serveLibrary over the library folder root, which holds
// files video files.
func serveRoot(b *testing.B, root string, files int) (base, token string, stop func()) {
	b.Helper()
	level := os.Getenv("MEDIATEKA_BENCH_LOG")
	if level == "" {
		level = "error"
	}
	dir := b.TempDir()
	write := func(name string, v any) {
		raw, _ := json.Marshal(v)
		if err := os.WriteFile(filepath.Join(dir, name), raw, 0o600); err != nil {
			b.Fatal(err)
		}
	}
	write("config.json", map[string]any{"data_dir": filepath.Join(dir, "data"), "log": map[string]any{"level": level}})
	write("search_dirs.json", map[string]any{"dirs": []string{root}})
	cfg, _, err := config.Load(filepath.Join(dir, "config.json"), func(string) (string, bool) { return "", false })
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	if st, err := app.Scan(ctx, cfg, library.ScanRequest{}, time.Minute, nil); err != nil || st.Added != files {
		b.Fatalf("scan: %v %+v", err, st)
	}
	a, err := app.New(ctx, cfg, app.Options{Version: "bench", Stderr: io.Discard})
	if err != nil {
		b.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _ = a.Run(ctx, ln); close(done) }()
	base = "http://" + ln.Addr().String()
	pw, err := os.ReadFile(filepath.Join(cfg.DataDir, "initial_admin_password"))
	if err != nil {
		b.Fatal(err)
	}
	body, _ := json.Marshal(map[string]string{"email": "admin@localhost", "password": strings.TrimSpace(string(pw))})
	resp, err := http.Post(base+"/api/auth/login", "application/json", bytes.NewReader(body))
	if err != nil {
		b.Fatal(err)
	}
	var login struct {
		AccessToken string `json:"access_token"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&login)
	resp.Body.Close()
	return base, login.AccessToken, func() { cancel(); <-done }
}

// BenchmarkFilesStream fetches GET /api/media/files for the whole 100 000
// file catalogue over HTTP and reports how much the server process's RSS
// grew while streaming it (the client discards the body as it arrives).
func BenchmarkFilesStream(b *testing.B) {
	base, token, stop := serveLibrary(b)
	defer stop()
	var growth, bytesOut int64
	var took time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		runtime.GC()
		debug.FreeOSMemory()
		before := rssKB(b)
		peak := peakRSS(b)
		req, _ := http.NewRequest("GET", base+"/api/media/files", nil)
		req.Header.Set("Authorization", "Bearer "+token)
		start := time.Now()
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		n, err := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		took += time.Since(start)
		if err != nil || resp.StatusCode != 200 {
			b.Fatalf("files: %v %d", err, resp.StatusCode)
		}
		total, _ := strconv.Atoi(resp.Header.Get("X-Total-Count"))
		if total < 100000 {
			b.Fatalf("X-Total-Count %d", total)
		}
		growth = max(growth, peak()-before)
		bytesOut = n
	}
	b.ReportMetric(float64(growth)/1024, "rss-growth-MB")
	b.ReportMetric(float64(bytesOut)/(1<<20), "body-MB")
	b.ReportMetric(took.Seconds()/float64(b.N), "s/list")
}
