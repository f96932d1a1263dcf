package app

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeGoogle speaks the OAuth 2.0 authorization, token and OpenID userinfo
// endpoints the way Google does, for the codes the test hands out.
type fakeGoogle struct {
	*httptest.Server
	mu       sync.Mutex
	profiles map[string]map[string]any // code → userinfo
	tokens   map[string]string         // access token → code
	chosen   string                    // the code the consent screen hands out next
}

func newFakeGoogle(t *testing.T) *fakeGoogle {
	f := &fakeGoogle{profiles: map[string]map[string]any{}, tokens: map[string]string{}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /token", func(w http.ResponseWriter, r *http.Request) {
		require.NoError(t, r.ParseForm())
		id, secret, ok := r.BasicAuth()
		if !ok {
			id, secret = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
		}
		code := r.PostForm.Get("code")
		f.mu.Lock()
		_, known := f.profiles[code]
		f.mu.Unlock()
		if id != "client-1" || secret != "google-client-secret-xyz" || r.PostForm.Get("grant_type") != "authorization_code" || !known {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"error": "invalid_grant", "error_description": "Bad Request"}`))
			return
		}
		f.mu.Lock()
		f.tokens["at-"+code] = code
		f.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"access_token": "at-" + code, "token_type": "Bearer", "expires_in": 3599, "scope": "openid email profile"})
	})
	// The consent screen, already answered: the person picked the account
	// of f.chosen, so Google redirects back with its code and the state.
	mux.HandleFunc("GET /auth", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		f.mu.Lock()
		code := f.chosen
		f.mu.Unlock()
		if q.Get("client_id") != "client-1" || q.Get("response_type") != "code" || code == "" {
			http.Error(w, "invalid_request", http.StatusBadRequest)
			return
		}
		back := q.Get("redirect_uri") + "?" + url.Values{"code": {code}, "state": {q.Get("state")}}.Encode()
		http.Redirect(w, r, back, http.StatusFound)
	})
	mux.HandleFunc("GET /userinfo", func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		code, ok := f.tokens[strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")]
		profile := f.profiles[code]
		f.mu.Unlock()
		if !ok {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(profile)
	})
	f.Server = httptest.NewServer(mux)
	t.Cleanup(f.Close)
	return f
}

func (f *fakeGoogle) issue(code, email string, verified bool) {
	f.issueWithPicture(code, email, verified, "https://pics/a.png")
}

// choose issues code for email and makes it the account the person picks
// at the next consent screen.
func (f *fakeGoogle) choose(code, email string) {
	f.issue(code, email, true)
	f.mu.Lock()
	defer f.mu.Unlock()
	f.chosen = code
}

func (f *fakeGoogle) issueWithPicture(code, email string, verified bool, picture string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.profiles[code] = map[string]any{"sub": "1" + code, "email": email, "email_verified": verified, "name": "Anna K", "picture": picture}
}

func newOAuthApp(t *testing.T) (*testApp, *fakeGoogle) {
	return newOAuthAppAt(t, "http://localhost:3000/api/auth/google/callback")
}

// newOAuthAppAt is newOAuthApp with Google redirecting back to redirect.
func newOAuthAppAt(t *testing.T, redirect string) (*testApp, *fakeGoogle) {
	f := newFakeGoogle(t)
	ta := newTestApp(t, map[string]string{
		"MEDIATEKA_GOOGLE_OAUTH__CLIENT_ID":      "client-1",
		"MEDIATEKA_GOOGLE_OAUTH__CLIENT_SECRET":  "google-client-secret-xyz",
		"MEDIATEKA_GOOGLE_OAUTH__REDIRECT_URI":   redirect,
		"MEDIATEKA_GOOGLE_OAUTH__AUTH_URL":       f.URL + "/auth",
		"MEDIATEKA_GOOGLE_OAUTH__TOKEN_URL":      f.URL + "/token",
		"MEDIATEKA_GOOGLE_OAUTH__USERINFO_URL":   f.URL + "/userinfo",
		"MEDIATEKA_GOOGLE_OAUTH__ALLOWED_EMAILS": "anna@example.org",
	})
	return ta, f
}

// begin starts a sign-in and returns the state and the cookie.
func begin(t *testing.T, ta *testApp, fakeURL string) (string, *http.Cookie) {
	resp, err := ta.HTTP().App().Test(httpGet("/api/auth/google"))
	require.NoError(t, err)
	require.Equal(t, 302, resp.StatusCode)
	loc, err := url.Parse(resp.Header.Get("Location"))
	require.NoError(t, err)
	assert.Equal(t, fakeURL+"/auth", loc.Scheme+"://"+loc.Host+loc.Path)
	assert.Equal(t, "client-1", loc.Query().Get("client_id"))
	assert.True(t, strings.HasSuffix(loc.Query().Get("redirect_uri"), "/api/auth/google/callback"))
	assert.Contains(t, loc.Query().Get("scope"), "email")
	var cookie *http.Cookie
	for _, c := range resp.Cookies() {
		if c.Name == "mediateka_oauth_state" {
			cookie = c
		}
	}
	require.NotNil(t, cookie)
	assert.True(t, cookie.HttpOnly)
	assert.Equal(t, loc.Query().Get("state"), cookie.Value)
	return cookie.Value, cookie
}

func callback(t *testing.T, ta *testApp, code, state string, cookie *http.Cookie) (*http.Response, map[string]any) {
	req := httpGet("/api/auth/google/callback?code=" + url.QueryEscape(code) + "&state=" + url.QueryEscape(state))
	if cookie != nil {
		req.AddCookie(cookie)
	}
	resp, err := ta.HTTP().App().Test(req)
	require.NoError(t, err)
	var body map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&body)
	return resp, body
}

func TestGoogleSignInEndToEnd(t *testing.T) {
	t.Parallel()
	ta, f := newOAuthApp(t)
	f.issue("code-anna", "anna@example.org", true)
	state, cookie := begin(t, ta, f.URL)

	resp, _ := callback(t, ta, "code-anna", state, cookie)
	require.Equal(t, 302, resp.StatusCode)
	once, bound := oneTimeCode(t, resp), codeCookie(t, resp)
	r, login := exchange(t, ta, once, bound)
	require.Equal(t, 200, r.StatusCode, "%v", login)
	assert.Equal(t, "bearer", login["token_type"])
	assert.Equal(t, "anna@example.org", login["user"].(map[string]any)["email"])
	token := login["access_token"].(string)
	r, me := ta.do(t, "GET", "/api/auth/me", token, nil)
	require.Equal(t, 200, r.StatusCode)
	assert.Equal(t, "anna@example.org", me["email"])
	assert.Equal(t, "Anna K", me["name"])
	assert.Equal(t, "https://pics/a.png", me["picture"])
	assert.Equal(t, "user", me["role"], "a Google account never becomes admin by itself")

	resp, body := callback(t, ta, "code-anna", state, cookie)
	assert.Equal(t, 400, resp.StatusCode, "a state works once")
	assert.Equal(t, "invalid_state", errCode(body))

	r, body = exchange(t, ta, once, bound)
	assert.Equal(t, 400, r.StatusCode, "a one-time code works once")
	assert.Equal(t, "invalid_code", errCode(body))
	for _, bad := range []any{map[string]string{"code": "made-up"}, map[string]string{}, `{"code": 5}`} {
		r, body = ta.do(t, "POST", "/api/auth/exchange", "", bad)
		assert.Equal(t, 400, r.StatusCode, "%v", bad)
		assert.NotEmpty(t, errCode(body))
	}
}

// codeCookie is the cookie the callback binds its one-time code to: sent
// back only to the exchange, never readable by scripts, gone with the code.
func codeCookie(t *testing.T, resp *http.Response) *http.Cookie {
	t.Helper()
	for _, c := range resp.Cookies() {
		if c.Name == "mediateka_oauth_code" {
			assert.True(t, c.HttpOnly)
			assert.Equal(t, http.SameSiteStrictMode, c.SameSite)
			assert.Equal(t, "/api/auth/exchange", c.Path)
			assert.Equal(t, 60, c.MaxAge)
			assert.Len(t, c.Value, 48)
			return c
		}
	}
	require.Fail(t, "the callback sets no code cookie")
	return nil
}

// exchange posts a one-time code with the cookie a browser would send
// (none when cookie is nil).
func exchange(t *testing.T, ta *testApp, once string, cookie *http.Cookie) (*http.Response, map[string]any) {
	t.Helper()
	req, err := http.NewRequest("POST", "/api/auth/exchange", strings.NewReader(`{"code": "`+once+`"}`))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	if cookie != nil {
		req.AddCookie(cookie)
	}
	resp, err := ta.HTTP().App().Test(req, 10_000)
	require.NoError(t, err)
	var body map[string]any
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&body))
	return resp, body
}

// oneTimeCode reads the code of the redirect to /#code=; the URL never
// carries a token.
func oneTimeCode(t *testing.T, resp *http.Response) string {
	t.Helper()
	loc := resp.Header.Get("Location")
	require.True(t, strings.HasPrefix(loc, "/#code="), loc)
	assert.NotContains(t, loc, "token")
	once, err := url.QueryUnescape(strings.TrimPrefix(loc, "/#code="))
	require.NoError(t, err)
	require.Len(t, once, 48)
	return once
}

func TestGoogleDropsAPictureThatIsNotHTTPS(t *testing.T) {
	ta, f := newOAuthApp(t)
	f.issueWithPicture("code-js", "anna@example.org", true, "javascript:alert(document.cookie)")
	state, cookie := begin(t, ta, f.URL)
	resp, _ := callback(t, ta, "code-js", state, cookie)
	require.Equal(t, 302, resp.StatusCode)
	_, login := exchange(t, ta, oneTimeCode(t, resp), codeCookie(t, resp))
	_, me := ta.do(t, "GET", "/api/auth/me", login["access_token"].(string), nil)
	assert.Equal(t, "anna@example.org", me["email"])
	assert.Equal(t, "", me["picture"])

	f.issueWithPicture("code-http", "anna@example.org", true, "http://pics/b.png")
	state, cookie = begin(t, ta, f.URL)
	resp, _ = callback(t, ta, "code-http", state, cookie)
	_, login = exchange(t, ta, oneTimeCode(t, resp), codeCookie(t, resp))
	_, me = ta.do(t, "GET", "/api/auth/me", login["access_token"].(string), nil)
	assert.Equal(t, "", me["picture"], "plain http is dropped too")
}

func TestGoogleSignInRefusals(t *testing.T) {
	t.Parallel()
	ta, f := newOAuthApp(t)
	f.issue("code-unverified", "anna@example.org", false)
	f.issue("code-stranger", "stranger@example.org", true)
	f.issue("code-admin", "admin@localhost", true)

	state, cookie := begin(t, ta, f.URL)
	resp, body := callback(t, ta, "code-unverified", state, cookie)
	assert.Equal(t, 403, resp.StatusCode)
	assert.Equal(t, "email_not_verified", errCode(body))

	state, cookie = begin(t, ta, f.URL)
	resp, body = callback(t, ta, "code-stranger", state, cookie)
	assert.Equal(t, 403, resp.StatusCode)
	assert.Equal(t, "not_allowed", errCode(body), "unknown e-mails outside allowed_emails get no account")

	state, _ = begin(t, ta, f.URL)
	resp, body = callback(t, ta, "code-admin", state, nil)
	assert.Equal(t, 400, resp.StatusCode, "a state without its cookie is refused")
	assert.Equal(t, "invalid_state", errCode(body))

	state, cookie = begin(t, ta, f.URL)
	resp, body = callback(t, ta, "code-nobody-issued", state, cookie)
	assert.Equal(t, 503, resp.StatusCode)
	assert.Equal(t, "oauth_failed", errCode(body))

	state, cookie = begin(t, ta, f.URL)
	resp, _ = callback(t, ta, "code-admin", state, cookie)
	assert.Equal(t, 302, resp.StatusCode, "an existing user signs in though not in allowed_emails")
}

func TestGoogleSignInNotConfigured(t *testing.T) {
	t.Parallel()
	ta := newTestApp(t, nil)
	resp, body := ta.do(t, "GET", "/api/auth/google", "", nil)
	assert.Equal(t, 404, resp.StatusCode)
	assert.Equal(t, "oauth_disabled", errCode(body))
	resp, body = ta.do(t, "GET", "/api/auth/providers", "", nil)
	assert.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, map[string]any{"password": true, "google": false}, body)
	resp, body = ta.do(t, "POST", "/api/auth/exchange", "", map[string]string{"code": "x"})
	assert.Equal(t, 404, resp.StatusCode)
	assert.Equal(t, "oauth_disabled", errCode(body))

	configured, _ := newOAuthApp(t)
	_, body = configured.do(t, "GET", "/api/auth/providers", "", nil)
	assert.Equal(t, true, body["google"])
}
