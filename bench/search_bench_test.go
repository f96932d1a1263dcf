package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"mediateka/repository/localfs"
	"mediateka/usecase/catalog"
)

// typedQueries are searches as people type them, beside benchQueries'
// clean ones: words out of order, a title with a year, transliteration,
// the wrong keyboard layout and typos. Every kind of fuzzy pass runs.
func typedQueries() []string {
	return []string{"сад золотой", "Тихий 2004", "tihiy", "zolotoy sad", "crimson 2011", "silent rvier",
		"ночнйо вокзал", "lfkmybq", "ghbcnfym", "ыщдфкшы", "Krasnyj gorod", "kingdom frozen"}
}

// BenchmarkByTitleHTTP8 is POST /api/media/by-title through the whole
// server on loopback with 8 clients sending at once (each waits for its
// answer before the next request), half of the searches clean
// (benchQueries) and half as people type (typedQueries). It reports the
// median and 99th percentile of the latency each client saw, the
// throughput, and the CPU time per request of the whole process (server
// and clients). Client and server share the machine's cores.
func BenchmarkByTitleHTTP8(b *testing.B) {
	base, token, stop := serveLibrary(b)
	defer stop()
	const clients = 8
	var bodies [][]byte
	clean, typed := benchQueries(), typedQueries()
	for i := 0; i < max(len(clean), len(typed)); i++ {
		for _, q := range []string{clean[i%len(clean)], typed[i%len(typed)]} {
			raw, _ := json.Marshal(map[string]string{"title": q})
			bodies = append(bodies, raw)
		}
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients, MaxConnsPerHost: clients}}
	search := func(body []byte) (time.Duration, error) {
		req, _ := http.NewRequest("POST", base+"/api/media/by-title", bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/json")
		start := time.Now()
		resp, err := client.Do(req)
		if err != nil {
			return 0, err
		}
		_, err = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		took := time.Since(start)
		if err == nil && resp.StatusCode != 200 && resp.StatusCode != 404 {
			err = &statusError{resp.StatusCode}
		}
		return took, err
	}
	for _, body := range bodies { // warm the index and the connections
		if _, err := search(body); err != nil {
			b.Fatal(err)
		}
	}
	lat := make([][]time.Duration, clients)
	var next atomic.Int64
	var failed atomic.Value
	var wg sync.WaitGroup
	b.ReportAllocs()
	b.ResetTimer()
	cpu := processCPU()
	start := time.Now()
	for c := range clients {
		wg.Go(func() {
			for i := next.Add(1) - 1; i < int64(b.N); i = next.Add(1) - 1 {
				d, err := search(bodies[int(i)%len(bodies)])
				if err != nil {
					failed.Store(err)
					return
				}
				lat[c] = append(lat[c], d)
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	cpu = processCPU() - cpu
	b.StopTimer()
	if err, _ := failed.Load().(error); err != nil {
		b.Fatal(err)
	}
	var all []time.Duration
	for _, l := range lat {
		all = append(all, l...)
	}
	reportLatency(b, all)
	b.ReportMetric(float64(len(all))/elapsed.Seconds(), "req/s")
	b.ReportMetric(float64(cpu.Microseconds())/float64(len(all)), "cpu-µs/req")
}

// processCPU is the CPU time this process (server and clients) has used,
// which other work on a shared machine changes far less than latency.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

type statusError struct{ status int }

func (e *statusError) Error() string { return "unexpected status " + http.StatusText(e.status) }

// BenchmarkTitleIndexBuild builds the title index of the whole scanned
// library, as the first search after a change does, and reports the time
// and the heap the index holds.
func BenchmarkTitleIndexBuild(b *testing.B) {
	root, _ := benchLibrary(b)
	r := newRig(b, b.TempDir(), root)
	defer r.close()
	r.scan(b)
	var took time.Duration
	var heap float64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		cat := catalog.New(r.media, r.media, localfs.FS{}, catalog.Options{})
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		start := time.Now()
		if err := cat.Warm(context.Background()); err != nil {
			b.Fatal(err)
		}
		took += time.Since(start)
		runtime.GC()
		runtime.ReadMemStats(&after)
		heap = float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / (1 << 20)
		runtime.KeepAlive(cat)
		cat.Close()
	}
	b.ReportMetric(float64(took.Milliseconds())/float64(b.N), "build-ms")
	b.ReportMetric(heap, "index-MB")
}
