package app

import (
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// benchClients is how many clients talk to the server at once.
const benchClients = 200

// BenchmarkChatOffline200Clients sends b.N chat requests to a real server on
// loopback from 200 concurrent clients, with the default configuration (the
// offline assistant). Every request must succeed; the latency percentiles
// are reported. Bound it with a count, e.g.
//
//	go test ./app -run '^$' -bench ChatOffline200 -benchtime 4000x
func BenchmarkChatOffline200Clients(b *testing.B) {
	ta := newTestApp(b, nil)
	_, user := ta.tokens(b)
	addr, stop := runOnLoopback(b, ta)
	defer func() { _ = stop() }()
	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{
		MaxIdleConns: benchClients, MaxIdleConnsPerHost: benchClients, MaxConnsPerHost: benchClients,
	}}
	defer client.CloseIdleConnections()
	send := func() (time.Duration, bool) {
		req, _ := http.NewRequest("POST", "http://"+addr+"/api/chat", strings.NewReader(`{"message": "Есть ли у меня Матрица?"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+user)
		begin := time.Now()
		resp, err := client.Do(req)
		if err != nil {
			return 0, false
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		_ = resp.Body.Close()
		return time.Since(begin), resp.StatusCode == http.StatusOK
	}
	for range benchClients { // open the connections before measuring
		send()
	}

	latencies := make([]time.Duration, b.N)
	var next, failed atomic.Int64
	var wg sync.WaitGroup
	b.ResetTimer()
	begin := time.Now()
	for range benchClients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := next.Add(1) - 1; i < int64(b.N); i = next.Add(1) - 1 {
				d, ok := send()
				if !ok {
					failed.Add(1)
				}
				latencies[i] = d
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(begin)
	b.StopTimer()
	if n := failed.Load(); n > 0 {
		b.Fatalf("%d of %d requests failed", n, b.N)
	}
	slices.Sort(latencies)
	pct := func(p float64) float64 {
		return float64(latencies[min(len(latencies)-1, int(p*float64(len(latencies))))].Microseconds()) / 1000
	}
	b.ReportMetric(pct(0.50), "p50_ms")
	b.ReportMetric(pct(0.99), "p99_ms")
	b.ReportMetric(float64(latencies[len(latencies)-1].Microseconds())/1000, "max_ms")
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "req/s")
}
