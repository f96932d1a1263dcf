package app

import (
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/repository/torznab/torznabtest"
)

const indexerKey = "idx-secret-key-4242"

// indexerConfig writes torrent_search/config.json listing the fake
// indexers under a fresh plugin config folder and returns the environment
// that points the app at it.
func indexerConfig(t *testing.T, indexers ...map[string]any) map[string]string {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "torrent_search"), 0o755))
	raw, err := json.Marshal(map[string]any{"indexers": indexers})
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "torrent_search", "config.json"), raw, 0o600))
	return map[string]string{"MEDIATEKA_PLUGIN_CONFIG_DIR": dir}
}

func indexer(name string, s *torznabtest.Server, timeout string) map[string]any {
	m := map[string]any{"name": name, "url": s.URL, "apikey": indexerKey}
	if timeout != "" {
		m["timeout"] = timeout
	}
	return m
}

const (
	hash1080 = "c12fe1c06bba254a9dc9f519b335aa7c1367a88a"
	hash720  = "d12fe1c06bba254a9dc9f519b335aa7c1367a88b"
)

var published = time.Date(2025, 1, 5, 10, 0, 0, 0, time.UTC)

func jackettItems() []torznabtest.Item {
	return []torznabtest.Item{
		{Title: "Interstellar.2014.1080p.BluRay.x264", Size: 8 << 30, Seeders: 120, Peers: 150, Cats: []int{2040},
			Magnet: "magnet:?xt=urn:btih:" + hash1080 + "&dn=Interstellar", Link: "http://127.0.0.1:9/dl/1", Published: published},
		{Title: "Interstellar 2014 2160p UHD BluRay", Size: 40 << 30, Seeders: 30, Peers: 30, Cats: []int{2045}, Link: "http://127.0.0.1:9/dl/2"},
		{Title: "Interstellar.S01E02.1080p.WEB-DL", Size: 2 << 30, Seeders: 500, Peers: 600, Cats: []int{5040}, Link: "http://127.0.0.1:9/dl/3"},
	}
}

func prowlarrItems() []torznabtest.Item {
	return []torznabtest.Item{
		{Title: "Interstellar (2014) 720p", Size: 3 << 30, Seeders: 300, Peers: 310, Cats: []int{2040},
			Magnet: "magnet:?xt=urn:btih:" + hash720},
		// The same torrent as jackett's 1080p, less seeded here: shown once.
		{Title: "Interstellar 2014 1080p BluRay (mirror)", Size: 8 << 30, Seeders: 100, Peers: 100, Cats: []int{2040},
			Magnet: "magnet:?xt=urn:btih:" + strings.ToUpper(hash1080)},
	}
}

func TestTorrentSearchMergesIndexersWhileOthersFail(t *testing.T) {
	t.Parallel()
	jackett := torznabtest.Start(t, torznabtest.Options{APIKey: indexerKey, Items: jackettItems()})
	prowlarr := torznabtest.Start(t, torznabtest.Options{APIKey: indexerKey, Items: prowlarrItems(), NoMovie: true})
	slow := torznabtest.Start(t, torznabtest.Options{APIKey: indexerKey, Items: jackettItems(), Delay: time.Minute})
	broken := torznabtest.Start(t, torznabtest.Options{APIKey: indexerKey, ErrorCode: 900, ErrorDescription: "Tracker is down"})
	env := indexerConfig(t, indexer("jackett", jackett, ""), indexer("prowlarr", prowlarr, ""),
		indexer("slow", slow, "700ms"), indexer("broken", broken, ""))
	la := newLibAppEnv(t, nil, env)
	la.put(t, map[string]string{"Interstellar (2014)/Interstellar.2014.mkv": "film"})
	la.scan(t)

	start := time.Now()
	resp, raw := la.raw(t, "GET", "/api/torrents/search?query="+url.QueryEscape(" Interstellar ")+"&category=movies", la.user, nil)
	require.Equal(t, 200, resp.StatusCode, "%s", raw)
	assert.Less(t, time.Since(start), 5*time.Second, "the slow indexer costs its timeout, not more")
	assert.Equal(t, "slow, broken", resp.Header.Get("X-Failed-Indexers"))
	var got []map[string]any
	require.NoError(t, json.Unmarshal(raw, &got))
	titles := []string{}
	for _, r := range got {
		titles = append(titles, r["title"].(string))
	}
	assert.Equal(t, []string{"Interstellar (2014) 720p", "Interstellar.2014.1080p.BluRay.x264", "Interstellar 2014 2160p UHD BluRay"}, titles,
		"most seeders first; the series episode is not a movie; the mirror of the 1080p is shown once")
	first, second := got[0], got[1]
	assert.Equal(t, "prowlarr", first["indexer"])
	assert.Nil(t, first["download_url"])
	assert.Equal(t, "magnet:?xt=urn:btih:"+hash720, first["magnet"])
	assert.Equal(t, map[string]any{"title": "Interstellar", "year": 2014.0, "season": nil, "episode": nil, "quality": "1080p"}, second["parsed"])
	assert.EqualValues(t, 120, second["seeders"])
	assert.EqualValues(t, 30, second["leechers"])
	assert.EqualValues(t, 8<<30, second["size"])
	assert.Equal(t, "http://127.0.0.1:9/dl/1", second["download_url"])
	assert.Equal(t, "2025-01-05T10:00:00Z", second["published"])
	for _, r := range got {
		assert.Equal(t, true, r["in_library"], "the film is in the catalogue: %v", r)
		assert.Equal(t, "Interstellar", r["library_entry"].(map[string]any)["title"])
	}
	reqs := jackett.Requests()
	assert.Equal(t, "movie", reqs[len(reqs)-1].Get("t"))
	assert.Equal(t, "2000", reqs[len(reqs)-1].Get("cat"))
	assert.Equal(t, "Interstellar", reqs[len(reqs)-1].Get("q"))
	reqs = prowlarr.Requests()
	assert.Equal(t, "search", reqs[len(reqs)-1].Get("t"), "no movie search in its caps")

	_, raw = la.raw(t, "GET", "/api/torrents/search?query=dark+matter", la.user, nil)
	assert.Equal(t, "[]", strings.TrimSpace(string(raw)), "nothing found is an empty list")
	assert.NotContains(t, la.stderr.String(), indexerKey, "the API key is never logged")
	logged, _ := os.ReadFile(filepath.Join(la.cfg.LogDir, "mediateka.log"))
	assert.Contains(t, string(logged), "Tracker is down", "the failure is logged")
	assert.NotContains(t, string(logged), indexerKey)
}

func TestTorrentSearchBadInput(t *testing.T) {
	t.Parallel()
	jackett := torznabtest.Start(t, torznabtest.Options{APIKey: indexerKey, Items: jackettItems()})
	ta := newTestApp(t, indexerConfig(t, indexer("jackett", jackett, "")))
	_, user := ta.tokens(t)
	resp, _ := ta.do(t, "GET", "/api/torrents/search?query=x", "", nil)
	assert.Equal(t, 401, resp.StatusCode)
	for _, q := range []string{"", "?query=", "?query=%20%20", "?query=" + strings.Repeat("a", 201), "?query=x&category=music", "?query=x&category=20x0"} {
		resp, body := ta.do(t, "GET", "/api/torrents/search"+q, user, nil)
		assert.Equal(t, 400, resp.StatusCode, q)
		assert.Equal(t, "invalid_input", errCode(body), q)
	}
	assert.Empty(t, jackett.Requests(), "bad input never reaches an indexer")
	resp, body := ta.do(t, "GET", "/api/torrents/search?query=interstellar&category=2040,5040", user, nil)
	require.Equal(t, 200, resp.StatusCode, "%v", body)
	reqs := jackett.Requests()
	assert.Equal(t, "2040,5040", reqs[len(reqs)-1].Get("cat"))
}

func TestTorrentSearchUnavailable(t *testing.T) {
	t.Parallel()
	ta := newTestApp(t, nil)
	_, user := ta.tokens(t)
	resp, body := ta.do(t, "GET", "/api/torrents/search?query=interstellar", user, nil)
	assert.Equal(t, 503, resp.StatusCode)
	assert.Equal(t, "torrent_search_not_configured", errCode(body))
	assert.Contains(t, body["error"].(map[string]any)["message"], "torrent_search/config.json")

	broken := torznabtest.Start(t, torznabtest.Options{ErrorCode: 100, ErrorDescription: "Invalid API Key"})
	ta = newTestApp(t, indexerConfig(t, indexer("broken", broken, "")))
	_, user = ta.tokens(t)
	resp, body = ta.do(t, "GET", "/api/torrents/search?query=interstellar", user, nil)
	assert.Equal(t, 503, resp.StatusCode)
	assert.Equal(t, "indexers_unavailable", errCode(body))
	assert.Contains(t, body["error"].(map[string]any)["message"], "Invalid API Key")
	assert.NotContains(t, body["error"].(map[string]any)["message"], indexerKey)

	ta = newTestApp(t, indexerConfig(t, map[string]any{"name": "x", "url": "ftp://nowhere", "apikey": indexerKey}))
	admin, user := ta.tokens(t)
	resp, body = ta.do(t, "GET", "/api/torrents/search?query=interstellar", user, nil)
	assert.Equal(t, 503, resp.StatusCode)
	assert.Contains(t, body["error"].(map[string]any)["message"], "indexers[0]")
	status, list := ta.doList(t, "GET", "/api/admin/plugins", admin)
	require.Equal(t, 200, status)
	for _, p := range list {
		if p["name"] == "torrent_search" {
			assert.Equal(t, false, p["loaded"], "%v", p)
			assert.Contains(t, p["last_error"], "url must be an http(s) URL")
		}
	}
}
