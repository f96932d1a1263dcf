package app

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/repository/exectest"
)

// newBrowser starts headless Chromium (no sandbox: the tests may run as
// root). Close it before the servers stop, so its kept-alive connections do
// not hold their shutdown.
func newBrowser(t *testing.T) (context.Context, func()) {
	t.Helper()
	chromium := exectest.Require(t, "chromium", "chromium")[0]
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium), chromedp.NoSandbox, chromedp.Headless)...)
	ctx, cancel := chromedp.NewContext(alloc)
	ctx, cancelTimeout := context.WithTimeout(ctx, 3*time.Minute)
	return ctx, func() { cancelTimeout(); cancel(); cancelAlloc() }
}

// serve runs ta on a real listener until the test ends and returns its
// base URL.
func serve(t *testing.T, ta *testApp) string {
	t.Helper()
	addr, stop := runOnLoopback(t, ta)
	t.Cleanup(func() { _ = stop() })
	return "http://" + addr
}

// until waits for a JavaScript condition on the page, across a page load
// in progress (whose script context may vanish under a running poll).
func until(t *testing.T, ctx context.Context, what, expr string) {
	t.Helper()
	var err error
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
		if _, err = chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(2*time.Second))); err == nil {
			return
		}
	}
	require.NoError(t, err, what)
}

func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	require.NoError(t, err, expr)
	return v
}

// visibleLinks lists the home page's shown links to other pages.
const visibleLinks = `[...document.querySelectorAll('#links a[href^="/"]')].filter(a => a.offsetParent).map(a => a.getAttribute('href')).join(' ')`

// The page in a real browser: a link carrying a token signs nobody in, the
// form hides after sign-in, Google shows only when configured, a Google
// sign-in completes through the API in the browser that started it, and a
// link carrying someone else's one-time code signs nobody in. The server is
// "localhost" and the fake Google 127.0.0.1, so the redirect back from
// Google is cross-site as in production and the cookies' SameSite counts.
func TestHomePageInABrowser(t *testing.T) {
	t.Parallel()
	browser, closeBrowser := newBrowser(t)
	defer closeBrowser()
	ta, f, base := serveOAuth(t, "localhost")
	attackerToken := ta.login(t, "admin@localhost", ta.initialPassword(t))

	require.NoError(t, chromedp.Do(browser, chromedp.Navigate(base+"/#token="+attackerToken)))
	until(t, browser, "the sign-in form shows", `!document.getElementById('login').hidden && getComputedStyle(document.getElementById('login')).display !== 'none'`)
	until(t, browser, "Google is configured", `!document.getElementById('google').hidden`)
	assert.Empty(t, eval[string](t, browser, `localStorage.getItem('mediateka_token') || ''`), "a token from a link is never stored")
	assert.Equal(t, "", eval[string](t, browser, `document.getElementById('who').textContent`))
	assert.True(t, eval[bool](t, browser, `document.getElementById('links').hidden`), "the pages are offered once signed in")

	require.NoError(t, chromedp.Do(browser,
		chromedp.SetValue(chromedp.CSS("#email"), "admin@localhost"),
		chromedp.SetValue(chromedp.CSS("#password"), ta.initialPassword(t)),
		chromedp.Click(chromedp.CSS("#login button"))))
	until(t, browser, "signed in", `document.getElementById('who').textContent.includes('(admin)')`)
	assert.Equal(t, "none", eval[string](t, browser, `getComputedStyle(document.getElementById('login')).display`),
		"the form is hidden after sign-in, whatever the CSS of form")
	assert.Equal(t, "/player /remote /admin", eval[string](t, browser, visibleLinks),
		"the player, the remote and, for an administrator, the panel are linked (and no page this build lacks)")

	// Signed out, the panel sends the person to sign in and back to it.
	require.NoError(t, chromedp.Do(browser, chromedp.Click(chromedp.CSS("#logout"))))
	require.NoError(t, chromedp.Do(browser, chromedp.Navigate(base+"/admin")))
	until(t, browser, "the panel sends to sign-in", `location.pathname === '/' && !document.getElementById('login').hidden`)
	assert.Equal(t, "?next=%2Fadmin", eval[string](t, browser, `location.search`))
	require.NoError(t, chromedp.Do(browser,
		chromedp.SetValue(chromedp.CSS("#email"), "admin@localhost"),
		chromedp.SetValue(chromedp.CSS("#password"), ta.initialPassword(t)),
		chromedp.Click(chromedp.CSS("#login button"))))
	until(t, browser, "back on the panel, signed in", `location.pathname === '/admin' && !document.getElementById('tabs').hidden`)
	require.NoError(t, chromedp.Do(browser, chromedp.Navigate(base+"/")))
	until(t, browser, "still signed in", `document.getElementById('who').textContent.includes('(admin)')`)

	f.choose("code-attacker", "admin@localhost")
	planted := signInWithGoogle(t, newBrowserClient(t), base)
	require.NoError(t, chromedp.Do(browser, chromedp.Click(chromedp.CSS("#logout"))))
	until(t, browser, "signed out", `!document.getElementById('login').hidden`)
	require.NoError(t, chromedp.Do(browser, chromedp.Navigate("about:blank"), chromedp.Navigate(base+"/#code="+planted)))
	until(t, browser, "the planted code is refused", `document.getElementById('err').textContent !== ''`)
	assert.Equal(t, "", eval[string](t, browser, `document.getElementById('who').textContent`))
	assert.Empty(t, eval[string](t, browser, `localStorage.getItem('mediateka_token') || ''`), "someone else's code signs nobody in")

	f.choose("code-anna", "anna@example.org")
	require.NoError(t, chromedp.Do(browser, chromedp.Click(chromedp.CSS("#google"))))
	until(t, browser, "the Google sign-in signs Anna in", `document.getElementById('who').textContent.includes('Anna K')`)
	assert.Equal(t, base+"/", eval[string](t, browser, `location.href`), "the code is removed from the address bar")
	stored := eval[string](t, browser, `localStorage.getItem('mediateka_token')`)
	r, me := ta.do(t, "GET", "/api/auth/me", stored, nil)
	require.Equal(t, 200, r.StatusCode)
	assert.Equal(t, "anna@example.org", me["email"])
	assert.Equal(t, "/player /remote", eval[string](t, browser, visibleLinks), "no panel link for a user")

	// Anna links her Telegram from here: the code the page shows is one the
	// bot accepts for her account.
	until(t, browser, "the Telegram section shows", `!document.getElementById('tg').hidden`)
	assert.Contains(t, eval[string](t, browser, `document.getElementById('tg-state').textContent`), "Not linked")
	require.NoError(t, chromedp.Do(browser, chromedp.Click(chromedp.CSS("#tg-link"))))
	until(t, browser, "a link code shows", `document.querySelector('#tg-code code') !== null`)
	shown := eval[string](t, browser, `document.querySelector('#tg-code code').textContent`)
	require.Regexp(t, `^/link [A-Z0-9]{10}$`, shown)
	screenshot(t, browser, t.TempDir(), "home-telegram-code")
	user, err := ta.uc.telegram.Redeem(context.Background(), strings.TrimPrefix(shown, "/link "), 424242)
	require.NoError(t, err, "the code shown is a live one")
	assert.Equal(t, "anna@example.org", user.Email)
	require.NoError(t, chromedp.Do(browser, chromedp.Reload()))
	until(t, browser, "the link shows", `document.getElementById('tg-state').textContent.includes('id 424242')`)

	noGoogle := newTestApp(t, nil)
	require.NoError(t, chromedp.Do(browser, chromedp.Navigate(serve(t, noGoogle)+"/")))
	until(t, browser, "the form shows", `!document.getElementById('login').hidden`)
	until(t, browser, "providers answered", `performance.getEntriesByType('resource').some(e => e.name.endsWith('/api/auth/providers'))`)
	assert.True(t, eval[bool](t, browser, `document.getElementById('google').hidden`), "no Google button without Google")
}
