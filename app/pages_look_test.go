package app

import (
	"context"
	"fmt"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Both pages in both languages and themes, on a phone and a desktop, while
// a film plays (paused, with its subtitles) and the remote drives it:
// nothing is wider than the screen, thumbnails are shown, and each look is
// saved as a screenshot. Then: the language comes from the browser until
// one is picked, and is remembered; the theme follows the system until
// flipped, and the flip is remembered.
func TestPagesOnPhoneAndDesktop(t *testing.T) {
	t.Parallel()
	wa, stop := newScreenApp(t)
	defer func() { require.NoError(t, stop()) }()
	b, closeBrowser := newPageBrowser(t)
	defer closeBrowser()
	player := b.tab(t, "player")
	openSignedIn(t, player, wa.base, wa.user, "/player")
	remote := b.tab(t, "remote")
	openSignedIn(t, remote, wa.base, wa.user, "/remote")
	until(t, remote, "the remote sees the player", `document.getElementById('presence').dataset.players === '1'`)
	pickOnRemote(t, remote, "heat", "Heat")
	until(t, player, "the film plays", `document.getElementById('video').currentTime > 2`)
	click(t, remote, "#toggle")
	until(t, player, "paused", `document.getElementById('video').paused`)
	eval[bool](t, player, `(s => { s.value = '0'; s.dispatchEvent(new Event('change')); return true })(document.getElementById('subs'))`)
	eval[bool](t, remote, `(document.getElementById('search').value = '') === '' && document.getElementById('search').dispatchEvent(new Event('input'))`)

	dir := t.TempDir()
	for _, width := range []int64{375, 1280} {
		for _, scheme := range []string{"dark", "light"} {
			for _, lang := range []string{"ru", "en"} {
				for name, tab := range map[string]context.Context{"player": player, "remote": remote} {
					restyle(t, tab, width, scheme, lang)
					until(t, tab, "thumbnails", `[...document.querySelectorAll('.grid .card img')].filter(i => !i.hidden && i.src.startsWith('blob:')).length >= 1`)
					assert.LessOrEqual(t, eval[int](t, tab, `document.documentElement.scrollWidth`), int(width), "%s at %d px is no wider than the screen", name, width)
					screenshot(t, tab, dir, fmt.Sprintf("%s-%d-%s-%s", name, width, scheme, lang))
				}
			}
		}
	}
	require.NoError(t, chromedp.Do(remote, chromedp.SendKeys(chromedp.CSS("#search"), "dark")))
	until(t, remote, "the series is found", `document.querySelector('.results .card .name')?.textContent === 'Dark'`)
	click(t, remote, ".results .card")
	until(t, remote, "its episodes", `document.querySelectorAll('.drill .episode img:not([hidden])').length === 2`)
	screenshot(t, remote, dir, "remote-1280-light-en-series")
	restyle(t, remote, 375, "dark", "ru")
	until(t, remote, "the episodes in the new language", `document.querySelector('.drill .episode .name')?.textContent === 'Серия 1' && document.querySelector('.drill .back')?.textContent.includes('Назад')`)
	screenshot(t, remote, dir, "remote-375-dark-ru-series")

	checkLanguageAndThemeChoice(t, b, wa)
	b.noProblems(t)
}

// restyle changes how a tab looks without reloading it (the film stays
// where it is): its width (375: a phone), the system's colour scheme, and
// the language, picked with the page's own button.
func restyle(t *testing.T, ctx context.Context, width int64, scheme, lang string) {
	t.Helper()
	emulateScreen(t, ctx, width, scheme)
	if eval[string](t, ctx, `document.documentElement.lang`) != lang {
		click(t, ctx, "#lang")
	}
	until(t, ctx, "the look applies", fmt.Sprintf(`document.documentElement.lang === %q && document.documentElement.dataset.theme === %q`, lang, scheme))
}

// checkLanguageAndThemeChoice opens the remote in a browser that prefers
// Russian and has never been told a language or a theme.
func checkLanguageAndThemeChoice(t *testing.T, b *pageBrowser, wa *screenApp) {
	t.Helper()
	tab := b.tab(t, "choices")
	_, err := chromedp.Call(tab, emulation.SetUserAgentOverride, emulation.SetUserAgentOverrideParams{
		UserAgent: "Mozilla/5.0 (X11; Linux x86_64) Chrome/140", AcceptLanguage: "ru-RU,ru"})
	require.NoError(t, err)
	openSignedIn(t, tab, wa.base, wa.user, "/remote")
	eval[bool](t, tab, `localStorage.removeItem('mediateka_lang') || localStorage.removeItem('mediateka_theme') || true`)
	require.NoError(t, chromedp.Do(tab, chromedp.Reload()))
	until(t, tab, "Russian from the browser", `document.documentElement.lang === 'ru' && document.querySelector('.pages a[href="/remote"]').textContent === 'Пульт'`)
	click(t, tab, "#lang")
	until(t, tab, "switched to English", `document.querySelector('.pages a[href="/remote"]').textContent === 'Remote'`)
	require.NoError(t, chromedp.Do(tab, chromedp.Reload()))
	until(t, tab, "English is remembered", `document.documentElement.lang === 'en' && document.getElementById('conn').dataset.state === 'open'`)
	for _, scheme := range []string{"dark", "light"} {
		_, err := chromedp.Call(tab, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
		require.NoError(t, err)
		until(t, tab, "the system's theme", fmt.Sprintf(`document.documentElement.dataset.theme === %q`, scheme))
	}
	click(t, tab, "#theme")
	assert.Equal(t, "dark", eval[string](t, tab, `document.documentElement.dataset.theme`), "flipped against the system")
	require.NoError(t, chromedp.Do(tab, chromedp.Reload()))
	until(t, tab, "the flip is remembered", `document.documentElement.dataset.theme === 'dark'`)
}
