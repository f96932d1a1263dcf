package app

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/repository/qbittorrent/qbittest"
	"mediateka/usecase/torrent/torrenttest"
)

const (
	filmHash   = "0123456789abcdef0123456789abcdef01234567"
	filmMagnet = "magnet:?xt=urn:btih:" + filmHash + "&dn=Some.Film.2019.1080p"
)

// torrentApp is a test app whose torrent client is a real qbittorrent-nox.
func torrentApp(t *testing.T, env map[string]string) (*testApp, *qbittest.Daemon, string) {
	t.Helper()
	d := qbittest.Start(t)
	full := map[string]string{
		"MEDIATEKA_TORRENT_CLIENT__URL": d.URL, "MEDIATEKA_TORRENT_CLIENT__USERNAME": d.Username,
		"MEDIATEKA_TORRENT_CLIENT__PASSWORD": d.Password, "MEDIATEKA_TORRENT_CLIENT__FETCH_TIMEOUT": "1s",
	}
	for k, v := range env {
		full[k] = v
	}
	ta := newTestApp(t, full)
	_, user := ta.tokens(t)
	return ta, d, user
}

// torrentsByHash lists GET /api/torrents by hash.
func torrentsByHash(t *testing.T, ta *testApp, token string) map[string]map[string]any {
	t.Helper()
	status, list := ta.doList(t, "GET", "/api/torrents", token)
	require.Equal(t, 200, status)
	out := map[string]map[string]any{}
	for _, tr := range list {
		out[tr["hash"].(string)] = tr
	}
	return out
}

func TestDownloadMagnetAndTorrentFileThenList(t *testing.T) {
	t.Parallel()
	ta, _, user := torrentApp(t, nil)
	file, fileHash := torrenttest.SingleFile("Another.Film.2021.mkv", bytes.Repeat([]byte("v"), 40_000))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/x-bittorrent")
		_, _ = w.Write(file)
	}))
	t.Cleanup(srv.Close)

	resp, _ := ta.do(t, "POST", "/api/torrents/download", "", map[string]any{"url": filmMagnet})
	assert.Equal(t, 401, resp.StatusCode)
	resp, body := ta.do(t, "POST", "/api/torrents/download", user, map[string]any{"url": filmMagnet, "title": "Some Film", "source": "test"})
	require.Equal(t, 201, resp.StatusCode, "%v", body)
	assert.Equal(t, map[string]any{"status": "added", "hash": filmHash, "method": "magnet"}, body)
	resp, body = ta.do(t, "POST", "/api/torrents/download", user, map[string]any{"url": srv.URL + "/dl/1"})
	require.Equal(t, 400, resp.StatusCode, "a user's link may not reach loopback or the LAN: %v", body)
	admin := ta.login(t, "admin@localhost", ta.initialPassword(t))
	resp, body = ta.do(t, "POST", "/api/torrents/download", admin, map[string]any{"url": srv.URL + "/dl/1"})
	require.Equal(t, 201, resp.StatusCode, "%v", body)
	assert.Equal(t, map[string]any{"status": "added", "hash": fileHash, "method": "file"}, body)

	var got map[string]map[string]any
	require.Eventually(t, func() bool {
		got = torrentsByHash(t, ta, user)
		return len(got) == 2 && got[fileHash]["client_state"] == "stalledDL"
	}, 10*time.Second, 100*time.Millisecond, "both listed under the hashes we computed: %v", got)
	film, other := got[filmHash], got[fileHash]
	assert.Equal(t, "Metadata", film["state"], "a magnet without peers waits for metadata: %v", film)
	assert.Equal(t, "metaDL", film["client_state"])
	assert.Equal(t, "Stalled", other["state"])
	assert.Equal(t, "Another.Film.2021.mkv", other["name"])
	assert.EqualValues(t, 40_000, other["size"])
	assert.EqualValues(t, 0, other["progress"])
	assert.Nil(t, other["eta"], "no peers: no estimate")
	addedOn, err := time.Parse(time.RFC3339, other["added_on"].(string))
	require.NoError(t, err)
	assert.WithinDuration(t, time.Now(), addedOn, time.Minute)
	for _, k := range []string{"category", "save_path", "download_speed"} {
		assert.Contains(t, other, k)
	}

	base32 := "magnet:?xt=urn:btih:AERUKZ4JVPG66AJDIVTYTK6N54ASGRLH"
	for _, link := range []string{filmMagnet, base32, srv.URL + "/dl/again"} {
		resp, body = ta.do(t, "POST", "/api/torrents/download", admin, map[string]any{"url": link})
		assert.Equal(t, 409, resp.StatusCode, "%s: %v", link, body)
		assert.Equal(t, "already_exists", errCode(body))
	}
	assert.Len(t, torrentsByHash(t, ta, user), 2)
}

// badLinkServer answers every way a download link can be bad.
func badLinkServer(t *testing.T) *httptest.Server {
	t.Helper()
	release := make(chan struct{})
	mux := http.NewServeMux()
	mux.Handle("/loop", http.RedirectHandler("/loop", http.StatusFound))
	mux.Handle("/metadata", http.RedirectHandler("http://169.254.169.254/latest/meta-data/", http.StatusFound))
	mux.Handle("/file", http.RedirectHandler("file:///etc/passwd", http.StatusFound))
	mux.HandleFunc("/huge", func(w http.ResponseWriter, _ *http.Request) {
		chunk := bytes.Repeat([]byte("l"), 1<<20)
		for range 50 {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	})
	mux.HandleFunc("/html", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("<html>login first</html>")) })
	mux.HandleFunc("/silent", func(_ http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(func() { close(release); srv.Close() })
	return srv
}

// badLinks maps each bad link of issue 11 to a word of the reason an
// administrator is given.
func badLinks(srv *httptest.Server) map[string]string {
	return map[string]string{
		"not a link at all":                        "neither a magnet",
		"magnet:?dn=Film":                          "no xt=urn:btih:",
		"magnet:?xt=urn:btih:0123456789abcdef0123": "40 hex digits or 32 base32",
		"file:///etc/passwd":                       "only magnet: and http(s)",
		"ftp://example.org/film.torrent":           "only magnet: and http(s)",
		"http://169.254.169.254/latest/meta-data/": "link-local",
		srv.URL + "/loop":                          "too many redirects",
		srv.URL + "/metadata":                      "link-local",
		srv.URL + "/file":                          "not http(s)",
		srv.URL + "/huge":                          "larger than 5 MiB",
		srv.URL + "/html":                          "not bencoded",
		srv.URL + "/silent":                        "did not answer within 1s",
	}
}

// notFetched is what a user is told of any link the server could not
// fetch as a torrent, whatever the reason.
const notFetched = "the link could not be downloaded as a torrent file (the server log says why)"

func TestBadLinksAre400AndAddNothing(t *testing.T) {
	t.Parallel()
	ta, _, user := torrentApp(t, nil)
	admin := ta.login(t, "admin@localhost", ta.initialPassword(t))
	srv := badLinkServer(t)
	for link, reason := range badLinks(srv) {
		resp, body := ta.do(t, "POST", "/api/torrents/download", admin, map[string]any{"url": link})
		assert.Equal(t, 400, resp.StatusCode, "%s: %v", link, body)
		assert.Equal(t, "invalid_torrent_link", errCode(body), link)
		assert.Contains(t, body["error"].(map[string]any)["fields"].(map[string]any)["url"], reason, link)

		resp, body = ta.do(t, "POST", "/api/torrents/download", user, map[string]any{"url": link})
		assert.Equal(t, 400, resp.StatusCode, "%s: %v", link, body)
		if strings.HasPrefix(link, "http") {
			assert.Equal(t, notFetched, body["error"].(map[string]any)["fields"].(map[string]any)["url"],
				"a user hears one reason for every fetch failure (no LAN probing): %s", link)
		}
	}
	// A closed port and a page that is not a torrent read the same to a user.
	for _, link := range []string{"http://127.0.0.1:1/a.torrent", "http://10.255.255.1/a.torrent", srv.URL + "/html"} {
		resp, body := ta.do(t, "POST", "/api/torrents/download", user, map[string]any{"url": link})
		assert.Equal(t, 400, resp.StatusCode, "%s: %v", link, body)
		assert.Equal(t, notFetched, body["error"].(map[string]any)["fields"].(map[string]any)["url"], link)
	}
	assert.Contains(t, ta.stderr.String(), "loopback and LAN addresses are allowed only", "the log says why")
	for _, b := range []any{map[string]any{}, map[string]any{"url": "  "}, map[string]any{"url": 5}, "{not json",
		map[string]any{"url": filmMagnet, "title": strings.Repeat("я", 501)}} {
		resp, body := ta.do(t, "POST", "/api/torrents/download", user, b)
		assert.Equal(t, 400, resp.StatusCode, "%v: %v", b, body)
	}
	assert.Empty(t, torrentsByHash(t, ta, user), "nothing reached the client")
}

func TestClientDownIs503ButBadInputStays400(t *testing.T) {
	t.Parallel()
	ta, d, user := torrentApp(t, nil)
	d.Stop()
	for _, call := range []struct {
		method, path string
		body         any
	}{{"GET", "/api/torrents", nil}, {"POST", "/api/torrents/download", map[string]any{"url": filmMagnet}}} {
		start := time.Now()
		resp, body := ta.do(t, call.method, call.path, user, call.body)
		assert.Equal(t, 503, resp.StatusCode, "%s %v", call.path, body)
		assert.Equal(t, "torrent_client_unavailable", errCode(body))
		assert.Less(t, time.Since(start), 3*time.Second)
	}
	resp, body := ta.do(t, "POST", "/api/torrents/download", user, map[string]any{"url": "magnet:?dn=no-hash"})
	assert.Equal(t, 400, resp.StatusCode, "the link is checked before the client is asked: %v", body)
}

func TestRefusedLoginIs503AndThePasswordStaysSecret(t *testing.T) {
	t.Parallel()
	ta, d, user := torrentApp(t, map[string]string{"MEDIATEKA_TORRENT_CLIENT__PASSWORD": "not-the-password-42"})
	resp, body := ta.do(t, "GET", "/api/torrents", user, nil)
	assert.Equal(t, 503, resp.StatusCode, "%v", body)
	assert.Equal(t, "torrent_client_unavailable", errCode(body))
	raw, _ := body["error"].(map[string]any)["message"].(string)
	assert.NotContains(t, raw, "not-the-password-42")
	assert.Contains(t, ta.stderr.String(), "torrent_client_unavailable", "the 503 was logged")
	assert.NotContains(t, ta.stderr.String(), "not-the-password-42")
	assert.NotContains(t, ta.stderr.String(), d.Password)
}

// A .torrent file sent in the request (base64 in JSON) is added as a file
// under the hash the server computes, a user may send one, and a bad one
// or one with a link too adds nothing.
func TestDownloadAnUploadedTorrentFile(t *testing.T) {
	t.Parallel()
	ta, _, user := torrentApp(t, nil)
	file, fileHash := torrenttest.SingleFile("Uploaded.Film.2022.mkv", bytes.Repeat([]byte("u"), 30_000))
	resp, body := ta.do(t, "POST", "/api/torrents/download", user, map[string]any{"torrent_file": file, "title": "Uploaded"})
	require.Equal(t, 201, resp.StatusCode, "%v", body)
	assert.Equal(t, map[string]any{"status": "added", "hash": fileHash, "method": "file"}, body)
	require.Eventually(t, func() bool { return torrentsByHash(t, ta, user)[fileHash]["name"] == "Uploaded.Film.2022.mkv" },
		10*time.Second, 100*time.Millisecond, "the client has the file's own metadata at once")

	for name, req := range map[string]map[string]any{
		"not a torrent":    {"torrent_file": []byte("<html>nope</html>")},
		"file and link":    {"torrent_file": file, "url": filmMagnet},
		"not base64":       {"torrent_file": "%%%"},
		"the same again":   {"torrent_file": file},
		"neither anything": {},
	} {
		resp, body := ta.do(t, "POST", "/api/torrents/download", user, req)
		want := 400
		if name == "the same again" {
			want = 409
		}
		assert.Equal(t, want, resp.StatusCode, "%s: %v", name, body)
	}
	assert.Len(t, torrentsByHash(t, ta, user), 1, "nothing else was added")
}
