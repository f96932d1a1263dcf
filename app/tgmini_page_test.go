package app

import (
	"context"
	"fmt"
	"net/url"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Telegram's themeParams of its two schemes, as a stub hands them over.
const (
	tgDarkTheme  = `{"bg_color":"#17212b","secondary_bg_color":"#232e3c","section_bg_color":"#17212b","text_color":"#f5f5f5","hint_color":"#708499","link_color":"#6ab3f3","button_color":"#5288c1","button_text_color":"#ffffff","section_separator_color":"#111921","destructive_text_color":"#ec3942"}`
	tgLightTheme = `{"bg_color":"#ffffff","secondary_bg_color":"#f0f0f0","text_color":"#000000","hint_color":"#999999","link_color":"#2481cc","button_color":"#2481cc","button_text_color":"#ffffff"}`
)

// stubWebApp installs, before any page script runs, a window.Telegram.WebApp
// like Telegram's for initData: it records ready/expand, the BackButton and
// the event handlers, and has safe-area insets (a notch and a home bar).
// The scheme is read from localStorage (tg_test_scheme) so a test can
// switch it with a reload.
func stubWebApp(t *testing.T, ctx context.Context, initData string) {
	t.Helper()
	script := fmt.Sprintf(`(() => {
		const dark = localStorage.getItem('tg_test_scheme') === 'dark';
		window.Telegram = { WebApp: {
			initData: %q, initDataUnsafe: { user: { id: 1, language_code: 'en' } },
			colorScheme: dark ? 'dark' : 'light', themeParams: dark ? %s : %s,
			safeAreaInset: { top: 20, bottom: 34, left: 0, right: 0 }, contentSafeAreaInset: { top: 0, bottom: 0, left: 0, right: 0 },
			handlers: {}, onEvent(name, f) { (this.handlers[name] = this.handlers[name] || []).push(f); },
			calls: [], ready() { this.calls.push('ready'); }, expand() { this.calls.push('expand'); },
			BackButton: { isVisible: false, handlers: [], show() { this.isVisible = true; }, hide() { this.isVisible = false; },
				onClick(f) { this.handlers.push(f); }, offClick(f) { this.handlers = this.handlers.filter((h) => h !== f); } },
		} };
	})()`, initData, tgDarkTheme, tgLightTheme)
	addScript(t, ctx, script)
}

// addScript runs script in the tab before any page script, on every load.
func addScript(t *testing.T, ctx context.Context, script string) {
	t.Helper()
	_, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: script})
	require.NoError(t, err)
}

// newMiniApp is a running library app with a bot token, its movie, and
// the viewer's account linked to Telegram user 4242 through a /link code.
func newMiniApp(t *testing.T) (*roomApp, func() error) {
	t.Helper()
	la := newLibAppEnv(t, nil, map[string]string{"TELEGRAM_BOT_TOKEN": miniAppBotToken})
	la.put(t, map[string]string{"Heat (1995)/Heat.1995.1080p.mkv": "video"})
	la.scan(t)
	ra := &roomApp{libApp: la, movie: filepath.Join(la.root, "Heat (1995)/Heat.1995.1080p.mkv"), id: la.idOf(t, "Heat (1995)/Heat.1995.1080p.mkv")}
	_, body := la.do(t, "POST", "/api/auth/telegram/link", la.user, nil)
	_, err := la.uc.telegram.Redeem(context.Background(), body["code"].(string), 4242)
	require.NoError(t, err)
	addr, stop := runOnLoopback(t, la.testApp)
	ra.addr = addr
	return ra, stop
}

// The Mini App in a Telegram webview (a stub WebApp object carrying signed
// init_data): it signs in by itself, shows the room's player, its tabs and
// Telegram's BackButton move between the views, a film picked in the
// library plays in the room, and the assistant answers; on a phone in both
// schemes and languages, within the screen. An unlinked Telegram account
// is linked by signing in there. The fragment's launch parameters work
// without any object, through the Mini Apps protocol. In a plain browser
// it is the home page's sign-in and then the same page.
func TestMiniAppPage(t *testing.T) {
	t.Parallel()
	ra, stop := newMiniApp(t)
	defer func() { require.NoError(t, stop()) }()
	b, closeBrowser := newPageBrowser(t)
	defer closeBrowser()
	base, room := "http://"+ra.addr, "viewer@example.org"
	player := joinRoom(t, ra.addr, "player", room, ra.user)
	player.say(map[string]any{"event": "metadata_update", "title": "Heat", "year": 1995, "media_id": ra.id})
	player.say(map[string]any{"event": "status_update", "state": "playing", "position": 42, "duration": 100, "volume": 80})

	tab := b.tab(t, "tgmini")
	stubWebApp(t, tab, signedInitData(miniAppBotToken, 4242, time.Now()))
	require.NoError(t, chromedp.Do(tab, chromedp.Navigate(base+"/healthz")))
	look(t, tab, 375, "light", "en")
	require.NoError(t, chromedp.Do(tab, chromedp.Navigate(base+"/tgmini")))
	until(t, tab, "the room's film", `document.getElementById('now-title').textContent === 'Heat (1995)'`)
	until(t, tab, "its state", `document.getElementById('now-state').textContent === 'Playing'`)
	until(t, tab, "the player is there", `document.getElementById('presence').dataset.players === '1'`)
	until(t, tab, "its time", `/^0:4\d \/ 1:40$/.test(document.getElementById('time').textContent)`)
	assert.Equal(t, []any{"ready", "expand"}, eval[[]any](t, tab, `Telegram.WebApp.calls`))
	assert.Equal(t, "#2481cc", eval[string](t, tab, `getComputedStyle(document.documentElement).getPropertyValue('--accent').trim()`), "Telegram's button colour")
	assert.Equal(t, "light", eval[string](t, tab, `document.documentElement.dataset.theme`))
	assert.NotEmpty(t, eval[string](t, tab, `localStorage.getItem('mediateka_token') || ''`), "signed in through init_data")
	assert.False(t, eval[bool](t, tab, `Telegram.WebApp.BackButton.isVisible`), "nothing to go back to")

	// Telegram's safe areas pad the page; in full screen its header adds
	// the content inset, and the page follows the change.
	padding := `(s => [s.paddingTop, s.paddingBottom].join(' '))(getComputedStyle(document.body))`
	assert.Equal(t, "20px 34px", eval[string](t, tab, padding))
	eval[any](t, tab, `(w => { w.contentSafeAreaInset = { top: 46, bottom: 0, left: 0, right: 0 }; w.handlers.contentSafeAreaChanged.forEach((f) => f()); })(Telegram.WebApp)`)
	assert.Equal(t, "66px 34px", eval[string](t, tab, padding))
	assert.Equal(t, "66px", eval[string](t, tab, `getComputedStyle(document.querySelector('.bar')).top`), "the sticky header stays under Telegram's")

	click(t, tab, `#tabs [data-view="library"]`)
	until(t, tab, "the BackButton shows", `Telegram.WebApp.BackButton.isVisible && !document.getElementById('view-library').hidden`)
	require.NoError(t, chromedp.Do(tab, chromedp.SendKeys(chromedp.CSS("#search"), "heat")))
	until(t, tab, "the search finds it", `document.querySelector('.results .card .name')?.textContent === 'Heat'`)
	click(t, tab, ".results .card")
	assert.Equal(t, map[string]any{"event": "play", "file": fmt.Sprintf("media:%d", ra.id), "media_id": float64(ra.id), "title": "Heat"},
		playFrame(player), "a film picked in the library plays on the room's player")
	until(t, tab, "back on the remote", `!document.getElementById('view-remote').hidden`)
	click(t, tab, "#toggle")
	assert.Equal(t, map[string]any{"event": "pause"}, player.next(), "playing: the button pauses")

	click(t, tab, `#tabs [data-view="chat"]`)
	eval[any](t, tab, `Telegram.WebApp.BackButton.handlers.forEach((f) => f())`)
	until(t, tab, "the BackButton went back", `!document.getElementById('view-remote').hidden`)
	click(t, tab, `#tabs [data-view="chat"]`)
	require.NoError(t, chromedp.Do(tab, chromedp.SendKeys(chromedp.CSS("#chat-input"), "what films are there?"), chromedp.Click(chromedp.CSS("#chat-form button"))))
	until(t, tab, "the assistant answers", `document.querySelector('#chat-log .msg.model')?.textContent.length > 0`)
	shots := t.TempDir()
	screenshot(t, tab, shots, "tgmini-375-light-en-chat")
	for _, scheme := range []string{"dark", "light"} {
		for _, lang := range []string{"ru", "en"} {
			look(t, tab, 375, scheme, lang)
			eval[any](t, tab, fmt.Sprintf(`localStorage.setItem('tg_test_scheme', %q)`, scheme))
			require.NoError(t, chromedp.Do(tab, chromedp.Reload()))
			until(t, tab, "the room's film", `document.getElementById('now-title').textContent === 'Heat (1995)'`)
			until(t, tab, "in "+lang, fmt.Sprintf(`document.documentElement.lang === %q && document.getElementById('now-state').textContent !== ''`, lang))
			assert.Equal(t, scheme, eval[string](t, tab, `document.documentElement.dataset.theme`))
			assert.Equal(t, map[string]string{"dark": "#5288c1", "light": "#2481cc"}[scheme],
				eval[string](t, tab, `getComputedStyle(document.documentElement).getPropertyValue('--accent').trim()`), "Telegram's button colour")
			assert.True(t, eval[bool](t, tab, `document.documentElement.scrollWidth <= innerWidth`), "no wider than the screen")
			screenshot(t, tab, shots, fmt.Sprintf("tgmini-375-%s-%s", scheme, lang))
		}
	}

	t.Run("an ended session signs in again with init_data, in place", func(t *testing.T) {
		// The session ends (expired or revoked: the server no longer takes
		// the token); the next call meets a 401.
		stale := "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.stale"
		eval[any](t, tab, fmt.Sprintf(`window.stillHere = true; localStorage.setItem('mediateka_token', %q)`, stale))
		click(t, tab, `#tabs [data-view="library"]`)
		require.NoError(t, chromedp.Do(tab, chromedp.SendKeys(chromedp.CSS("#search"), "heat")))
		until(t, tab, "the call made again finds it", `document.querySelector('.results .card .name')?.textContent === 'Heat'`)
		assert.True(t, eval[bool](t, tab, `window.stillHere === true && location.pathname === '/tgmini'`),
			"no trip to the home page: Telegram's launch parameters are kept")
		fresh := eval[string](t, tab, `localStorage.getItem('mediateka_token') || ''`)
		require.NotEqual(t, stale, fresh)
		resp, me := ra.do(t, "GET", "/api/auth/me", fresh, nil)
		require.Equal(t, 200, resp.StatusCode, "%v", me)
		assert.Equal(t, 4242.0, me["telegram_id"], "signed in again as the Telegram user's account")

		// The room's connection too: it drops, its rejoin with the ended
		// session is refused (401), and the remote comes back signed in
		// again. The page's sockets are kept where the test can drop one.
		addScript(t, tab, `(() => { const W = window.WebSocket; window.sockets = [];
			window.WebSocket = class extends W { constructor(...a) { super(...a); window.sockets.push(this); } }; })()`)
		require.NoError(t, chromedp.Do(tab, chromedp.Reload()))
		until(t, tab, "the room's film", `document.getElementById('now-title').textContent === 'Heat (1995)'`)
		until(t, tab, "the remote joined", `sockets.length === 1 && sockets[0].readyState === WebSocket.OPEN`)
		eval[any](t, tab, fmt.Sprintf(`window.stillHere = true; localStorage.setItem('mediateka_token', %q); sockets[0].close()`, stale))
		until(t, tab, "refused, signed in again, joined again",
			`sockets.length >= 3 && sockets.at(-1).readyState === WebSocket.OPEN && document.getElementById('presence').dataset.players === '1'`)
		assert.True(t, eval[bool](t, tab, fmt.Sprintf(`window.stillHere === true && location.pathname === '/tgmini' && localStorage.getItem('mediateka_token') !== %q`, stale)))
		assert.Contains(t, eval[string](t, tab, `sockets.at(-2).url`), "token="+stale, "the refused rejoin was the ended session's")
	})

	t.Run("an unlinked Telegram account is linked by signing in", func(t *testing.T) {
		other := b.tab(t, "tgmini unlinked")
		stubWebApp(t, other, signedInitData(miniAppBotToken, 5151, time.Now()))
		require.NoError(t, chromedp.Do(other, chromedp.Navigate(base+"/healthz")))
		look(t, other, 375, "light", "en")
		require.NoError(t, chromedp.Do(other, chromedp.Navigate(base+"/tgmini")))
		until(t, other, "how to link", `!document.getElementById('view-link').hidden`)
		assert.Contains(t, visibleText(t, other, "#view-link"), "/link CODE")
		until(t, other, "the account this browser is signed in to is offered", `document.getElementById('link-as').textContent === 'Link to viewer@example.org'`)
		screenshot(t, other, shots, "tgmini-375-light-en-link")
		require.NoError(t, chromedp.Do(other, chromedp.SetValue(chromedp.CSS("#link-email"), "admin@localhost"),
			chromedp.SetValue(chromedp.CSS("#link-password"), "wrong-password"), chromedp.Click(chromedp.CSS("#link-form button"))))
		until(t, other, "a wrong password in words", `document.getElementById('link-err').textContent === 'Wrong e-mail or password'`)
		require.NoError(t, chromedp.Do(other, chromedp.SetValue(chromedp.CSS("#link-password"), ra.initialPassword(t)),
			chromedp.Click(chromedp.CSS("#link-form button"))))
		until(t, other, "linked and in", `!document.getElementById('view-remote').hidden && !document.getElementById('tabs').hidden`)
		_, me := ra.do(t, "GET", "/api/auth/me", ra.admin, nil)
		assert.Equal(t, 5151.0, me["telegram_id"])
	})

	t.Run("the launch parameters in the fragment, through the Mini Apps protocol", func(t *testing.T) {
		frag := b.tab(t, "tgmini fragment")
		addScript(t, frag, `window.TelegramWebviewProxy = { events: [], postEvent(n, d) { this.events.push([n, d]); } };`)
		hash := url.Values{"tgWebAppData": {signedInitData(miniAppBotToken, 4242, time.Now())}, "tgWebAppThemeParams": {tgDarkTheme},
			"tgWebAppVersion": {"8.0"}, "tgWebAppPlatform": {"android"}}
		require.NoError(t, chromedp.Do(frag, chromedp.Navigate(base+"/tgmini#"+hash.Encode())))
		until(t, frag, "signed in, the room shown", `document.getElementById('now-title').textContent === 'Heat (1995)'`)
		assert.Equal(t, "dark", eval[string](t, frag, `document.documentElement.dataset.theme`))
		assert.Equal(t, "#17212b", eval[string](t, frag, `getComputedStyle(document.documentElement).getPropertyValue('--bg').trim()`))
		click(t, frag, `#tabs [data-view="chat"]`)
		events := eval[[]any](t, frag, `TelegramWebviewProxy.events.map(([n, d]) => n + ' ' + d)`)
		assert.Equal(t, []any{"web_app_ready null", "web_app_expand null", "web_app_request_safe_area null", "web_app_request_content_safe_area null",
			`web_app_setup_back_button {"is_visible":false}`, `web_app_setup_back_button {"is_visible":true}`}, events)
		eval[any](t, frag, `Telegram.WebView.receiveEvent('safe_area_changed', { top: 24, bottom: 16, left: 0, right: 0 })`)
		eval[any](t, frag, `Telegram.WebView.receiveEvent('content_safe_area_changed', { top: 40, bottom: 0, left: 0, right: 0 })`)
		assert.Equal(t, "64px 16px", eval[string](t, frag, `(s => [s.paddingTop, s.paddingBottom].join(' '))(getComputedStyle(document.body))`))
		eval[any](t, frag, `Telegram.WebView.receiveEvent('back_button_pressed', null)`)
		until(t, frag, "back", `!document.getElementById('view-remote').hidden`)
	})

	t.Run("a plain browser signs in on the home page", func(t *testing.T) {
		plain := b.tab(t, "tgmini plain")
		require.NoError(t, chromedp.Do(plain, chromedp.Navigate(base+"/healthz")))
		eval[any](t, plain, `localStorage.removeItem('mediateka_token')`)
		require.NoError(t, chromedp.Do(plain, chromedp.Navigate(base+"/tgmini")))
		until(t, plain, "the sign-in", `location.pathname === '/' && !document.getElementById('login').hidden`)
		require.NoError(t, chromedp.Do(plain, chromedp.SetValue(chromedp.CSS("#email"), "viewer@example.org"),
			chromedp.SetValue(chromedp.CSS("#password"), "viewer-password"), chromedp.Click(chromedp.CSS("#login button"))))
		until(t, plain, "back on the Mini App", `location.pathname === '/tgmini' && document.getElementById('now-title').textContent === 'Heat (1995)'`)
		assert.False(t, eval[bool](t, plain, `'Telegram' in window && !!Telegram.WebApp`))
	})
	b.noProblems(t)
}
