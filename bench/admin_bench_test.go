package bench

import (
	"io"
	"net/http"
	"testing"
	"time"
)

// BenchmarkAdminPanelTabs asks, over the scanned 100 000-file library, for
// what each tab of the admin panel requests when it opens or when a person
// types a search, one request after another as one browser does, and
// reports the slowest of each tab's requests (the tab shows when its
// last answer is in). The first round after a change pays for the counts
// (the overview's are kept until the catalogue changes); later rounds are
// what moving between tabs costs.
func BenchmarkAdminPanelTabs(b *testing.B) {
	base, token, stop := serveLibrary(b)
	defer stop()
	tabs := []struct {
		name string
		urls []string
	}{
		{"overview", []string{"/api/media-admin/stats", "/api/keys", "/api/admin/system_instruction"}},
		{"library", []string{"/api/media/files?limit=50", "/api/media-admin/roots", "/api/media-admin/scan/status", "/api/media-admin/classify/status"}},
		{"library-search", []string{"/api/media/files?limit=50&q=matrix", "/api/media/files?limit=50&status=missing", "/api/media/files?limit=50&type=series&offset=500"}},
		{"search", []string{"/api/media-admin/rag/status"}},
		{"plugins", []string{"/api/admin/plugins"}},
		{"users", []string{"/api/admin/users?limit=50"}},
		{"logs", []string{"/api/logs/files", "/api/logs/stats"}},
		{"speech", []string{"/api/tts/voices"}},
	}
	get := func(url string) time.Duration {
		req, _ := http.NewRequest("GET", base+url, nil)
		req.Header.Set("Authorization", "Bearer "+token)
		start := time.Now()
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			b.Fatalf("%s: status %d", url, resp.StatusCode)
		}
		return time.Since(start)
	}
	first := map[string]time.Duration{}
	for _, tab := range tabs { // the first visit after the scan
		for _, u := range tab.urls {
			first[tab.name] = max(first[tab.name], get(u))
		}
	}
	worst := map[string]time.Duration{}
	b.ResetTimer()
	for range b.N {
		for _, tab := range tabs {
			var slowest time.Duration
			for _, u := range tab.urls {
				slowest = max(slowest, get(u))
			}
			worst[tab.name] = max(worst[tab.name], slowest)
		}
	}
	b.StopTimer()
	for _, tab := range tabs {
		b.ReportMetric(float64(first[tab.name].Microseconds())/1000, tab.name+"-first-ms")
		b.ReportMetric(float64(worst[tab.name].Microseconds())/1000, tab.name+"-worst-ms")
	}
}
