package app

import (
	"crypto/sha256"
	"encoding/base64"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSecurityHeadersOnEveryResponse(t *testing.T) {
	ta := newTestApp(t, nil)
	for _, path := range []string{"/healthz", "/", "/no/such/page", "/api/media/files"} {
		resp, err := ta.HTTP().App().Test(httpGet(path))
		require.NoError(t, err)
		assert.Equal(t, "nosniff", resp.Header.Get("X-Content-Type-Options"), path)
		assert.Equal(t, "same-origin", resp.Header.Get("Referrer-Policy"), path)
	}
}

// TestHomePageRunsUnderItsPolicy checks what a browser enforces: under
// default-src 'self' an inline script or style runs only when the policy
// lists its hash, and the page may not be framed by other sites.
func TestHomePageRunsUnderItsPolicy(t *testing.T) {
	ta := newTestApp(t, nil)
	resp, err := ta.HTTP().App().Test(httpGet("/"))
	require.NoError(t, err)
	page, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	csp := resp.Header.Get("Content-Security-Policy")
	directives := map[string]string{}
	for _, d := range strings.Split(csp, ";") {
		name, value, _ := strings.Cut(strings.TrimSpace(d), " ")
		directives[name] = value
	}
	assert.Equal(t, "'self'", directives["default-src"])
	assert.Equal(t, "'self'", directives["frame-ancestors"])
	inline := regexp.MustCompile(`(?s)<(script|style)>(.*?)</(?:script|style)>`).FindAllSubmatch(page, -1)
	require.NotEmpty(t, inline, "the built-in page has inline blocks; if it stops having them this test needs a page that has")
	for _, m := range inline {
		sum := sha256.Sum256(m[2])
		hash := "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
		assert.Contains(t, strings.Fields(directives[string(m[1])+"-src"]), hash, "inline %s allowed by its hash", m[1])
	}
	assert.NotContains(t, csp, "unsafe-inline")
}

// TestEachPageListsOnlyTheImagesItShows: the home page shows profile
// pictures of the sign-in provider; the other pages show only thumbnails
// they fetched themselves (blob: URLs), so an image address from
// elsewhere, even one a peer in a room sent, is never loaded. Pages that
// play (films, speech) admit blob: media; only the Mini App may be framed
// by Telegram's web client.
func TestEachPageListsOnlyTheImagesItShows(t *testing.T) {
	ta := newTestApp(t, nil)
	const telegram = "'self' https://web.telegram.org https://*.web.telegram.org"
	for path, want := range map[string]struct{ img, media, frame string }{
		"/":       {"'self' https: data: blob:", "", "'self'"},
		"/player": {"'self' blob:", "'self' blob:", "'self'"},
		"/remote": {"'self' blob:", "'self' blob:", "'self'"},
		"/admin":  {"'self' blob:", "'self' blob:", "'self'"},
		"/tgmini": {"'self' blob:", "", telegram},
	} {
		resp, err := ta.HTTP().App().Test(httpGet(path))
		require.NoError(t, err)
		require.Equal(t, 200, resp.StatusCode, path)
		got := map[string]string{}
		for _, d := range strings.Split(resp.Header.Get("Content-Security-Policy"), ";") {
			name, value, _ := strings.Cut(strings.TrimSpace(d), " ")
			_, twice := got[name]
			require.False(t, twice, "%s: %s given once", path, name)
			got[name] = value
		}
		assert.Equal(t, want.img, got["img-src"], path)
		assert.Equal(t, want.media, got["media-src"], path)
		assert.Equal(t, want.frame, got["frame-ancestors"], path)
	}
}
