package app

// The admin panel's shell: a tab left while it is still loading stops
// there, and nothing of it shows under the next tab.

import (
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAdminSwitchTabsWhileLoading opens Torrents and picks AI while the
// Torrents tab still waits for its first list (the page's fetch of
// /api/torrents is held back a moment): the AI tab shows alone, and the
// list that would be asked every 5 s is asked no more.
func TestAdminSwitchTabsWhileLoading(t *testing.T) {
	t.Parallel()
	// A torrent client that cannot be reached: /api/torrents answers 503,
	// which the Torrents tab keeps asking every 5 s while it is open.
	la := newLibAppEnv(t, nil, map[string]string{"MEDIATEKA_TORRENT_CLIENT__URL": "http://127.0.0.1:1"})
	addr, stop := runOnLoopback(t, la.testApp)
	defer func() { assert.NoError(t, stop()) }()
	b, closeBrowser := newPageBrowser(t)
	defer closeBrowser()
	a := openAdmin(t, b, "http://"+addr, la.admin, "overview")

	// The switch happens the moment the Torrents tab asks for its list,
	// and the answer reaches it only later: its mount resolves after it
	// was left.
	eval[bool](t, a.ctx, `(() => {
		const f = window.fetch;
		window.__torrentCalls = 0;
		window.fetch = (input, init) => {
			if (String(input).includes('/api/torrents')) {
				window.__torrentCalls++;
				if (location.hash === '#torrents') {
					location.hash = '#ai';
					return new Promise((r) => setTimeout(r, 400)).then(() => f(input, init));
				}
			}
			return f(input, init);
		};
		return true })()`)
	press(t, a.ctx, `#tabs a[data-tab="torrents"]`)
	waitTab(t, a.ctx, "ai")
	until(t, a.ctx, "the Torrents tab asked for its list", `window.__torrentCalls >= 1`)
	time.Sleep(time.Second) // the held-back answer arrives and the left tab's mount ends
	assert.Equal(t, "ai", eval[string](t, a.ctx, `document.getElementById('panel').dataset.tab`))
	assert.Zero(t, eval[int](t, a.ctx, `document.querySelectorAll('#panel #atr-list, #panel #atr-status, #panel #atr-down').length`),
		"nothing of the Torrents tab is under the AI tab")
	assert.Equal(t, 1, eval[int](t, a.ctx, `document.querySelectorAll('#panel > .tab-body').length`), "one tab's node in the panel")
	assert.True(t, eval[bool](t, a.ctx, `document.querySelector('#panel > .tab-body[data-tab="ai"] .block') !== null`), "the AI tab is drawn")
	calls := eval[int](t, a.ctx, `window.__torrentCalls`)
	// The Torrents tab asks every 5 s: a minute's wait is not needed to
	// see that it stopped, one period and a bit is.
	time.Sleep(6 * time.Second)
	assert.Equal(t, calls, eval[int](t, a.ctx, `window.__torrentCalls`), "the left Torrents tab asks for its list no more")
	a.noFailedRequests(t, "/api/torrents")
	b.noProblems(t)
}

// TestAdminKitAction runs the kit's action() in the panel: a button it
// disabled is enabled again, unless the handler kept it disabled (a build
// it started runs) or it was disabled before.
func TestAdminKitAction(t *testing.T) {
	t.Parallel()
	la := newLibAppEnv(t, nil, nil)
	addr, stop := runOnLoopback(t, la.testApp)
	defer func() { assert.NoError(t, stop()) }()
	b, closeBrowser := newPageBrowser(t)
	defer closeBrowser()
	a := openAdmin(t, b, "http://"+addr, la.admin, "overview")
	eval[bool](t, a.ctx, `import('/assets/admin-kit.js').then(async (k) => {
		const b = () => document.createElement('button');
		const plain = b(), kept = b(), before = b(), failed = b();
		let during = false;
		await k.action(plain, async () => { during = plain.disabled; });
		await k.action(kept, async ({ keep }) => { kept.disabled = true; keep(); });
		before.disabled = true;
		await k.action(before, async () => {});
		await k.action(failed, async () => { throw new Error('no'); });
		window.__action = { during, plain: plain.disabled, kept: kept.disabled, before: before.disabled, failed: failed.disabled,
			eta: k.formatETA(93784) === '1 d 2 h' && k.formatETA(3725) === '1 h 2 min' && k.formatETA(65) === '1 min 5 s' };
	}), true`)
	until(t, a.ctx, "the actions ended", `!!window.__action`)
	got := eval[map[string]bool](t, a.ctx, `window.__action`)
	assert.Equal(t, map[string]bool{"during": true, "plain": false, "kept": true, "before": true, "failed": false, "eta": true}, got)
	b.noProblems(t)
}

// TestAdminOverviewKeepsEventsAndPolls: events that happen while another
// tab is open are on the Overview when it opens (the panel keeps them),
// and an unexpected failure of the downloads' poll does not end it.
func TestAdminOverviewKeepsEventsAndPolls(t *testing.T) {
	t.Parallel()
	la := newLibAppEnv(t, nil, nil)
	la.put(t, map[string]string{"Heat (1995)/Heat.1995.mkv": "heat"})
	addr, stop := runOnLoopback(t, la.testApp)
	defer func() { assert.NoError(t, stop()) }()
	b, closeBrowser := newPageBrowser(t)
	defer closeBrowser()
	a := openAdmin(t, b, "http://"+addr, la.admin, "plugins")
	require.Eventually(t, func() bool { return len(a.requests.urls("/api/events")) > 0 }, 10*time.Second, 50*time.Millisecond, "the event stream is asked for")
	time.Sleep(500 * time.Millisecond) // the server has the stream's subscription
	la.scan(t)

	// The downloads' first poll meets a network failure, the next ones an
	// empty list (this server has no torrent client: the page's fetch is
	// answered in the page).
	eval[bool](t, a.ctx, `(() => {
		const f = window.fetch;
		window.__torrentCalls = 0;
		window.fetch = (input, init) => {
			if (String(input).includes('/api/torrents')) {
				if (window.__torrentCalls++ === 0) return Promise.reject(new TypeError('Failed to fetch'));
				return Promise.resolve(new Response(JSON.stringify([{ hash: 'abc', name: 'Heat.1995.1080p', state: 'MissingFiles', client_state: 'missingFiles',
					progress: 0.5, size: 1000 }]), { status: 200, headers: { 'Content-Type': 'application/json' } }));
			}
			return f(input, init);
		};
		return true })()`)
	press(t, a.ctx, `#tabs a[data-tab="overview"]`)
	waitTab(t, a.ctx, "overview")
	until(t, a.ctx, "the scan that ran under Plugins is among the events",
		`document.querySelector('#ov-events li[data-event="scan_completed"]') !== null && document.querySelector('#ov-events li[data-event="scan_started"]') !== null`)
	assert.Contains(t, visibleText(t, a.ctx, `#ov-events li[data-event="scan_completed"]`), "1 added")
	until(t, a.ctx, "the downloads are asked again 5 s after the failure", `window.__torrentCalls >= 2`)
	until(t, a.ctx, "the list shows after the failure", `document.getElementById('ov-torrents').textContent.includes('Heat.1995.1080p')`)
	// The state in words, as the Torrents tab says it.
	assert.Equal(t, "Missing files", visibleText(t, a.ctx, `#ov-torrents .state[data-state="MissingFiles"]`))
	a.noFailedRequests(t)
}

// TestAdminLanguageSwitchKeepsTheTab: a language switch relabels the
// Library tab in place — the search typed, its results, the entry open
// and an edit under way stay — and a tab that draws its own words (Users)
// is drawn again in the new language unless something is typed there.
func TestAdminLanguageSwitchKeepsTheTab(t *testing.T) {
	t.Parallel()
	la := newLibAppEnv(t, nil, nil)
	la.put(t, map[string]string{"Heat (1995)/Heat.1995.mkv": "heat", "Brat (1997)/Brat.1997.mkv": "brat"})
	la.scan(t)
	heat := la.idOf(t, "Heat (1995)/Heat.1995.mkv")
	addr, stop := runOnLoopback(t, la.testApp)
	defer func() { assert.NoError(t, stop()) }()
	b, closeBrowser := newPageBrowser(t)
	defer closeBrowser()
	a := openAdmin(t, b, "http://"+addr, la.admin, "library")
	ctx := a.ctx
	eval[any](t, ctx, `localStorage.setItem('mediateka_lang', 'en')`)
	require.NoError(t, chromedp.Do(ctx, chromedp.Reload()))
	waitTab(t, ctx, "library")

	setValue(t, ctx, "#lib-q", "heat")
	until(t, ctx, "the search finds Heat", fmt.Sprintf(`document.querySelectorAll('#lib-list tbody tr').length === 1 && document.querySelector('#lib-list tr[data-id="%d"]') !== null`, heat))
	click(t, ctx, fmt.Sprintf(`#lib-list tr[data-id="%d"]`, heat))
	until(t, ctx, "the entry is open", `document.querySelector('#lib-entry dt[data-field="why_watch"]') !== null`)
	press(t, ctx, "#lang")
	until(t, ctx, "the page is in Russian", `document.documentElement.lang === 'ru'`)
	assert.Equal(t, "heat", eval[string](t, ctx, `document.getElementById('lib-q').value`), "the search stays")
	assert.Equal(t, "Поиск по названию", eval[string](t, ctx, `document.getElementById('lib-q').placeholder`))
	assert.Equal(t, 1, eval[int](t, ctx, `document.querySelectorAll('#lib-list tbody tr').length`), "the results stay")
	assert.Contains(t, visibleText(t, ctx, "#lib-list thead"), "Название", "relabelled")
	assert.Equal(t, "Почему стоит смотреть", eval[string](t, ctx, `document.querySelector('#lib-entry dt[data-field="why_watch"]').firstChild.textContent`), "the entry stays, in Russian")
	assert.Equal(t, "Каталог", eval[string](t, ctx, `document.querySelector('.block h2').textContent`))

	// An edit under way keeps what was typed.
	click(t, ctx, "#lib-edit")
	until(t, ctx, "the edit form is open", `document.getElementById('lib-edit-form') !== null`)
	setValue(t, ctx, "#edit-title_ru", "Схватка")
	press(t, ctx, "#lang")
	until(t, ctx, "the page is in English", `document.documentElement.lang === 'en'`)
	assert.Equal(t, "Схватка", eval[string](t, ctx, `document.getElementById('edit-title_ru').value`), "the edit stays")
	assert.Equal(t, "heat", eval[string](t, ctx, `document.getElementById('lib-q').value`))

	// Users draws its own words: drawn again, but not over a typed form.
	switchTab(t, ctx, "users")
	until(t, ctx, "the accounts are listed", `document.querySelector('.user-card') !== null`)
	setValue(t, ctx, "#user-add input[name=email]", "someone@example.org")
	press(t, ctx, "#lang")
	until(t, ctx, "the page is in Russian", `document.documentElement.lang === 'ru'`)
	assert.Equal(t, "someone@example.org", eval[string](t, ctx, `document.querySelector('#user-add input[name=email]').value`), "typed input is not lost")
	setValue(t, ctx, "#user-add input[name=email]", "")
	press(t, ctx, "#lang")
	until(t, ctx, "a clean Users tab is drawn again in English", `document.documentElement.lang === 'en' && document.querySelector('.user-card button[data-act=password]')?.textContent === 'New password'`)
	a.noFailedRequests(t, "/thumbnail") // the test's files are not videos: no picture
	b.noProblems(t)
}
