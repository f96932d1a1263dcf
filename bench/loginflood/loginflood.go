// Package loginflood fires many concurrent wrong logins at a mediateka
// server on this machine and measures what they do to it: the statuses
// answered, the latency of /healthz meanwhile and, given the server's
// process id, its resident memory. It refuses any address that is not
// loopback and any count above MaxRequests: it is a measuring tool, not a
// way to attack someone else's server.
package loginflood

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"mediateka/bench/measure"
)

// MaxRequests bounds one run.
const MaxRequests = 5000

// Config describes one run.
type Config struct {
	BaseURL  string // e.g. http://127.0.0.1:3000
	Requests int    // concurrent wrong logins, all at once
	Email    string
	PID      int // server process to sample VmRSS of; 0: no memory numbers
}

// Result is what one run saw.
type Result struct {
	Statuses     map[int]int // HTTP status → count (0: transport error)
	Elapsed      time.Duration
	Health       []time.Duration // /healthz latencies during the flood
	RSSBeforeKiB int64
	RSSPeakKiB   int64
}

// Run fires cfg.Requests wrong logins at once and probes /healthz every
// 50 ms until they have all been answered.
func Run(ctx context.Context, cfg Config) (Result, error) {
	if err := check(cfg); err != nil {
		return Result{}, err
	}
	client := &http.Client{Timeout: 2 * time.Minute, Transport: &http.Transport{MaxIdleConnsPerHost: cfg.Requests}}
	res := Result{Statuses: map[int]int{}, RSSBeforeKiB: measure.RSSKiB(cfg.PID)}
	done := make(chan struct{})
	var probes sync.WaitGroup
	probes.Add(1)
	go func() { defer probes.Done(); res.Health, res.RSSPeakKiB = probe(ctx, client, cfg, done) }()

	start := time.Now()
	var mu sync.Mutex
	var wg sync.WaitGroup
	body, _ := json.Marshal(map[string]string{"email": cfg.Email, "password": "wrong-password"})
	for range cfg.Requests {
		wg.Add(1)
		go func() {
			defer wg.Done()
			code := post(ctx, client, cfg.BaseURL+"/api/auth/login", body)
			mu.Lock()
			res.Statuses[code]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	res.Elapsed = time.Since(start)
	close(done)
	probes.Wait()
	client.CloseIdleConnections() // so a server shutting down next need not wait for them
	return res, nil
}

func check(cfg Config) error {
	if cfg.Requests < 1 || cfg.Requests > MaxRequests {
		return fmt.Errorf("requests must be 1..%d", MaxRequests)
	}
	return measure.Loopback(cfg.BaseURL)
}

func post(ctx context.Context, client *http.Client, target string, body []byte) int {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, bytes.NewReader(body))
	if err != nil {
		return 0
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return 0
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	return resp.StatusCode
}

// probe times GET /healthz and samples the server's RSS every 50 ms until
// done is closed.
func probe(ctx context.Context, client *http.Client, cfg Config, done <-chan struct{}) ([]time.Duration, int64) {
	var lat []time.Duration
	var peak int64
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		peak = max(peak, measure.RSSKiB(cfg.PID))
		t := time.Now()
		if req, err := http.NewRequestWithContext(ctx, http.MethodGet, cfg.BaseURL+"/healthz", nil); err == nil {
			if resp, err := client.Do(req); err == nil {
				_, _ = io.Copy(io.Discard, resp.Body)
				_ = resp.Body.Close()
				lat = append(lat, time.Since(t))
			}
		}
		select {
		case <-done:
			return lat, max(peak, measure.RSSKiB(cfg.PID))
		case <-tick.C:
		}
	}
}
