package app

import (
	"fmt"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// newShelfApp is a running app whose library has films in three categories
// and a series of two seasons.
func newShelfApp(t *testing.T) (*libApp, string, func() error) {
	t.Helper()
	la := newLibApp(t, nil)
	la.put(t, map[string]string{
		"Фильмы/Боевики/Heat (1995)/Heat.1995.1080p.mkv":               "video",
		"Фильмы/Боевики/Ronin (1998)/Ronin.1998.720p.mkv":              "video",
		"Фильмы/Комедии/Брат (1997)/Brat.1997.mkv":                     "video",
		"Фильмы/Фантастика/The Matrix (1999)/The.Matrix.1999.mkv":      "video",
		"Сериалы/Breaking Bad (2008)/Season 1/Breaking.Bad.S01E01.mkv": "video",
		"Сериалы/Breaking Bad (2008)/Season 1/Breaking.Bad.S01E02.mkv": "video",
		"Сериалы/Breaking Bad (2008)/Season 2/Breaking.Bad.S02E01.mkv": "video",
	})
	la.scan(t)
	addr, stop := runOnLoopback(t, la.testApp)
	return la, "http://" + addr, stop
}

// Both pages in both languages and themes, on a phone and a desktop: the
// language comes from the browser until one is picked (and is then
// remembered), the theme from the system until flipped, nothing is wider
// than a phone's screen, and each look is saved as a screenshot.
func TestPagesOnPhoneAndDesktop(t *testing.T) {
	la, base, stop := newShelfApp(t)
	defer func() { require.NoError(t, stop()) }()
	b, closeBrowser := newPageBrowser(t)
	defer closeBrowser()
	player := joinRoom(t, base[len("http://"):], "player", "viewer@example.org", la.user)
	heat := la.idOf(t, "Фильмы/Боевики/Heat (1995)/Heat.1995.1080p.mkv")
	player.say(map[string]any{"event": "metadata_update", "title": "Heat", "year": 1995, "media_id": heat})
	player.say(map[string]any{"event": "playlist_update", "files": []any{
		map[string]any{"file": fmt.Sprintf("media:%d", heat), "title": "Heat", "media_id": heat}, "/srv/films/Ronin.1998.mkv"}})
	player.say(map[string]any{"event": "status_update", "state": "paused", "position": 2521, "duration": 10240, "volume": 70})

	tab := b.tab(t, "pages")
	_, err := chromedp.Call(tab, emulation.SetUserAgentOverride, emulation.SetUserAgentOverrideParams{
		UserAgent: "Mozilla/5.0 (X11; Linux x86_64) Chrome/140", AcceptLanguage: "ru-RU,ru"})
	require.NoError(t, err)
	openSignedIn(t, tab, base, la.user, "/remote")
	until(t, tab, "Russian from the browser", `document.documentElement.lang === 'ru' && document.querySelector('.pages a[href="/remote"]').textContent === 'Пульт'`)
	click(t, tab, "#lang")
	until(t, tab, "switched to English", `document.querySelector('.pages a[href="/remote"]').textContent === 'Remote'`)
	require.NoError(t, chromedp.Do(tab, chromedp.Reload()))
	until(t, tab, "English is remembered", `document.documentElement.lang === 'en' && document.getElementById('now-title').textContent !== 'Nothing is playing'`)
	theme := eval[string](t, tab, `document.documentElement.dataset.theme`)
	click(t, tab, "#theme")
	assert.NotEqual(t, theme, eval[string](t, tab, `document.documentElement.dataset.theme`), "the theme flips")
	require.NoError(t, chromedp.Do(tab, chromedp.Reload()))
	until(t, tab, "the flip is remembered", fmt.Sprintf(`document.documentElement.dataset.theme && document.documentElement.dataset.theme !== %q`, theme))

	dir := t.TempDir()
	for _, page := range []string{"remote", "player"} {
		require.NoError(t, chromedp.Do(tab, chromedp.Navigate(base+"/"+page)))
		for _, width := range []int64{375, 1280} {
			for _, scheme := range []string{"dark", "light"} {
				for _, lang := range []string{"ru", "en"} {
					look(t, tab, width, scheme, lang)
					require.NoError(t, chromedp.Do(tab, chromedp.Reload()))
					until(t, tab, "the page is drawn", fmt.Sprintf(`document.documentElement.lang === %q && document.documentElement.dataset.theme === %q
						&& document.querySelectorAll('.grid .card').length >= 2 && document.getElementById('conn').dataset.state === 'open'`, lang, scheme))
					if page == "remote" {
						until(t, tab, "the player's report", `/^42:01 \/ 2:50:40$/.test(document.getElementById('time').textContent)`)
					}
					assert.LessOrEqual(t, eval[int](t, tab, `document.documentElement.scrollWidth`), int(width), "%s at %d px is no wider than the screen", page, width)
					screenshot(t, tab, dir, fmt.Sprintf("%s-%d-%s-%s", page, width, scheme, lang))
				}
			}
		}
	}
	b.noProblems(t)
}
