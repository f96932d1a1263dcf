package app

import (
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// pageGet sends a request through the app's in-memory transport and returns
// the answer with its body.
func pageGet(t *testing.T, ta *testApp, method, path string, header map[string]string) (*http.Response, string) {
	t.Helper()
	req := httptest.NewRequest(method, path, nil)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := ta.HTTP().App().Test(req)
	require.NoError(t, err)
	raw, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp, string(raw)
}

// The player and the remote are pages of the binary with no inline code:
// their policy is default-src 'self' with blob: images (thumbnails), and
// nothing in them needs an exception (no inline script or style, no
// handler or style attributes).
func TestPlayerAndRemotePagesAndTheirPolicy(t *testing.T) {
	ta := newTestApp(t, nil)
	for _, path := range []string{"/player", "/remote", "/tgmini"} {
		resp, page := pageGet(t, ta, "GET", path, nil)
		require.Equal(t, 200, resp.StatusCode, path)
		assert.Equal(t, "text/html; charset=utf-8", resp.Header.Get("Content-Type"))
		csp := directives(resp.Header.Get("Content-Security-Policy"))
		assert.Equal(t, "'self'", csp["default-src"], path)
		assert.Equal(t, "'self'", csp["script-src"], "%s runs only its own files", path)
		assert.Equal(t, "'self'", csp["style-src"], path)
		assert.Contains(t, strings.Fields(csp["img-src"]), "blob:", "thumbnails are blob: URLs")
		if path == "/tgmini" {
			assert.Equal(t, "'self' https://web.telegram.org https://*.web.telegram.org", csp["frame-ancestors"],
				"Telegram's web client frames the Mini App")
		} else {
			assert.Equal(t, "'self'", csp["frame-ancestors"], path)
		}
		assert.NotRegexp(t, `<script(\s[^>]*)?>[^<]`, page, "no inline script")
		assert.NotContains(t, page, "<style", "no inline style")
		assert.NotRegexp(t, `\s(on\w+|style)=`, page, "no handler or style attributes")
	}
}

// Every file a page loads, and every module those modules import, is
// served from the binary with its type, an ETag the browser revalidates
// (304 when unchanged) and no-cache; anything else under /assets/ is 404
// with the error body.
func TestAssetsOfThePages(t *testing.T) {
	ta := newTestApp(t, nil)
	importRe := regexp.MustCompile(`(?m)^import [^'"]*['"]\./([\w.-]+)['"];`)
	refRe := regexp.MustCompile(`(?:src|href)="/assets/([\w.-]+)"`)
	var todo []string
	for _, page := range []string{"/player", "/remote", "/tgmini"} {
		_, body := pageGet(t, ta, "GET", page, nil)
		for _, m := range refRe.FindAllStringSubmatch(body, -1) {
			todo = append(todo, m[1])
		}
	}
	seen := map[string]bool{}
	for len(todo) > 0 {
		name := todo[0]
		todo = todo[1:]
		if seen[name] {
			continue
		}
		seen[name] = true
		resp, body := pageGet(t, ta, "GET", "/assets/"+name, nil)
		require.Equal(t, 200, resp.StatusCode, name)
		want := map[string]string{".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8"}[name[strings.LastIndex(name, "."):]]
		assert.Equal(t, want, resp.Header.Get("Content-Type"), name)
		assert.Equal(t, "no-cache", resp.Header.Get("Cache-Control"), name)
		etag := resp.Header.Get("ETag")
		require.Regexp(t, `^"[\w-]+"$`, etag, name)
		again, empty := pageGet(t, ta, "GET", "/assets/"+name, map[string]string{"If-None-Match": "W/" + etag})
		assert.Equal(t, 304, again.StatusCode, name)
		assert.Empty(t, empty)
		for _, m := range importRe.FindAllStringSubmatch(body, -1) {
			todo = append(todo, m[1])
		}
	}
	assert.Subset(t, mapKeys(seen), []string{"app.css", "player.js", "remote.js", "api.js", "i18n.js", "room.js", "library.js"})

	changed, _ := pageGet(t, ta, "GET", "/assets/api.js", map[string]string{"If-None-Match": `"old"`})
	assert.Equal(t, 200, changed.StatusCode, "another tag gets the file")
	head, body := pageGet(t, ta, "HEAD", "/assets/api.js", nil)
	assert.Equal(t, 200, head.StatusCode)
	assert.Empty(t, body)
	for _, path := range []string{"/assets/nope.js", "/assets/", "/assets/../home.html", "/assets/%2e%2e/web.go", "/assets/app.css/x"} {
		resp, body := pageGet(t, ta, "GET", path, nil)
		assert.Equal(t, 404, resp.StatusCode, path)
		assert.Contains(t, body, `"code":"not_found"`, path)
	}
}

// homePageCode is the built-in home page with the text of the module it
// runs appended: what the page does is in both.
func homePageCode(t *testing.T, ta *testApp) string {
	t.Helper()
	resp, page := pageGet(t, ta, "GET", "/", nil)
	require.Equal(t, 200, resp.StatusCode)
	m := regexp.MustCompile(`<script type="module" src="(/assets/[\w.-]+)"></script>`).FindStringSubmatch(page)
	require.NotNil(t, m, "the home page runs a module")
	resp, code := pageGet(t, ta, "GET", m[1], nil)
	require.Equal(t, 200, resp.StatusCode, m[1])
	return page + "\n" + code
}

// directives splits a Content-Security-Policy into its directives.
func directives(csp string) map[string]string {
	out := map[string]string{}
	for _, d := range strings.Split(csp, ";") {
		name, value, _ := strings.Cut(strings.TrimSpace(d), " ")
		out[name] = value
	}
	return out
}

func mapKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
