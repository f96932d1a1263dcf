package linkfetch

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
)

// reasonOf is the reason a person sees for a refused link.
func reasonOf(t *testing.T, err error) string {
	t.Helper()
	var de *domain.Error
	require.ErrorAs(t, err, &de)
	require.Equal(t, "invalid_torrent_link", de.Code, "%v", err)
	return de.Fields["url"]
}

func TestFetchesFromLoopbackFollowingRedirects(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/file.torrent", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("d4:infodee")) })
	mux.Handle("/r1", http.RedirectHandler("/r2", http.StatusFound))
	mux.Handle("/r2", http.RedirectHandler("/r3", http.StatusFound))
	mux.Handle("/r3", http.RedirectHandler("/file.torrent", http.StatusMovedPermanently))
	mux.Handle("/magnet", http.RedirectHandler("magnet:?xt=urn:btih:0123456789abcdef0123456789abcdef01234567", http.StatusFound))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	f := New(Options{})

	body, magnet, err := f.Fetch(context.Background(), srv.URL+"/r1")
	require.NoError(t, err, "three redirects are allowed")
	assert.Equal(t, "d4:infodee", string(body))
	assert.Empty(t, magnet)

	body, magnet, err = f.Fetch(context.Background(), srv.URL+"/magnet")
	require.NoError(t, err)
	assert.Nil(t, body)
	assert.Equal(t, "magnet:?xt=urn:btih:0123456789abcdef0123456789abcdef01234567", magnet)
}

func TestRefusedLinks(t *testing.T) {
	mux := http.NewServeMux()
	mux.Handle("/loop", http.RedirectHandler("/loop", http.StatusFound))
	mux.Handle("/four", http.RedirectHandler("/r1", http.StatusFound))
	mux.Handle("/r1", http.RedirectHandler("/r2", http.StatusFound))
	mux.Handle("/r2", http.RedirectHandler("/r3", http.StatusFound))
	mux.Handle("/r3", http.RedirectHandler("/ok", http.StatusFound))
	mux.HandleFunc("/ok", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("d4:infodee")) })
	mux.Handle("/metadata", http.RedirectHandler("http://169.254.169.254/latest/meta-data/", http.StatusFound))
	mux.Handle("/metadata6", http.RedirectHandler("http://[fe80::1]/", http.StatusFound))
	mux.Handle("/file", http.RedirectHandler("file:///etc/passwd", http.StatusFound))
	mux.Handle("/ftp", http.RedirectHandler("ftp://example.org/a.torrent", http.StatusFound))
	mux.HandleFunc("/huge", func(w http.ResponseWriter, _ *http.Request) {
		chunk := bytes.Repeat([]byte("x"), 1<<20)
		for range 50 {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	})
	mux.HandleFunc("/huge-declared", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Length", "52428800")
	})
	mux.HandleFunc("/gone", http.NotFound)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	f := New(Options{})

	cases := map[string]string{
		srv.URL + "/loop":                  "too many redirects",
		srv.URL + "/four":                  "too many redirects",
		srv.URL + "/metadata":              "link-local",
		srv.URL + "/metadata6":             "link-local",
		"http://169.254.169.254/":          "link-local",
		"http://[::ffff:169.254.169.254]/": "link-local",
		srv.URL + "/file":                  "not http(s)",
		srv.URL + "/ftp":                   "not http(s)",
		srv.URL + "/huge":                  "larger than 5 MiB",
		srv.URL + "/huge-declared":         "larger than 5 MiB",
		srv.URL + "/gone":                  "answered 404",
		"file:///etc/passwd":               "only http(s)",
		"ftp://example.org/x":              "only http(s)",
		"http://":                          "only http(s)",
	}
	for link, want := range cases {
		_, _, err := f.Fetch(context.Background(), link)
		assert.Contains(t, reasonOf(t, err), want, link)
	}
}

func TestAServerThatNeverAnswersTimesOut(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(func() { close(release); srv.Close() })
	f := New(Options{Timeout: 500 * time.Millisecond})
	start := time.Now()
	_, _, err := f.Fetch(context.Background(), srv.URL)
	assert.Contains(t, reasonOf(t, err), "did not answer within 500ms")
	assert.Less(t, time.Since(start), 2*time.Second)
}

func TestForbiddenAddresses(t *testing.T) {
	for addr, forbidden := range map[string]bool{
		"169.254.169.254": true, "169.254.0.1": true, "fe80::1": true, "::ffff:169.254.1.1": true,
		"febf::1": true, "0.0.0.0": true, "::": true, "224.0.0.1": true,
		"127.0.0.1": false, "::1": false, "10.0.0.5": false, "192.168.1.20": false, "172.16.0.1": false,
		"8.8.8.8": false, "fec0::1": false, "fd00::1": false,
	} {
		assert.Equal(t, forbidden, Forbidden(netip.MustParseAddr(addr)), addr)
	}
	assert.True(t, strings.HasPrefix(mib(DefaultMaxBytes), "5 MiB"))
}
