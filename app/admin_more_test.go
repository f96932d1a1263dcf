package app

// The admin panel's Overview, Semantic search, Plugins and AI tabs in
// Debian's Chromium against a real server with a small real library.

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/repository/sqlstore/sqlstoretest"
)

// barsOf reads a bar chart under selector as label → number, as shown.
func barsOf(t *testing.T, ctx context.Context, selector string) map[string]string {
	t.Helper()
	raw := eval[string](t, ctx, fmt.Sprintf(`JSON.stringify(Object.fromEntries([...document.querySelectorAll(%q)].map(
		l => [l.children[0].textContent, l.children[1].textContent])))`, selector+" .bar-label"))
	out := map[string]string{}
	require.NoError(t, json.Unmarshal([]byte(raw), &out))
	return out
}

// press clicks the element selector matches through the page: the toasts
// of earlier actions may cover it on the screen for a few seconds.
func press(t *testing.T, ctx context.Context, selector string) {
	t.Helper()
	require.True(t, eval[bool](t, ctx, fmt.Sprintf(`(b => !!b && (b.click(), true))(document.querySelector(%q))`, selector)), selector)
}

// setValue types text into an input or textarea as a person would.
func setValue(t *testing.T, ctx context.Context, selector, text string) {
	t.Helper()
	eval[bool](t, ctx, fmt.Sprintf(`(() => { const i = document.querySelector(%q); i.value = %q;
		i.dispatchEvent(new Event('input', {bubbles: true})); return true })()`, selector, text))
}

// adminMoreApp is a small real library served on 127.0.0.1, with
// torrent_search named in DISABLED_PLUGINS (a plugin that is not loaded).
type adminMoreApp struct {
	*libApp
	base string
}

func newAdminMoreApp(t *testing.T) (*adminMoreApp, func() error) {
	t.Helper()
	la := newLibAppEnv(t, nil, map[string]string{"DISABLED_PLUGINS": "torrent_search"})
	la.put(t, map[string]string{
		"Фильмы/Боевики/Heat (1995)/Heat.1995.mkv":                "heat",
		"Фильмы/Комедии/Брат (1997)/Brat.1997.mkv":                "brat",
		"Фильмы/Фантастика/The Matrix (1999)/The.Matrix.1999.mkv": "matrix",
		"Сериалы/Dark (2017)/Season 1/Dark.S01E01.mkv":            "e1",
		"Сериалы/Dark (2017)/Season 1/Dark.S01E02.mkv":            "e2",
	})
	la.scan(t)
	addr, stop := runOnLoopback(t, la.testApp)
	return &adminMoreApp{libApp: la, base: "http://" + addr}, stop
}

func TestAdminMoreTabsInABrowser(t *testing.T) {
	t.Parallel()
	wa, stop := newAdminMoreApp(t)
	defer func() { require.NoError(t, stop()) }()
	b, closeBrowser := newPageBrowser(t)
	defer closeBrowser()
	shots := t.TempDir()

	// Overview: the counts and the category chart are the API's.
	_, stats := wa.do(t, "GET", "/api/media-admin/stats", wa.admin, nil)
	tab := openAdmin(t, b, wa.base, wa.admin, "overview")
	ctx := tab.ctx
	until(t, ctx, "the counts are drawn", `document.querySelector('#ov-counts [data-stat="movies"] .num') !== null`)
	counts := stats["counts"].(map[string]any)
	for _, k := range []string{"movies", "series", "seasons", "episodes", "missing"} {
		assert.Equal(t, fmt.Sprint(counts[k]), visibleText(t, ctx, fmt.Sprintf(`#ov-counts [data-stat=%q] .num`, k)), k)
	}
	assert.Equal(t, 3.0, counts["movies"], "Heat, Брат and The Matrix")
	lang := eval[string](t, ctx, `document.documentElement.lang`)
	want := map[string]string{}
	for _, c := range stats["by_category"].([]any) {
		c := c.(map[string]any)
		if c["count"].(float64) > 0 {
			want[c["title_"+lang].(string)] = fmt.Sprint(c["count"])
		}
	}
	assert.Len(t, want, 4, "action, comedy, sci-fi and the uncategorized series")
	assert.Equal(t, want, barsOf(t, ctx, "#ov-categories"), "the chart shows the API's counts")
	decades := barsOf(t, ctx, "#ov-decades")
	assert.Len(t, decades, 2, "the 1990s and the 2010s: %v", decades)
	assert.Contains(t, visibleText(t, ctx, "#ov-disks"), "Disk 1")
	until(t, ctx, "the disk's space is measured", `document.querySelector('#ov-disks progress') !== null`)
	until(t, ctx, "downloads say the client is not there", `document.querySelector('#ov-torrents [data-state="off"]') !== null`)
	until(t, ctx, "the model is shown", `document.getElementById('ov-ai').textContent.length > 0`)

	// A scan started through the API shows up live, newest first.
	resp, body := wa.do(t, "POST", "/api/media-admin/scan", wa.admin, nil)
	require.Equal(t, 202, resp.StatusCode, "%v", body)
	until(t, ctx, "the scan's events arrive", `document.querySelector('#ov-events li[data-event="scan_completed"]') !== null`)
	assert.Equal(t, "scan_completed", eval[string](t, ctx, `document.querySelector('#ov-events li').dataset.event`), "the newest is on top")
	assert.NotEmpty(t, eval[string](t, ctx, `document.querySelector('#ov-events li[data-event="scan_started"]')?.textContent || ''`))
	require.Eventually(t, func() bool {
		_, st := wa.do(t, "GET", "/api/media-admin/scan/status", wa.admin, nil)
		return st["state"] == "completed"
	}, 10*time.Second, 20*time.Millisecond)
	adminShots(t, ctx, shots, "overview", "admin-overview")

	// Semantic search: a build reaches done and a query finds the film.
	switchTab(t, ctx, "search")
	until(t, ctx, "the status is drawn", `document.querySelector('#rs-status dl') !== null`)
	click(t, ctx, "#rs-build")
	until(t, ctx, "the build completes", `document.querySelector('#rs-status dl[data-state="completed"]') !== null`)
	_, rag := wa.do(t, "GET", "/api/media-admin/rag/status", wa.admin, nil)
	assert.Equal(t, "completed", rag["state"])
	assert.Positive(t, rag["indexed"])
	setValue(t, ctx, "#rs-query", "The Matrix 1999")
	click(t, ctx, `#rs-form button[type="submit"]`)
	until(t, ctx, "results with scores", `document.querySelector('#rs-results tbody tr td.num') !== null`)
	assert.Contains(t, visibleText(t, ctx, "#rs-results tbody tr"), "Matrix", "the best match is the film")
	adminShots(t, ctx, shots, "search", "admin-search")

	// Plugins: a toggle changes the API's state; a plugin that did not
	// load cannot be enabled, and the page says why in the API's words.
	switchTab(t, ctx, "plugins")
	pluginState := func(name string) map[string]any {
		_, st := wa.do(t, "GET", "/api/admin/plugin/"+name+"/status", wa.admin, nil)
		return st
	}
	require.Equal(t, true, pluginState("rag")["enabled"])
	click(t, ctx, `input[data-plugin="rag"]`)
	require.Eventually(t, func() bool { return pluginState("rag")["enabled"] == false }, 5*time.Second, 20*time.Millisecond)
	until(t, ctx, "the row shows it off", `!document.querySelector('input[data-plugin="rag"]').checked && !document.querySelector('input[data-plugin="rag"]').disabled`)
	_, list := wa.raw(t, "GET", "/api/admin/plugins", wa.admin, nil)
	var plugins []map[string]any
	require.NoError(t, json.Unmarshal(list, &plugins))
	assert.Equal(t, "rag", plugins[3]["name"], "in load order")
	assert.Equal(t, false, plugins[3]["enabled"])
	click(t, ctx, `input[data-plugin="rag"]`)
	require.Eventually(t, func() bool { return pluginState("rag")["enabled"] == true }, 5*time.Second, 20*time.Millisecond)
	// torrent_search is named in DISABLED_PLUGINS (telegram, without a
	// token, is not loaded either).
	notLoaded := "torrent_search"
	require.Equal(t, false, pluginState(notLoaded)["loaded"], "named in DISABLED_PLUGINS: %v", plugins)
	sel := fmt.Sprintf(`input[data-plugin=%q]`, notLoaded)
	if pluginState(notLoaded)["enabled"] == true {
		click(t, ctx, sel)
		require.Eventually(t, func() bool { return pluginState(notLoaded)["enabled"] == false }, 5*time.Second, 20*time.Millisecond)
		until(t, ctx, "switched off", fmt.Sprintf(`!document.querySelector(%q).checked && !document.querySelector(%q).disabled`, sel, sel))
	}
	resp, refused := wa.do(t, "POST", "/api/admin/plugin/"+notLoaded+"/status", wa.admin, map[string]any{"enabled": true})
	require.Equal(t, 409, resp.StatusCode)
	message := refused["error"].(map[string]any)["message"].(string)
	click(t, ctx, sel)
	until(t, ctx, "the refusal is shown in the API's words", fmt.Sprintf(`[...document.querySelectorAll('#toasts .toast.error')].some(x => x.textContent.includes(%q))`, message))
	until(t, ctx, "the switch is put back", fmt.Sprintf(`!document.querySelector(%q).checked`, sel))
	assert.Equal(t, false, pluginState(notLoaded)["enabled"])

	// The table is the API's list, row by row, in load order.
	_, list = wa.raw(t, "GET", "/api/admin/plugins", wa.admin, nil)
	require.NoError(t, json.Unmarshal(list, &plugins))
	var rows [][]string
	require.NoError(t, json.Unmarshal([]byte(eval[string](t, ctx, `JSON.stringify([...document.querySelectorAll('#pl-list tbody tr')].map(tr => [
		tr.dataset.plugin, tr.cells[0].textContent, String(tr.querySelector('input.switch').checked),
		String(tr.cells[3].querySelector('.ok') !== null), String(tr.cells[4].querySelector('.ok') !== null), tr.cells[5].textContent]))`)), &rows))
	require.Len(t, rows, len(plugins))
	for i, p := range plugins {
		lastErr := "—"
		if e, _ := p["last_error"].(string); e != "" {
			lastErr = e
		}
		assert.Equal(t, []string{p["name"].(string), fmt.Sprint(p["order"]), fmt.Sprint(p["enabled"]), fmt.Sprint(p["loaded"]), fmt.Sprint(p["running"]), lastErr}, rows[i], "row %d", i)
	}
	adminShots(t, ctx, shots, "plugins", "admin-plugins")

	// AI: save the instruction, add a key and delete it, reset.
	switchTab(t, ctx, "ai")
	until(t, ctx, "the provider is shown", `document.querySelector('#ai-model [data-provider="offline"]') !== null`)
	setValue(t, ctx, "#ai-instruction", "  Отвечай кратко, по-русски.  ")
	press(t, ctx, "#ai-save")
	until(t, ctx, "saved", `document.querySelector('#ai-instruction-state .state.ok') !== null`)
	_, si := wa.do(t, "GET", "/api/admin/system_instruction", wa.admin, nil)
	assert.Equal(t, "Отвечай кратко, по-русски.", si["content"])
	assert.Equal(t, false, si["is_default"])

	setValue(t, ctx, "#ai-new-name", "spare")
	setValue(t, ctx, "#ai-new-key", "AIzaSyTEST-0123456789abcdef")
	setValue(t, ctx, "#ai-new-quota", "50")
	press(t, ctx, `#ai-add button[type="submit"]`)
	until(t, ctx, "the key is listed", `document.querySelector('#ai-keys tr[data-key="spare"]') !== null`)
	row := visibleText(t, ctx, `#ai-keys tr[data-key="spare"]`)
	assert.Contains(t, row, "AIza…cdef", "masked")
	assert.NotContains(t, row, "0123456789", "never the key itself")
	assert.Empty(t, eval[string](t, ctx, `document.getElementById('ai-new-key').value`), "the typed key is not kept in the page")
	_, key := wa.do(t, "GET", "/api/keys/spare", wa.admin, nil)
	assert.Equal(t, 50.0, key["daily_quota"])

	// The key used up its quota today; the reset gives it a fresh one.
	_, err := sqlstoretest.Raw(t, wa.cfg.DBPath()).Exec(`UPDATE api_keys SET used_today = 50, used_day = ? WHERE key_name = 'spare'`,
		time.Now().UTC().Format(time.DateOnly))
	require.NoError(t, err)
	switchTab(t, ctx, "plugins")
	switchTab(t, ctx, "ai")
	until(t, ctx, "the used-up quota shows", `(document.querySelector('#ai-keys tr[data-key="spare"]')?.textContent || '').includes('50 / 50')`)
	press(t, ctx, `#ai-keys tr[data-key="spare"] button[data-act="reset-quota"]`)
	until(t, ctx, "the quota is back", `document.querySelector('#ai-keys tr[data-key="spare"]').textContent.includes('0 / 50')`)
	until(t, ctx, "and told", `[...document.querySelectorAll('#toasts .toast')].some(x => x.textContent === 'The quota of key spare is reset' || x.textContent === 'Квота ключа spare сброшена')`)
	_, key = wa.do(t, "GET", "/api/keys/spare", wa.admin, nil)
	assert.Equal(t, 0.0, key["used_today"])

	press(t, ctx, `#ai-keys tr[data-key="spare"] button[data-act="disable"]`)
	until(t, ctx, "switched off", `document.querySelector('#ai-keys tr[data-key="spare"] button[data-act="enable"]') !== null`)
	_, key = wa.do(t, "GET", "/api/keys/spare", wa.admin, nil)
	assert.Equal(t, "disabled", key["status"])
	press(t, ctx, `#ai-keys tr[data-key="spare"] .confirm button.danger`)
	press(t, ctx, `#ai-keys tr[data-key="spare"] button[data-confirm="yes"]`)
	until(t, ctx, "the key is gone", `document.querySelector('#ai-keys tr[data-key="spare"]') === null`)
	resp, _ = wa.do(t, "GET", "/api/keys/spare", wa.admin, nil)
	assert.Equal(t, 404, resp.StatusCode)

	setValue(t, ctx, "#ai-new-name", "bad name")
	setValue(t, ctx, "#ai-new-key", "x")
	press(t, ctx, `#ai-add button[type="submit"]`)
	assert.True(t, eval[bool](t, ctx, `!document.getElementById('ai-new-name').validity.valid`), "a bad name is refused before any request")

	press(t, ctx, "#ai-reset")
	press(t, ctx, `.confirm button[data-confirm="yes"]`)
	until(t, ctx, "the default is back", `document.querySelector('#ai-instruction-state .state.ok') === null`)
	_, si = wa.do(t, "GET", "/api/admin/system_instruction", wa.admin, nil)
	assert.Equal(t, true, si["is_default"])
	assert.Equal(t, si["content"], eval[string](t, ctx, `document.getElementById('ai-instruction').value`))
	adminShots(t, ctx, shots, "ai", "admin-ai")

	tab.noFailedRequests(t, "/api/torrents", "/api/admin/plugin/"+notLoaded+"/status")
	b.noProblems(t)
	t.Logf("screenshots in %s", shots)
}
