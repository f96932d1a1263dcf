package app

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/repository/aimodel/aifake"
)

// setControl sets a form control's value as a person would and fires
// event (input or change) on it.
func setControl(t *testing.T, ctx context.Context, selector, value, event string) {
	t.Helper()
	require.True(t, eval[bool](t, ctx, fmt.Sprintf(`(e => { if (!e) return false; e.value = %q; e.dispatchEvent(new Event(%q, {bubbles: true})); return true })(document.querySelector(%q))`,
		value, event, selector)), selector)
}

// listRows is the number of entries the Library tab's list shows.
const listRows = `document.querySelectorAll('#lib-list tbody tr.clickable').length`

// The Library tab against a real server and a small real library: the
// list with its search and filters, an entry with its children, an edit
// saved and marked, a validation error by its field, play in a room, the
// roots changed through the page, a scan followed to its end through the
// events, the audit, duplicate groups, classification without a model;
// and a plain user's /admin.
func TestAdminLibraryTab(t *testing.T) {
	t.Parallel()
	sa, stop := newScreenApp(t)
	defer func() { require.NoError(t, stop()) }()
	// A film that goes missing, and a second "Heat (1995)" (a duplicate
	// by title and year).
	sa.put(t, map[string]string{"Фильмы/Драмы/Gone (2001)/Gone.2001.mkv": "gone soon", "Фильмы/Драмы/Heat (1995)/Heat.1995.mkv": "another heat"})
	sa.scan(t)
	require.NoError(t, os.Remove(filepath.Join(sa.root, "Фильмы/Драмы/Gone (2001)/Gone.2001.mkv")))
	sa.scan(t)
	dark := sa.idOf(t, "Сериалы/Dark (2017)")
	// A second library folder, not yet listed, with a film in it.
	extra := filepath.Join(filepath.Dir(sa.root), "extra")
	require.NoError(t, os.MkdirAll(filepath.Join(extra, "Solaris (1972)"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(extra, "Solaris (1972)", "Solaris.1972.mkv"), []byte("solaris"), 0o644))

	b, closeBrowser := newPageBrowser(t)
	defer closeBrowser()
	shots := t.TempDir()
	at := openAdmin(t, b, sa.base, sa.admin, "library")
	ctx := at.ctx
	look(t, ctx, 1024, "dark", "en")
	require.NoError(t, chromedp.Do(ctx, chromedp.Reload()))
	waitTab(t, ctx, "library")

	// The list: one page, the count of the whole selection.
	until(t, ctx, "the list shows the catalogue", listRows+` >= 8`)
	assert.Regexp(t, `^Entries: \d+$`, visibleText(t, ctx, "#lib-count"))

	// Search as you type (waits for the pause), then the filters.
	require.NoError(t, chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS("#lib-q"), "matrx")))
	until(t, ctx, "the search finds The Matrix despite the typo", listRows+` === 1 && document.querySelector('#lib-list tbody').innerText.includes('The Matrix')`)
	assert.Equal(t, "Entries: 1", visibleText(t, ctx, "#lib-count"))
	setControl(t, ctx, "#lib-q", "", "input")
	setControl(t, ctx, "#lib-type", "series", "change")
	until(t, ctx, "the type filter keeps the series", listRows+` === 1 && document.querySelector('#lib-list tbody').innerText.includes('Dark')`)
	setControl(t, ctx, "#lib-type", "", "change")
	setControl(t, ctx, "#lib-category", "action", "change")
	until(t, ctx, "the category filter keeps the action film", listRows+` === 1 && document.querySelector('#lib-list tbody').innerText.includes('Heat')`)
	setControl(t, ctx, "#lib-category", "", "change")
	setControl(t, ctx, "#lib-status", "missing", "change")
	until(t, ctx, "the missing filter keeps the film gone from disk", listRows+` === 1 && document.querySelector('#lib-list tbody').innerText.includes('Gone')`)
	setControl(t, ctx, "#lib-status", "", "change")
	setControl(t, ctx, "#lib-disk", "Disk 1", "change")
	until(t, ctx, "the disk filter keeps Disk 1's entries", listRows+` >= 8`)
	setControl(t, ctx, "#lib-disk", "", "change")

	// An entry with its children and its picture.
	setControl(t, ctx, "#lib-type", "series", "change")
	until(t, ctx, "the series is listed", fmt.Sprintf(`document.querySelector('#lib-list tr[data-id="%d"]') !== null`, dark))
	click(t, ctx, fmt.Sprintf(`#lib-list tr[data-id="%d"]`, dark))
	until(t, ctx, "the entry shows its seasons and episodes", `(c => c && c.innerText.includes('Season 1') && c.querySelectorAll('ul ul li').length === 2)(document.getElementById('lib-children'))`)
	until(t, ctx, "the entry shows its thumbnail", `(i => i && !i.hidden && i.src.startsWith('blob:') && i.complete && i.naturalWidth > 0)(document.querySelector('#lib-entry img.thumb'))`)
	entry := visibleText(t, ctx, "#lib-entry .kv")
	for _, f := range []string{"Path", "Disk", "Seasons", "Edited by hand", "Added"} {
		assert.Contains(t, entry, f, "every field is shown, by its name in words")
	}
	for _, f := range []string{"path", "disk_name", "num_of_seasons", "edited_fields", "created_at"} {
		assert.True(t, eval[bool](t, ctx, fmt.Sprintf(`document.querySelector('#lib-entry dt[data-field=%q]') !== null`, f)), "the field %s is shown", f)
	}
	screenshot(t, ctx, shots, "admin-library-entry-1024-dark-en")

	// Edit: a year out of range is refused by its field; then a title saved.
	click(t, ctx, "#lib-edit")
	until(t, ctx, "the edit form is open", `document.getElementById('lib-edit-form') !== null`)
	assert.Empty(t, eval[[]any](t, ctx, `[...document.querySelectorAll('#lib-edit-form label.field > span:first-child')].map((s) => s.firstChild.textContent.trim()).filter((s) => /^[a-z_]+$/.test(s))`), "raw field names in the form")
	setControl(t, ctx, "#edit-year", "1500", "input")
	setControl(t, ctx, "#edit-title_ru", "Тьма", "input")
	click(t, ctx, "#edit-save")
	until(t, ctx, "the API's complaint shows under the year", `(e => e && !e.hidden && e.textContent.length > 0)(document.getElementById('err-year'))`)
	assert.Equal(t, "true", eval[string](t, ctx, `document.getElementById('edit-year').getAttribute('aria-invalid')`))
	_, body := sa.do(t, "GET", fmt.Sprintf("/api/media/%d", dark), sa.admin, nil)
	assert.Nil(t, body["title_ru"], "nothing of a refused edit is written")
	screenshot(t, ctx, shots, "admin-library-edit-1024-dark-en")
	setControl(t, ctx, "#edit-year", "2017", "input")
	click(t, ctx, "#edit-save")
	until(t, ctx, "the saved entry is shown again", `document.getElementById('lib-edit-form') === null && document.querySelector('#lib-entry .kv') !== null`)
	until(t, ctx, "the toast says it was saved", `(document.getElementById('toasts') || {}).innerText?.includes('Saved')`)
	_, body = sa.do(t, "GET", fmt.Sprintf("/api/media/%d", dark), sa.admin, nil)
	assert.Equal(t, "Тьма", body["title_ru"])
	assert.Equal(t, []any{"title_ru"}, body["edited_fields"], "only the changed field is sent, and so marked as edited")
	until(t, ctx, "the page marks the field as edited", `[...document.querySelectorAll('#lib-entry dt')].some(d => d.dataset.field === 'title_ru' && d.textContent.startsWith('Russian title') && d.querySelector('.edited-mark'))`)

	// Play in a room: first with nobody to play, then to a player.
	setControl(t, ctx, "#lib-type", "", "change")
	setControl(t, ctx, "#lib-q", "heat", "input")
	until(t, ctx, "Heat is listed", fmt.Sprintf(`document.querySelector('#lib-list tr[data-id="%d"]') !== null`, sa.heat))
	click(t, ctx, fmt.Sprintf(`#lib-list tr[data-id="%d"]`, sa.heat))
	until(t, ctx, "Heat's details offer play", `document.getElementById('lib-play') !== null`)
	click(t, ctx, "#lib-play")
	until(t, ctx, "no player is said in words", `(document.getElementById('toasts') || {}).innerText?.includes('No player in this room')`)
	player := joinRoom(t, strings.TrimPrefix(sa.base, "http://"), "player", "admin@localhost", sa.admin)
	click(t, ctx, "#lib-play")
	got := player.next()
	assert.Equal(t, "play", got["event"])
	assert.Equal(t, float64(sa.heat), got["media_id"])
	until(t, ctx, "the page says it was sent", `(document.getElementById('toasts') || {}).innerText?.includes('Sent to the room admin@localhost')`)

	// The roots: a relative path is refused on its row, then a second
	// folder is added and saved.
	click(t, ctx, "#roots-add")
	setControl(t, ctx, "#roots .root-row:nth-child(2) input[name=path]", "extra", "input")
	click(t, ctx, "#roots-save")
	until(t, ctx, "the refusal shows on the new row", `(r => r && [...r.querySelectorAll('.field-error')].some(e => !e.hidden && e.textContent))(document.querySelector('#roots .root-row:nth-child(2)'))`)
	setControl(t, ctx, "#roots .root-row:nth-child(2) input[name=path]", extra, "input")
	setControl(t, ctx, "#roots .root-row:nth-child(2) input[name=disk]", "Disk 2", "input")
	click(t, ctx, "#roots-save")
	until(t, ctx, "the saved roots come back with their state", `document.querySelectorAll('#roots .root-row').length === 2 && document.querySelector('#roots .root-row:nth-child(2) .state.ok') !== null`)
	_, body = sa.do(t, "GET", "/api/media-admin/roots", sa.admin, nil)
	raw, _ := json.Marshal(body["dirs"])
	assert.JSONEq(t, fmt.Sprintf(`[{"path": %q, "disk": "Disk 1", "exists": true, "entries": %v}, {"path": %q, "disk": "Disk 2", "exists": true, "entries": 0}]`,
		sa.root, body["dirs"].([]any)[0].(map[string]any)["entries"], extra), string(raw))
	until(t, ctx, "the scan offers the new disk", `[...document.querySelectorAll('#scan-disk option')].some(o => o.value === 'Disk 2')`)

	// A scan of the new disk, followed through the events to its end.
	require.Eventually(t, func() bool { return at.requests.streaming("/api/events") }, roomWait, 50*time.Millisecond, "the panel listens to the events")
	// Every state the block passes through, also those that one task (two
	// events in one chunk of the stream) both set and replaced.
	eval[bool](t, ctx, `(b => { window.scanStates = [b.dataset.state]; const add = (s) => { if (window.scanStates.at(-1) !== s) window.scanStates.push(s); };
		new MutationObserver((ms) => { for (const m of ms) add(m.oldValue); add(b.dataset.state); }).observe(b, {attributes: true, attributeFilter: ['data-state'], attributeOldValue: true}); return true })(document.getElementById('scan-box'))`)
	setControl(t, ctx, "#scan-disk", "Disk 2", "change")
	click(t, ctx, "#scan-start")
	until(t, ctx, "the scan runs, then its progress bar reaches its end", `window.scanStates.includes('running') && (b => b.dataset.state === 'completed' && (p => p && p.max > 0 && p.value === p.max)(b.querySelector('progress')))(document.getElementById('scan-box'))`)
	assert.Equal(t, []any{"completed", "running", "completed"}, eval[[]any](t, ctx, `window.scanStates`), "running, then completed")
	assert.Contains(t, visibleText(t, ctx, "#scan-box"), "new: 1")
	setControl(t, ctx, "#lib-q", "solaris", "input")
	until(t, ctx, "the list reads the scan's film", listRows+` === 1 && document.querySelector('#lib-list tbody').innerText.includes('Solaris')`)

	// The audit, its summary and its issues with titles and paths; while
	// it runs (its answer held back a moment in the page) a bar moves.
	eval[bool](t, ctx, `(() => { const f = window.fetch; window.fetch = (input, init) => String(input).endsWith('/api/media-admin/audit')
		? new Promise((r) => setTimeout(r, 1500)).then(() => f(input, init)) : f(input, init); return true })()`)
	click(t, ctx, "#audit-run")
	until(t, ctx, "an indeterminate bar while the audit runs", `(p => p !== null && !p.hasAttribute('value'))(document.querySelector('#audit progress'))`)
	until(t, ctx, "the audit answered", `document.getElementById('audit-summary') !== null`)
	assert.Zero(t, eval[int](t, ctx, `document.querySelectorAll('#audit progress').length`), "the bar goes with the answer")
	// It is still there after a visit to another tab.
	switchTab(t, ctx, "plugins")
	switchTab(t, ctx, "library")
	until(t, ctx, "the audit is kept", `document.getElementById('audit-summary') !== null && document.getElementById('audit').innerText.includes('Gone')`)
	audit := visibleText(t, ctx, "#audit")
	assert.Contains(t, audit, "missing file: 1")
	assert.Contains(t, audit, "Gone")
	assert.NotContains(t, audit, "null")
	assert.Contains(t, audit, filepath.Join(sa.root, "Фильмы/Драмы/Gone (2001)/Gone.2001.mkv"))

	// An audit run elsewhere (another administrator through the API)
	// redraws the block from its event.
	resp, body := sa.do(t, "POST", "/api/media-admin/audit", sa.admin, nil)
	require.Equal(t, 200, resp.StatusCode, "%v", body)
	until(t, ctx, "the audit of another admin is shown", `document.getElementById('audit-elsewhere') !== null`)
	assert.Contains(t, visibleText(t, ctx, "#audit-summary"), "missing file: 1")
	click(t, ctx, "#audit-run")
	until(t, ctx, "this page's own audit lists its issues again", `document.getElementById('audit-elsewhere') === null && document.getElementById('audit').innerText.includes('Gone')`)

	// Duplicate groups.
	click(t, ctx, "#duplicates-run")
	until(t, ctx, "the duplicate groups are listed", `document.querySelector('#duplicates .dup-group') !== null`)
	dups := visibleText(t, ctx, "#duplicates")
	assert.Contains(t, dups, "same title and year")
	assert.Equal(t, []any{"Heat (1995)", "Heat (1995)"}, eval[[]any](t, ctx, `[...document.querySelectorAll('#duplicates .dup-group button.link')].map(b => b.textContent)`), dups)
	assert.NotContains(t, dups, "null")

	// Classification without a model: said in the block, not only in a toast.
	click(t, ctx, "#classify-start")
	until(t, ctx, "no model is said", `(n => !n.hidden && n.textContent.includes('No AI model'))(document.getElementById('classify-note'))`)
	screenshot(t, ctx, shots, "admin-library-actions-1024-dark-en")

	at.noFailedRequests(t,
		fmt.Sprintf("400 %s/api/media-admin/media/%d", sa.base, dark),
		"400 "+sa.base+"/api/media-admin/roots",
		"503 "+sa.base+"/api/media-admin/classify")
	adminShots(t, ctx, shots, "library", "admin-library")

	// A phone: the entry and its edit form fit the screen.
	setControl(t, ctx, "#lib-q", "dark", "input")
	until(t, ctx, "the search keeps Dark", fmt.Sprintf(`%s <= 4 && document.querySelector('#lib-list tr[data-id="%d"]') !== null`, listRows, dark))
	// A series' season and episodes are told apart by their numbers.
	until(t, ctx, "the rows say which season and episode", `(ts => ts.includes('Dark · Season 1') && ts.includes('Dark · S01E01') && ts.includes('Dark · S01E02'))(
		[...document.querySelectorAll('#lib-list tbody .title')].map((e) => e.textContent))`)
	click(t, ctx, fmt.Sprintf(`#lib-list tr[data-id="%d"]`, dark))
	until(t, ctx, "the entry is open", `document.getElementById('lib-children') !== null`)
	// Every field by its name in words, none by its key.
	assert.Empty(t, eval[[]any](t, ctx, `[...document.querySelectorAll('#lib-entry dt')].map((d) => d.textContent.replace('✎', '').trim()).filter((s) => /^[a-z_]+$/.test(s))`), "raw field names in the details")
	assert.Equal(t, "Why watch it", eval[string](t, ctx, `document.querySelector('#lib-entry dt[data-field="why_watch"]')?.firstChild.textContent`))
	assert.LessOrEqual(t, eval[int](t, ctx, `document.documentElement.scrollWidth`), 375)
	screenshot(t, ctx, shots, "admin-library-entry-375-light-en")
	click(t, ctx, "#lib-edit")
	until(t, ctx, "the edit form is open", `document.getElementById('lib-edit-form') !== null`)
	assert.LessOrEqual(t, eval[int](t, ctx, `document.documentElement.scrollWidth`), 375)
	screenshot(t, ctx, shots, "admin-library-edit-375-light-en")

	// A plain user's /admin: the "not an administrator" page, no tabs.
	viewer := b.tab(t, "admin-as-user")
	openSignedIn(t, viewer, sa.base, sa.user, "/admin")
	until(t, viewer, "the user sees the not-an-administrator page", `!document.getElementById('not-admin').hidden`)
	assert.True(t, eval[bool](t, viewer, `document.getElementById('tabs').hidden && document.querySelector('#panel .block') === null`))
	assert.Contains(t, visibleText(t, viewer, "#not-admin-text"), "viewer@example.org")

	at.noFailedRequests(t,
		fmt.Sprintf("400 %s/api/media-admin/media/%d", sa.base, dark),
		"400 "+sa.base+"/api/media-admin/roots",
		"503 "+sa.base+"/api/media-admin/classify")
	b.noProblems(t)
}

// TestAdminLibraryFilesByStatus: the status filter the panel's "missing"
// list uses, through HTTP: the selection, its count, and a bad value.
func TestAdminLibraryFilesByStatus(t *testing.T) {
	la := newLibApp(t, nil)
	la.put(t, map[string]string{"Kept (2001)/Kept.2001.mkv": "k", "Gone (2002)/Gone.2002.mkv": "g"})
	la.scan(t)
	require.NoError(t, os.Remove(filepath.Join(la.root, "Gone (2002)/Gone.2002.mkv")))
	la.scan(t)
	for status, want := range map[string]string{"missing": "Gone", "ok": "Kept"} {
		resp, raw := la.raw(t, "GET", "/api/media/files?"+url.Values{"status": {status}, "limit": {"50"}}.Encode(), la.admin, nil)
		require.Equal(t, 200, resp.StatusCode, string(raw))
		var list []map[string]any
		require.NoError(t, json.Unmarshal(raw, &list))
		if assert.Len(t, list, 1, status) {
			assert.Equal(t, want, list[0]["title"])
			assert.Equal(t, status, list[0]["status"])
		}
		assert.Equal(t, "1", resp.Header.Get("X-Total-Count"))
	}
	resp, raw := la.raw(t, "GET", "/api/media/files?q=gone&status=missing", la.user, nil)
	require.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, "1", resp.Header.Get("X-Total-Count"), string(raw))
	resp, body := la.do(t, "GET", "/api/media/files?status=gone", la.user, nil)
	assert.Equal(t, 400, resp.StatusCode)
	assert.Equal(t, "invalid_input", errCode(body))
	assert.Contains(t, body["error"].(map[string]any)["fields"], "status")
}

// TestAdminLibraryListPages: a library larger than a page shows the first
// 50 entries and the range, and the pager turns to the rest in the API's
// order; a filter starts again from the first page.
func TestAdminLibraryListPages(t *testing.T) {
	t.Parallel()
	la := newLibApp(t, nil)
	films := map[string]string{}
	for i := range 55 {
		films[fmt.Sprintf("Film %02d (%d)/Film.%02d.%d.mkv", i, 1950+i, i, 1950+i)] = "x"
	}
	la.put(t, films)
	la.scan(t)
	addr, stop := runOnLoopback(t, la.testApp)
	defer func() { require.NoError(t, stop()) }()
	ids := func(offset int) []string {
		_, raw := la.raw(t, "GET", fmt.Sprintf("/api/media/files?limit=50&offset=%d", offset), la.admin, nil)
		var list []map[string]any
		require.NoError(t, json.Unmarshal(raw, &list))
		out := make([]string, len(list))
		for i, m := range list {
			out[i] = fmt.Sprint(m["id"])
		}
		return out
	}
	shownIDs := `[...document.querySelectorAll('#lib-list tbody tr.clickable')].map(tr => tr.dataset.id).join(' ')`
	pagerText := `document.querySelector('#lib-list .pager span').textContent`

	b, closeBrowser := newPageBrowser(t)
	defer closeBrowser()
	at := openAdmin(t, b, "http://"+addr, la.admin, "library")
	ctx := at.ctx
	until(t, ctx, "the first page", listRows+` === 50`)
	assert.Equal(t, strings.Join(ids(0), " "), eval[string](t, ctx, shownIDs))
	assert.Equal(t, "1–50 of 55", eval[string](t, ctx, pagerText))
	assert.True(t, eval[bool](t, ctx, `document.querySelector('#lib-list .pager button').disabled`), "no page before the first")

	click(t, ctx, `#lib-list .pager button:last-child`)
	until(t, ctx, "the second page", listRows+` === 5`)
	assert.Equal(t, strings.Join(ids(50), " "), eval[string](t, ctx, shownIDs))
	assert.Equal(t, "51–55 of 55", eval[string](t, ctx, pagerText))
	assert.True(t, eval[bool](t, ctx, `document.querySelector('#lib-list .pager button:last-child').disabled`), "no page after the last")

	setControl(t, ctx, "#lib-type", "movie", "change")
	until(t, ctx, "a filter starts from the first page", listRows+` === 50`)
	assert.Equal(t, "1–50 of 55", eval[string](t, ctx, pagerText))
	click(t, ctx, `#lib-list .pager button:last-child`)
	until(t, ctx, "and pages too", listRows+` === 5`)
	click(t, ctx, `#lib-list .pager button:first-child`)
	until(t, ctx, "and back", listRows+` === 50`)
	at.noFailedRequests(t)
	b.noProblems(t)
}

// TestAdminLibraryClassifiesWithAModel: with a model (a fake Gemini) the
// panel's classification shows the job running with its progress, live
// from the events, then done with its counts; the entry has the model's
// plot.
func TestAdminLibraryClassifiesWithAModel(t *testing.T) {
	t.Parallel()
	la, fake := classifyApp(t, nil)
	la.put(t, map[string]string{"Фильмы/The.Matrix.1999.1080p.mkv": "m", "Фильмы/Heat.1995.mkv": "h"})
	la.scan(t)
	matrix := la.idOf(t, "Фильмы/The.Matrix.1999.1080p.mkv")
	gate := make(chan struct{})
	var once sync.Once
	release := func() { once.Do(func() { close(gate) }) }
	defer release()
	var asked atomic.Int32
	fake.SetReplyFunc(func(r aifake.Request) string {
		if asked.Add(1) == 2 {
			<-gate // the second entry waits, so the job is seen running
		}
		if strings.Contains(r.Message, "Matrix") {
			return matrixAnswer
		}
		return `{"title_orig": "Heat", "year": 1995, "main_category": "action", "plot": "Ограбление и погоня."}`
	})
	addr, stop := runOnLoopback(t, la.testApp)
	defer func() { release(); require.NoError(t, stop()) }()

	b, closeBrowser := newPageBrowser(t)
	defer closeBrowser()
	at := openAdmin(t, b, "http://"+addr, la.admin, "library")
	ctx := at.ctx
	until(t, ctx, "the block is drawn", `document.getElementById('classify-box')?.dataset.state === 'idle'`)
	click(t, ctx, "#classify-start")
	until(t, ctx, "running, one of two done", `document.getElementById('classify-box').dataset.state === 'running' &&
		document.getElementById('classify-box').textContent.includes('done: 1 of 2')`)
	assert.True(t, eval[bool](t, ctx, `document.getElementById('classify-start').disabled`), "one job at a time")
	assert.Contains(t, visibleText(t, ctx, "#classify-box"), "Model: gemini")
	release()
	until(t, ctx, "completed", `document.getElementById('classify-box').dataset.state === 'completed'`)
	assert.Contains(t, visibleText(t, ctx, "#classify-box"), "done: 2 of 2, failed: 0")
	assert.Equal(t, 2.0, eval[float64](t, ctx, `document.querySelector('#classify-box progress').value`))
	assert.False(t, eval[bool](t, ctx, `document.getElementById('classify-start').disabled`))
	assert.Equal(t, "Хакер Нео узнаёт, что мир — симуляция.", la.entry(t, matrix)["plot"])
	at.noFailedRequests(t)
	b.noProblems(t)
}
