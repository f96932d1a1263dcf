package app

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/repository/exectest"
	"mediateka/repository/qbittorrent/qbittest"
	"mediateka/repository/torznab/torznabtest"
	"mediateka/usecase/torrent/torrenttest"
)

// fill sets an input's value as typing does (an input event follows).
func fill(t *testing.T, ctx context.Context, selector, value string) {
	t.Helper()
	eval[bool](t, ctx, fmt.Sprintf(`(e => { e.value = %q; e.dispatchEvent(new Event('input', {bubbles: true})); return true })(document.querySelector(%q))`, value, selector))
}

// pick chooses a select's option by value as a person does (a change event follows).
func pick(t *testing.T, ctx context.Context, selector, value string) {
	t.Helper()
	require.True(t, eval[bool](t, ctx, fmt.Sprintf(`(e => { e.value = %q; e.dispatchEvent(new Event('change', {bubbles: true})); return e.value === %q })(document.querySelector(%q))`, value, value, selector)),
		"%s has the option %q", selector, value)
}

// recordToasts keeps every message the page shows in window.__toasts
// ("info: text", "error: text"), so a test sees one even after it faded.
func recordToasts(t *testing.T, ctx context.Context) {
	t.Helper()
	eval[bool](t, ctx, `window.__toasts = []; new MutationObserver(ms => { for (const m of ms) for (const n of m.addedNodes)
		if (n.classList?.contains('toast')) window.__toasts.push((n.classList.contains('error') ? 'error: ' : 'info: ') + n.textContent) })
		.observe(document.body, {childList: true, subtree: true}); true`)
}

// toastShown is the JavaScript saying whether the message text was shown.
func toastShown(kind, text string) string {
	return fmt.Sprintf(`window.__toasts.includes(%q)`, kind+": "+text)
}

// torrentRow is the JavaScript for the list's row of a torrent.
func torrentRow(hash string) string {
	return fmt.Sprintf(`document.querySelector('#atr-list [data-hash=%q]')?.closest('tr')`, hash)
}

// The Torrents tab against a real qbittorrent-nox and a fake Torznab
// indexer: a magnet, a .torrent file (sent as it is, listed at once with
// its own name and size since the client has its metadata) and a search
// result are added and listed; the library's film is marked in the
// search; the categories' dry run shows its plan before it is applied;
// relocation reports; then the client goes away and the list says so in
// place, without a message every refresh.
func TestAdminTabsTorrents(t *testing.T) {
	t.Parallel()
	d := qbittest.Start(t)
	jackett := torznabtest.Start(t, torznabtest.Options{APIKey: indexerKey, Items: jackettItems()})
	env := indexerConfig(t, indexer("jackett", jackett, ""))
	for k, v := range map[string]string{"MEDIATEKA_TORRENT_CLIENT__URL": d.URL, "MEDIATEKA_TORRENT_CLIENT__USERNAME": d.Username,
		"MEDIATEKA_TORRENT_CLIENT__PASSWORD": d.Password} {
		env[k] = v
	}
	la := newLibAppEnv(t, nil, env)
	la.put(t, map[string]string{"Interstellar (2014)/Interstellar.2014.mkv": "film"})
	la.scan(t)
	id := la.idOf(t, "Interstellar (2014)/Interstellar.2014.mkv")
	resp, body := la.do(t, "PATCH", fmt.Sprintf("/api/media-admin/media/%d", id), la.admin, map[string]any{"main_category": "sci_fi"})
	require.Equal(t, 200, resp.StatusCode, "%v", body)
	addr, stop := runOnLoopback(t, la.testApp)
	defer func() { require.NoError(t, stop()) }()
	base := "http://" + addr
	b, closeBrowser := newPageBrowser(t)
	defer closeBrowser()

	tab := openAdmin(t, b, base, la.admin, "torrents")
	ctx := tab.ctx
	look(t, ctx, 1024, "light", "en")
	require.NoError(t, chromedp.Do(ctx, chromedp.Reload()))
	waitTab(t, ctx, "torrents")
	until(t, ctx, "an empty list", `document.querySelector('#atr-list td.empty') !== null`)
	recordToasts(t, ctx)

	fill(t, ctx, "#atr-link", filmMagnet)
	click(t, ctx, "#atr-add")
	until(t, ctx, "the magnet is listed, waiting for its metadata", torrentRow(filmHash)+`?.innerText.includes('Metadata')`)
	until(t, ctx, "its addition is told", toastShown("info", "Added: "+filmHash))
	assert.Contains(t, eval[string](t, ctx, torrentRow(filmHash)+`.innerText`), "0.0 %", "its progress is shown")

	file, fileHash := torrenttest.SingleFile("Another.Film.2021.mkv", bytes.Repeat([]byte("v"), 40_000))
	path := filepath.Join(t.TempDir(), "another.torrent")
	require.NoError(t, os.WriteFile(path, file, 0o644))
	require.NoError(t, chromedp.Do(ctx, chromedp.SetUploadFiles(chromedp.CSS("#atr-file"), []string{path})))
	until(t, ctx, "the .torrent file is listed under the hash of its info dictionary", torrentRow(fileHash)+` != null`)
	until(t, ctx, "the client has the file's metadata at once", torrentRow(fileHash)+`.innerText.includes('Another.Film.2021.mkv')`)
	assert.NotContains(t, eval[string](t, ctx, torrentRow(fileHash)+`.innerText`), "Metadata", "no waiting for peers")

	// A link to a .torrent: the server fetches it and adds what it holds.
	linked, linkedHash := torrenttest.SingleFile("Linked.Film.2019.mkv", bytes.Repeat([]byte("l"), 30_000))
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/x-bittorrent")
		_, _ = w.Write(linked)
	}))
	defer site.Close()
	fill(t, ctx, "#atr-link", site.URL+"/download/linked.torrent")
	click(t, ctx, "#atr-add")
	until(t, ctx, "the linked .torrent is listed", torrentRow(linkedHash)+`?.innerText.includes('Linked.Film.2019.mkv')`)
	until(t, ctx, "its addition is told", toastShown("info", "Added: "+linkedHash))

	fill(t, ctx, "#atr-query", "Interstellar")
	click(t, ctx, "#atr-find")
	until(t, ctx, "the indexer's results", `document.querySelectorAll('#atr-results tbody tr').length === 3`)
	marked := eval[[]string](t, ctx, `[...document.querySelectorAll('#atr-results tbody tr[data-in-library="true"]')].map(r => r.querySelector('.title').textContent)`)
	assert.Contains(t, marked, "Interstellar.2014.1080p.BluRay.x264", "the film the library has is marked")
	assert.Contains(t, visibleText(t, ctx, "#atr-results"), "already in the library: Interstellar")
	eval[bool](t, ctx, `([...document.querySelectorAll('#atr-results tbody tr')].find(r => r.querySelector('.title').textContent === 'Interstellar.2014.1080p.BluRay.x264').querySelector('button').click(), true)`)
	until(t, ctx, "the search result is downloading", torrentRow(hash1080)+` != null`)

	assert.True(t, eval[bool](t, ctx, `document.getElementById('atr-apply').disabled`), "nothing to apply before a plan")
	click(t, ctx, "#atr-dry-run")
	until(t, ctx, "the plan", `document.querySelector('#atr-plan h3')?.textContent === 'Plan (nothing changed)'`)
	plan := visibleText(t, ctx, "#atr-plan")
	assert.Contains(t, plan, "sci_fi", "the film's category is planned: %s", plan)
	assert.NotContains(t, eval[string](t, ctx, torrentRow(hash1080)+`.innerText`), "sci_fi", "a dry run changes nothing")
	until(t, ctx, "apply is offered", `!document.getElementById('atr-apply').disabled`)
	click(t, ctx, "#atr-apply")
	until(t, ctx, "applied", `document.querySelector('#atr-plan h3')?.textContent === 'Applied'`)
	until(t, ctx, "the torrent is filed under the category", torrentRow(hash1080)+`?.innerText.includes('sci_fi')`)
	until(t, ctx, "nothing more to apply", `document.getElementById('atr-apply').disabled`)

	click(t, ctx, "#atr-run-relocate")
	until(t, ctx, "the relocation is told", toastShown("info", "Relocated: 0 · Not found: 0"))
	until(t, ctx, "the relocation's outcome", `document.getElementById('atr-relocate').innerText.includes("relocated 0, not found 0")`)
	until(t, ctx, "and its job state", `document.getElementById('atr-relocate').innerText.includes('completed')`)

	dir := t.TempDir()
	tab.noFailedRequests(t)
	adminShots(t, ctx, dir, "torrents", "admin-torrents")

	look(t, ctx, 1024, "dark", "en")
	require.NoError(t, chromedp.Do(ctx, chromedp.Reload()))
	waitTab(t, ctx, "torrents")
	until(t, ctx, "the list is back", torrentRow(hash1080)+` != null`)
	recordToasts(t, ctx)
	d.Stop()
	until(t, ctx, "the client's absence is shown in place", `(e => !e.hidden && e.innerText.includes('The torrent client is unavailable'))(document.getElementById('atr-down'))`)
	asked := len(tab.requests.urls("/api/torrents"))
	require.Eventually(t, func() bool { return len(tab.requests.urls("/api/torrents")) >= asked+2 }, 15*time.Second, 100*time.Millisecond,
		"the list is asked again twice")
	assert.Empty(t, eval[[]string](t, ctx, `window.__toasts`), "no message per refresh")
	screenshot(t, ctx, dir, "admin-torrents-down-1024-dark-en")
	tab.noFailedRequests(t, "503 "+base+"/api/torrents")
	b.noProblems(t)
}

// The Logs tab on the server's own log, with lines holding markup added:
// the viewer opens it, filters by level and by words, and shows the markup
// as text; the statistics draw the hour of the error; an analysis is
// followed to its report, rendered (markup as text again); a file is
// cleared after a confirmation.
func TestAdminTabsLogs(t *testing.T) {
	t.Parallel()
	la := newLibApp(t, nil)
	addr, stop := runOnLoopback(t, la.testApp)
	defer func() { require.NoError(t, stop()) }()
	base := "http://" + addr
	// A record of the server's own logger and a crash trace beside the
	// log, both holding markup that must never run.
	la.Logger().Error("upload failed: <script>window.__xss=1</script>", "where", "<img src=x onerror=window.__xss=2>")
	require.NoError(t, os.WriteFile(filepath.Join(la.cfg.LogDir, "crash.log"),
		[]byte("panic: <b>boom</b> in the *middle* of | a table\ngoroutine 1 [running]:\n"), 0o644))
	b, closeBrowser := newPageBrowser(t)
	defer closeBrowser()
	tab := openAdmin(t, b, base, la.admin, "logs")
	ctx := tab.ctx
	look(t, ctx, 1024, "light", "en")
	require.NoError(t, chromedp.Do(ctx, chromedp.Reload()))
	waitTab(t, ctx, "logs")

	until(t, ctx, "the files", `document.querySelector('[data-file="mediateka.log"]') !== null`)
	until(t, ctx, "the server's own log is open", `document.getElementById('alog-shown').textContent.startsWith('mediateka.log: ')`)
	until(t, ctx, "with the added lines", `document.getElementById('alog-lines').innerText.includes('upload failed: <script>window.__xss=1</script>')`)
	lines := visibleText(t, ctx, "#alog-lines")
	assert.Contains(t, lines, "where=<img src=x onerror=window.__xss=2>", "attributes as text")
	assert.Contains(t, lines, "http", "the server's own lines are there too")

	pick(t, ctx, "#alog-level", "error")
	until(t, ctx, "only errors", `(l => l.length > 0 && l.every(e => e.dataset.level === 'error'))([...document.querySelectorAll('#alog-lines li')])`)
	pick(t, ctx, "#alog-level", "")
	fill(t, ctx, "#alog-q", "UPLOAD failed")
	until(t, ctx, "the search finds the one line", `document.querySelectorAll('#alog-lines li').length === 1 && document.getElementById('alog-lines').innerText.includes('upload failed')`)
	pick(t, ctx, "#alog-tail", "100")
	until(t, ctx, "the tail size is asked", `document.getElementById('alog-shown').textContent.includes('1 of')`)
	require.Eventually(t, func() bool { return len(tab.requests.urls("tail=100&q=UPLOAD+failed")) > 0 }, 5*time.Second, 50*time.Millisecond,
		"the filters travel to the server")
	fill(t, ctx, "#alog-q", "")
	until(t, ctx, "the search is cleared", `document.querySelectorAll('#alog-lines li').length > 1`)
	eval[bool](t, ctx, `(document.querySelector('[data-file="crash.log"] .alog-open').click(), true)`)
	until(t, ctx, "another file opens", `document.getElementById('alog-shown').textContent === 'crash.log: 2 of 2 lines shown'`)
	assert.Contains(t, visibleText(t, ctx, "#alog-lines"), "panic: <b>boom</b> in the *middle* of | a table", "a line that is not a record, as it is")

	until(t, ctx, "the errors of the last day are drawn", `document.querySelectorAll('#alog-hourly rect').length === 24`)
	last := eval[float64](t, ctx, `Number([...document.querySelectorAll('#alog-hourly rect')].at(-1).getAttribute('height'))`)
	assert.Greater(t, last, 0.0, "this hour's column shows the error")
	assert.Empty(t, tab.requests.urls("level=error&since="), "the chart is the statistics' own, no file is read for it")
	assert.GreaterOrEqual(t, eval[int](t, ctx, `Number(document.querySelector('.stat[data-level="error"] .num').textContent)`), 1)

	eval[bool](t, ctx, `([...document.querySelectorAll('[data-file="mediateka.log"] button')].find(b => b.textContent === 'Analyze').click(), true)`)
	until(t, ctx, "the report opens", `document.querySelector('#alog-report h2')?.textContent === 'Log analysis: mediateka.log'`)
	report := visibleText(t, ctx, "#alog-report")
	assert.Contains(t, report, "Lines per level")
	assert.Contains(t, report, "upload failed: <script>window.__xss=", "the template of the line with its markup as text")
	assert.Positive(t, eval[int](t, ctx, `document.querySelectorAll('#alog-report table').length`), "tables are tables")
	assert.Positive(t, eval[int](t, ctx, `document.querySelectorAll('#alog-report li').length`), "lists are lists")
	assert.Positive(t, eval[int](t, ctx, `document.querySelectorAll('#alog-report td code').length`), "code is code")
	until(t, ctx, "the report is listed", `document.querySelectorAll('.alog-report-link').length === 1`)
	assert.Zero(t, eval[int](t, ctx, `document.querySelectorAll('#panel script, #panel img, #panel b').length`), "no markup from the log became an element")
	assert.True(t, eval[bool](t, ctx, `window.__xss === undefined`), "nothing from the log ran")

	dir := t.TempDir()
	tab.noFailedRequests(t)
	adminShots(t, ctx, dir, "logs", "admin-logs")
	until(t, ctx, "the log is open again", `document.getElementById('alog-lines').innerText.includes('upload failed')`)
	click(t, ctx, ".alog-report-link")
	until(t, ctx, "a listed report opens", `document.querySelector('#alog-report h2')?.textContent === 'Log analysis: mediateka.log'`)
	screenshot(t, ctx, dir, "admin-logs-report-375-light-en")

	eval[bool](t, ctx, `([...document.querySelectorAll('[data-file="mediateka.log"] button')].find(b => b.textContent === 'Clear').click(), true)`)
	until(t, ctx, "a confirmation is asked", `document.querySelector('[data-file="mediateka.log"] .confirm-yes') !== null`)
	assert.Contains(t, visibleText(t, ctx, `[data-file="mediateka.log"]`), "Clear mediateka.log?")
	click(t, ctx, `[data-file="mediateka.log"] .confirm-yes`)
	until(t, ctx, "cleared", `[...document.querySelectorAll('#toasts .toast.info')].some(e => e.textContent === 'Files cleared: 1')`)
	until(t, ctx, "the viewer no longer has the lines", `!document.getElementById('alog-lines').innerText.includes('upload failed')`)
	st, err := os.Stat(filepath.Join(la.cfg.LogDir, "mediateka.log"))
	require.NoError(t, err)
	assert.Less(t, st.Size(), int64(4096), "the file was emptied (and the server logs on into it)")
	tab.noFailedRequests(t)
	b.noProblems(t)
}

// The Speech tab with espeak-ng and ffmpeg for real: the engines with
// their availability, the picker, a sample fetched with the header and
// played from a blob: URL; an engine that cannot speak answers with its
// reason, which the tab shows.
func TestAdminTabsSpeech(t *testing.T) {
	t.Parallel()
	exectest.Require(t, "espeak-ng", "espeak-ng")
	exectest.Require(t, "ffmpeg", "ffmpeg")
	la := newLibApp(t, nil)
	addr, stop := runOnLoopback(t, la.testApp)
	defer func() { require.NoError(t, stop()) }()
	base := "http://" + addr
	b, closeBrowser := newPageBrowser(t)
	defer closeBrowser()
	tab := openAdmin(t, b, base, la.admin, "speech")
	ctx := tab.ctx
	look(t, ctx, 1024, "light", "en")
	require.NoError(t, chromedp.Do(ctx, chromedp.Reload()))
	waitTab(t, ctx, "speech")

	until(t, ctx, "espeak is available", `document.querySelector('[data-engine="espeak"] .state.ok')?.textContent === 'available'`)
	resp, down := la.do(t, "GET", "/api/tts/synthesize?engine=google&text=hello", la.admin, nil)
	require.Equal(t, 503, resp.StatusCode, "%v", down)
	downMsg := down["error"].(map[string]any)["message"].(string)
	assert.NotEmpty(t, visibleText(t, ctx, `[data-engine="google"] .engine-message`), "why google cannot speak")
	assert.Equal(t, "espeak", eval[string](t, ctx, `document.getElementById('atts-engine').value`))
	assert.Greater(t, eval[int](t, ctx, `document.getElementById('atts-voice').options.length`), 10, "espeak-ng's voices")
	assert.Contains(t, eval[string](t, ctx, `document.getElementById('atts-voice').options[0].textContent`), "en-us", "the default voice per language")
	pick(t, ctx, "#atts-voice", "en-us")
	pick(t, ctx, "#atts-format", "mp3")
	fill(t, ctx, "#atts-text", "This is a sample of the speech of the media library, long enough to be heard for a while.")
	click(t, ctx, "#atts-play")
	audio := `document.getElementById('atts-audio')`
	until(t, ctx, "the sample plays from a blob: URL", audio+`.src.startsWith('blob:') && !`+audio+`.paused && `+audio+`.currentTime > 0.3`)
	asked := tab.requests.urls("/api/tts/synthesize")
	require.Len(t, asked, 1)
	assert.True(t, strings.HasPrefix(asked[0], base+"/api/tts/synthesize?text=This+is"), asked[0])
	assert.Contains(t, asked[0], "engine=espeak&format=mp3&voice=en-us")
	assert.NotContains(t, asked[0], "token", "the token travels in the header")
	tab.noFailedRequests(t) // the synthesis answered 200
	assert.Contains(t, visibleText(t, ctx, "#atts-status"), "espeak, en-us, mp3")
	dir := t.TempDir()
	screenshot(t, ctx, dir, "admin-speech-playing-1024-light-en")

	pick(t, ctx, "#atts-engine", "google")
	assert.Contains(t, visibleText(t, ctx, "#atts-engine-note"), "google is unavailable")
	click(t, ctx, "#atts-play")
	until(t, ctx, "the engine's reason is shown", fmt.Sprintf(`document.getElementById('atts-status').textContent === %q`, downMsg))
	until(t, ctx, "and told", fmt.Sprintf(`[...document.querySelectorAll('#toasts .toast.error')].some(e => e.textContent === %q)`, downMsg))
	assert.True(t, eval[bool](t, ctx, audio+`.paused`), "nothing plays")

	// A text over 5000 characters: the tab's own words under the button,
	// while the page's shared err.text_too_long (read aloud's) stays.
	pick(t, ctx, "#atts-engine", "espeak")
	eval[bool](t, ctx, `(e => { e.removeAttribute('maxlength'); e.value = 'a'.repeat(5001); return true })(document.getElementById('atts-text'))`)
	click(t, ctx, "#atts-play")
	until(t, ctx, "the tab's words for a text too long", `document.getElementById('atts-status').textContent === 'The text is over 5000 characters'`)
	eval[bool](t, ctx, `import('/assets/i18n.js').then((i) => { window.__tooLong = i.t('err.text_too_long'); }), true`)
	until(t, ctx, "the shared string is read", `window.__tooLong !== undefined`)
	assert.Equal(t, "The text is over 5000 characters: too long to read aloud", eval[string](t, ctx, `window.__tooLong`), "the global string is not overridden")

	// A blank text is refused in the tab's words, before any request.
	fill(t, ctx, "#atts-text", "   ")
	click(t, ctx, "#atts-play")
	until(t, ctx, "a blank text is refused", `document.getElementById('atts-status').textContent === 'Type a text'`)

	adminShots(t, ctx, dir, "speech", "admin-speech")
	tab.noFailedRequests(t, "engine=google", "text=aaaa")
	b.noProblems(t)
}
