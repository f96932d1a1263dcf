package app

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPasswordChangeRevokesEveryOlderToken(t *testing.T) {
	ta := newTestApp(t, nil)
	first := ta.initialPassword(t)
	phone := ta.login(t, "admin@localhost", first)
	laptop := ta.login(t, "Admin@LOCALHOST", first)

	resp, body := ta.do(t, "POST", "/api/auth/password", laptop, map[string]string{"current_password": "wrong-one", "new_password": "a-brand-new-password"})
	assert.Equal(t, 403, resp.StatusCode)
	assert.Equal(t, "wrong_password", errCode(body))
	resp, body = ta.do(t, "POST", "/api/auth/password", laptop, map[string]string{"current_password": first, "new_password": "short"})
	assert.Equal(t, 400, resp.StatusCode)
	assert.Equal(t, "invalid_input", errCode(body))
	assert.Contains(t, body["error"].(map[string]any)["fields"], "new_password")
	resp, _ = ta.do(t, "POST", "/api/auth/password", "", map[string]string{"current_password": first, "new_password": "a-brand-new-password"})
	assert.Equal(t, 401, resp.StatusCode)

	resp, _ = ta.do(t, "POST", "/api/auth/password", laptop, map[string]string{"current_password": first, "new_password": "a-brand-new-password"})
	require.Equal(t, 204, resp.StatusCode)
	for _, old := range []string{phone, laptop} {
		resp, body = ta.do(t, "GET", "/api/auth/me", old, nil)
		assert.Equal(t, 401, resp.StatusCode, "tokens from before the change stop at once")
		assert.Equal(t, "unauthorized", errCode(body))
	}
	resp, _ = ta.do(t, "POST", "/api/auth/login", "", map[string]string{"email": "admin@localhost", "password": first})
	assert.Equal(t, 401, resp.StatusCode)
	fresh := ta.login(t, "admin@localhost", "a-brand-new-password")
	resp, _ = ta.do(t, "GET", "/api/auth/me", fresh, nil)
	assert.Equal(t, 200, resp.StatusCode)
}

// loginFrom sends a wrong login whose X-Forwarded-For names addr.
func loginFrom(t *testing.T, ta *testApp, addr, email string) int {
	t.Helper()
	req := httptest.NewRequest("POST", "/api/auth/login", strings.NewReader(`{"email":"`+email+`","password":"wrong-password"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Forwarded-For", addr)
	resp, err := ta.HTTP().App().Test(req, 10_000)
	require.NoError(t, err)
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode
}

// Fiber's in-memory transport gives every request the peer 0.0.0.0: here
// that is the reverse proxy.
func TestLoginThrottleFollowsTheClientBehindATrustedProxy(t *testing.T) {
	behind := newTestApp(t, map[string]string{"MEDIATEKA_TRUSTED_PROXIES": "0.0.0.0/32"})
	for i := range 10 {
		require.Equal(t, http.StatusUnauthorized, loginFrom(t, behind, "198.51.100.7", fmt.Sprintf("u%d@example.org", i)))
	}
	assert.Equal(t, http.StatusTooManyRequests, loginFrom(t, behind, "198.51.100.7", "other@example.org"))
	assert.Equal(t, http.StatusUnauthorized, loginFrom(t, behind, "203.0.113.9", "other@example.org"),
		"another client behind the same proxy is not locked out")
	assert.Equal(t, http.StatusTooManyRequests, loginFrom(t, behind, "203.0.113.9, 198.51.100.7", "x@example.org"),
		"a forged left-most hop does not help")

	direct := newTestApp(t, nil)
	for i := range 10 {
		require.Equal(t, http.StatusUnauthorized, loginFrom(t, direct, "198.51.100.7", fmt.Sprintf("u%d@example.org", i)))
	}
	assert.Equal(t, http.StatusTooManyRequests, loginFrom(t, direct, "203.0.113.9", "other@example.org"),
		"without trusted_proxies the header is ignored: the peer is the client")
}

func TestLoginThrottleCountsPerEmailToo(t *testing.T) {
	ta := newTestApp(t, map[string]string{"MEDIATEKA_TRUSTED_PROXIES": "0.0.0.0/32"})
	for i := range 10 {
		require.Equal(t, http.StatusUnauthorized, loginFrom(t, ta, fmt.Sprintf("198.51.100.%d", i+1), "Admin@localhost"))
	}
	assert.Equal(t, http.StatusTooManyRequests, loginFrom(t, ta, "198.51.100.200", "admin@LOCALHOST"),
		"guesses spread over addresses still count against the e-mail, in any case")
}

func TestHomePageCompletesSignInOnlyThroughTheAPI(t *testing.T) {
	ta := newTestApp(t, nil)
	resp, err := ta.HTTP().App().Test(httptest.NewRequest("GET", "/", nil))
	require.NoError(t, err)
	require.Equal(t, 200, resp.StatusCode)
	raw, _ := io.ReadAll(resp.Body)
	page := string(raw)
	assert.Contains(t, page, "[hidden] { display: none !important; }", "hidden wins over form { display: grid }")
	code := homePageCode(t, ta)
	assert.Contains(t, code, "/api/auth/exchange")
	assert.Contains(t, code, "/api/auth/providers")
	assert.NotContains(t, code, "token=", "the page never reads a token from its address")
	links := regexp.MustCompile(`href="(/[^"]*)"`).FindAllStringSubmatch(page, -1)
	require.NotEmpty(t, links)
	for _, l := range links {
		resp, err := ta.HTTP().App().Test(httptest.NewRequest("GET", l[1], nil))
		require.NoError(t, err)
		ok := resp.StatusCode == 200 || l[1] == "/api/auth/google" && resp.StatusCode == 404 // Google is not configured here
		assert.True(t, ok, "links only to pages that exist: %s is %d", l[1], resp.StatusCode)
	}
	assert.Contains(t, page, `href="/player"`)
	assert.Contains(t, page, `href="/remote"`)
	assert.Contains(t, page, `id="google" href="/api/auth/google" hidden`, "Google shows only once providers says so")
}

// A password set from the command line (its own connection to the file,
// as another process) stops the older tokens at the very next request,
// though the server keeps the accounts of requests in memory.
func TestPasswordSetFromTheCommandLineRevokesTokensAtOnce(t *testing.T) {
	ta := newTestApp(t, nil)
	token := ta.login(t, "admin@localhost", ta.initialPassword(t))
	for range 3 {
		resp, _ := ta.do(t, "GET", "/api/auth/me", token, nil)
		require.Equal(t, 200, resp.StatusCode)
	}
	_, err := SetPassword(context.Background(), ta.cfg, "admin@localhost", "set-from-the-shell")
	require.NoError(t, err)
	resp, body := ta.do(t, "GET", "/api/auth/me", token, nil)
	assert.Equal(t, 401, resp.StatusCode)
	assert.Equal(t, "unauthorized", errCode(body))
	fresh := ta.login(t, "admin@localhost", "set-from-the-shell")
	resp, _ = ta.do(t, "GET", "/api/auth/me", fresh, nil)
	assert.Equal(t, 200, resp.StatusCode)
}
