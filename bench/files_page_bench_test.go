package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// pageClients is how many clients ask for pages at once.
const pageClients = 32

// BenchmarkFilesPage sends GET /api/media/files?limit=50 to the whole
// server on loopback over the scanned 100 000-file library from 32
// clients at once (one keep-alive connection each, opened before the
// clock starts; client and server share the machine's cores) and reports
// the throughput and the median and 99th percentile latency. b.N is the
// number of requests in all. "first" asks for the first page, as a list
// opened by many people does; "spread" walks 100 different pages
// (offset 0 to 4950), more than the server keeps, so every page is read
// from SQLite. It also reports the CPU time of the whole process (server
// and clients) per request, which other work on a shared machine
// disturbs far less than latency. With MEDIATEKA_BENCH_STATES=1 the
// account has a watching state for every movie and episode of the first
// 1 000 entries (see watchSome), so the pages carry user_state objects.
func BenchmarkFilesPage(b *testing.B) {
	for _, bc := range []struct {
		name  string
		pages int
	}{{"first", 1}, {"spread", 100}} {
		b.Run(bc.name, func(b *testing.B) { benchFilesPage(b, bc.pages) })
	}
}

func benchFilesPage(b *testing.B, pages int) {
	base, token, stop := serveLibrary(b)
	defer stop()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: pageClients, MaxConnsPerHost: pageClients}}
	defer client.CloseIdleConnections()
	if os.Getenv("MEDIATEKA_BENCH_STATES") != "" {
		watchSome(b, client, base, token)
	}
	get := func(url string) (int, error) {
		req, _ := http.NewRequestWithContext(context.Background(), "GET", url, nil)
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := client.Do(req)
		if err != nil {
			return 0, err
		}
		defer resp.Body.Close()
		if _, err := io.Copy(io.Discard, resp.Body); err != nil {
			return 0, err
		}
		if n, _ := strconv.Atoi(resp.Header.Get("X-Total-Count")); n < 100000 || resp.StatusCode != 200 {
			b.Errorf("status %d, X-Total-Count %q", resp.StatusCode, resp.Header.Get("X-Total-Count"))
		}
		return resp.StatusCode, nil
	}
	cpu := processCPU()
	lat, took := pageLoad(b, pageClients, b.N, func(i int) error {
		_, err := get(fmt.Sprintf("%s/api/media/files?limit=50&offset=%d", base, i%pages*50))
		return err
	})
	cpu = processCPU() - cpu
	b.ReportMetric(float64(len(lat))/took.Seconds(), "req/s")
	b.ReportMetric(float64(cpu.Microseconds())/float64(len(lat)+pageClients), "cpu-µs/req")
	reportLatency(b, lat)
}

// watchSome gives the account a watching state (a third in) for every
// movie and episode among the first 1 000 entries.
func watchSome(b *testing.B, client *http.Client, base, token string) {
	do := func(method, url string, body io.Reader) *http.Response {
		req, _ := http.NewRequestWithContext(context.Background(), method, url, body)
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		return resp
	}
	resp := do("GET", base+"/api/media/files?limit=1000", nil)
	var list []struct {
		ID        int64  `json:"id"`
		MediaType string `json:"media_type"`
	}
	err := json.NewDecoder(resp.Body).Decode(&list)
	resp.Body.Close()
	if err != nil {
		b.Fatal(err)
	}
	n := 0
	for _, e := range list {
		if e.MediaType != "movie" && e.MediaType != "episode" {
			continue
		}
		resp := do("PUT", fmt.Sprintf("%s/api/media/%d/progress", base, e.ID), strings.NewReader(`{"position": 1000, "duration": 3000}`))
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusNoContent {
			b.Fatalf("progress of %d: status %d", e.ID, resp.StatusCode)
		}
		n++
	}
	b.Logf("watching states: %d", n)
}

// pageLoad runs do(0) … do(n-1) from clients goroutines (after one
// warm-up call each, outside the clock) and returns every call's latency
// and the wall time of the whole run.
func pageLoad(b *testing.B, clients, n int, do func(i int) error) ([]time.Duration, time.Duration) {
	var warm sync.WaitGroup
	for c := range clients {
		warm.Go(func() {
			if err := do(c); err != nil {
				b.Error(err)
			}
		})
	}
	warm.Wait()
	lat := make([]time.Duration, n)
	var next atomic.Int64
	var wg sync.WaitGroup
	stopProfile := profileCPU(b)
	b.ResetTimer()
	start := time.Now()
	for range clients {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
				t := time.Now()
				if err := do(i); err != nil {
					b.Error(err)
					return
				}
				lat[i] = time.Since(t)
			}
		})
	}
	wg.Wait()
	took := time.Since(start)
	b.StopTimer()
	stopProfile()
	return lat, took
}

// profileCPU writes a CPU profile of the measured part alone (not of the
// scan that builds the library) to $MEDIATEKA_BENCH_CPUPROFILE, when set,
// until the returned function is called.
func profileCPU(b *testing.B) (stop func()) {
	path := os.Getenv("MEDIATEKA_BENCH_CPUPROFILE")
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		b.Fatal(err)
	}
	return func() { pprof.StopCPUProfile(); _ = f.Close() }
}
