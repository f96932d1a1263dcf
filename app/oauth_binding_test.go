package app

import (
	"encoding/json"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// serveOAuth runs a Google-configured app on a real listener, reached by
// the name host, whose redirect URI points back at itself as a
// deployment's does. It returns the app, its fake Google and its base URL.
func serveOAuth(t *testing.T, host string) (*testApp, *fakeGoogle, string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	_, port, err := net.SplitHostPort(ln.Addr().String())
	require.NoError(t, err)
	base := "http://" + net.JoinHostPort(host, port)
	ta, f := newOAuthAppAt(t, base+"/api/auth/google/callback")
	stop := runOn(t, ta, ln)
	t.Cleanup(func() { _ = stop() })
	return ta, f, base
}

// newBrowserClient is an HTTP client with its own cookie jar: one browser.
// It follows redirects up to the server's redirect to the home page and
// stops there, so the test sees the /#code= a browser would land on.
func newBrowserClient(t *testing.T) *http.Client {
	jar, err := cookiejar.New(nil)
	require.NoError(t, err)
	return &http.Client{Jar: jar, CheckRedirect: func(req *http.Request, _ []*http.Request) error {
		if req.URL.Path == "/" {
			return http.ErrUseLastResponse
		}
		return nil
	}}
}

// signInWithGoogle clicks "Sign in with Google" in browser and returns the
// one-time code of the redirect it lands on.
func signInWithGoogle(t *testing.T, browser *http.Client, base string) string {
	t.Helper()
	resp, err := browser.Get(base + "/api/auth/google")
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusFound, resp.StatusCode)
	return oneTimeCode(t, resp)
}

// exchangeIn is the home page's fetch of POST /api/auth/exchange in browser.
func exchangeIn(t *testing.T, browser *http.Client, base, once string) (int, map[string]any) {
	t.Helper()
	resp, err := browser.Post(base+"/api/auth/exchange", "application/json", strings.NewReader(`{"code": "`+once+`"}`))
	require.NoError(t, err)
	defer resp.Body.Close()
	var body map[string]any
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&body))
	return resp.StatusCode, body
}

func TestGoogleSignInCompletesInTheBrowserThatStartedIt(t *testing.T) {
	t.Parallel()
	ta, f, base := serveOAuth(t, "127.0.0.1")
	f.choose("code-anna", "anna@example.org")
	browser := newBrowserClient(t)

	once := signInWithGoogle(t, browser, base)
	status, login := exchangeIn(t, browser, base, once)
	require.Equal(t, http.StatusOK, status, "%v", login)
	assert.Equal(t, "anna@example.org", login["user"].(map[string]any)["email"])
	r, me := ta.do(t, "GET", "/api/auth/me", login["access_token"].(string), nil)
	require.Equal(t, http.StatusOK, r.StatusCode)
	assert.Equal(t, "anna@example.org", me["email"])

	exchangeURL, err := url.Parse(base + "/api/auth/exchange")
	require.NoError(t, err)
	assert.Empty(t, browser.Jar.Cookies(exchangeURL), "the exchange clears the code's cookie")
	status, body := exchangeIn(t, browser, base, once)
	assert.Equal(t, http.StatusBadRequest, status, "a code works once")
	assert.Equal(t, "invalid_code", errCode(body))
}

// An attacker signs in with their own Google account, stops at the
// redirect and sends the victim https://host/#code=<code>: the victim's
// browser must not be signed into the attacker's account.
func TestGoogleCodeFromSomeoneElsesSignInSignsNobodyIn(t *testing.T) {
	t.Parallel()
	_, f, base := serveOAuth(t, "127.0.0.1")
	attacker, victim := newBrowserClient(t), newBrowserClient(t)
	f.choose("code-attacker", "admin@localhost")
	planted := signInWithGoogle(t, attacker, base)

	status, body := exchangeIn(t, victim, base, planted)
	assert.Equal(t, http.StatusBadRequest, status, "a browser without the callback's cookie")
	assert.Equal(t, "invalid_code", errCode(body))
	assert.Nil(t, body["access_token"])
	status, body = exchangeIn(t, attacker, base, planted)
	assert.Equal(t, http.StatusBadRequest, status, "the code was burnt by the refused exchange")
	assert.Equal(t, "invalid_code", errCode(body))

	planted = signInWithGoogle(t, attacker, base)
	f.choose("code-anna", "anna@example.org")
	signInWithGoogle(t, victim, base) // the victim holds the cookie of a sign-in of its own
	status, body = exchangeIn(t, victim, base, planted)
	assert.Equal(t, http.StatusBadRequest, status, "another sign-in's cookie")
	assert.Equal(t, "invalid_code", errCode(body))
	assert.Nil(t, body["access_token"])

	status, login := exchangeIn(t, victim, base, signInWithGoogle(t, victim, base))
	require.Equal(t, http.StatusOK, status, "%v", login)
	assert.Equal(t, "anna@example.org", login["user"].(map[string]any)["email"])
}
