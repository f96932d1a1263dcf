package app

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/repository/exectest"
)

// pageBrowser is headless Chromium for the tests of /player and /remote.
// Media may start without a tap, as on a TV where someone clicked once.
// Each tab's script errors, console errors and refused loads (the CSP's
// included) are kept, so a test can demand that there were none.
type pageBrowser struct {
	ctx      context.Context
	mu       sync.Mutex
	problems []string
}

// newPageBrowser starts the browser; the returned func closes it (before
// the servers stop, so kept-alive connections do not hold their shutdown).
func newPageBrowser(t *testing.T) (*pageBrowser, func()) {
	t.Helper()
	chromium := exectest.Require(t, "chromium", "chromium")[0]
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium), chromedp.NoSandbox, chromedp.Headless, chromedp.WindowSize(1280, 800),
		chromedp.Flag("autoplay-policy", "no-user-gesture-required"))...)
	ctx, cancel := chromedp.NewContext(alloc)
	ctx, cancelTimeout := context.WithTimeout(ctx, 4*time.Minute)
	require.NoError(t, chromedp.Do(ctx))
	return &pageBrowser{ctx: ctx}, func() { cancelTimeout(); cancel(); cancelAlloc() }
}

// tab opens a new tab of the browser, named in the problems it reports.
func (b *pageBrowser) tab(t *testing.T, name string) context.Context {
	t.Helper()
	ctx, _ := chromedp.NewContext(b.ctx)
	messages := chromedp.Console(ctx)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			// Answers of status >= 400 are the network's: a test looks at
			// what the page shows for them. Everything else is a defect.
			if (m.Type == chromedp.ConsoleError || m.IsException()) && m.Source != "network" {
				b.note(name + ": " + m.String() + " (" + m.URL + ")")
			}
		}
	}()
	return ctx
}

func (b *pageBrowser) note(p string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.problems = append(b.problems, p)
}

// noProblems fails the test for every error the pages raised.
func (b *pageBrowser) noProblems(t *testing.T) {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	assert.Empty(t, b.problems, "the pages ran without script errors, console errors or refused loads")
}

// openSignedIn signs the tab in the way the home page does (the token in
// localStorage) and opens path.
func openSignedIn(t *testing.T, ctx context.Context, base, token, path string) {
	t.Helper()
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(base+"/healthz")))
	eval[any](t, ctx, fmt.Sprintf(`localStorage.setItem('mediateka_token', %q)`, token))
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(base+path)))
}

// look sets how the tab looks: its width (375: a phone), the system's
// colour scheme and the language the page remembers. Reload to apply the
// language.
func look(t *testing.T, ctx context.Context, width int64, scheme, lang string) {
	t.Helper()
	height, mobile := int64(800), width < 600
	if mobile {
		height = 812
	}
	require.NoError(t, chromedp.Do(ctx,
		chromedp.EmulateViewport(width, height, func(p *emulation.SetDeviceMetricsOverrideParams, _ *emulation.SetTouchEmulationEnabledParams) {
			p.Mobile = mobile
		})))
	_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
	require.NoError(t, err)
	eval[any](t, ctx, fmt.Sprintf(`localStorage.setItem('mediateka_lang', %q); localStorage.removeItem('mediateka_theme')`, lang))
}

// screenshot saves the tab's whole page as name.png in dir, and also in
// the folder MEDIATEKA_SCREENSHOTS names, when set, for people to look at.
func screenshot(t *testing.T, ctx context.Context, dir, name string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644))
	if out := os.Getenv("MEDIATEKA_SCREENSHOTS"); out != "" {
		require.NoError(t, os.MkdirAll(out, 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(out, name+".png"), png, 0o644))
	}
}

// visibleText is the visible text of the element selector matches ("" when none).
func visibleText(t *testing.T, ctx context.Context, selector string) string {
	t.Helper()
	return eval[string](t, ctx, fmt.Sprintf(`(document.querySelector(%q) || {}).innerText || ''`, selector))
}

// click clicks the first element selector matches.
func click(t *testing.T, ctx context.Context, selector string) {
	t.Helper()
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(selector))), selector)
}

// slide moves a range input to value as a person's drag ends: input, then change.
func slide(t *testing.T, ctx context.Context, selector string, value int) {
	t.Helper()
	eval[bool](t, ctx, fmt.Sprintf(`(() => { const r = document.querySelector(%q); r.value = %d;
		r.dispatchEvent(new Event('input', {bubbles: true})); r.dispatchEvent(new Event('change', {bubbles: true})); return true })()`, selector, value))
}
