package app

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// adminTab is one tab of the admin panel open in the browser, with the
// requests it made recorded so a test can demand none failed.
type adminTab struct {
	ctx      context.Context
	requests *requestLog
}

// openAdmin opens /admin#tab signed in with token and waits until the tab
// has drawn itself (its module loaded and its first content shown). The
// test fails at its end for any script error, console error or refused
// load (a CSP violation is a console error of the Log domain) of the page,
// whether or not the test asks b.noProblems itself.
func openAdmin(t *testing.T, b *pageBrowser, base, token, tab string) adminTab {
	t.Helper()
	ctx := b.tab(t, "admin-"+tab)
	t.Cleanup(func() { b.noProblems(t) })
	rl := recordRequests(t, ctx)
	openSignedIn(t, ctx, base, token, "/admin#"+tab)
	waitTab(t, ctx, tab)
	return adminTab{ctx: ctx, requests: rl}
}

// waitTab waits until the panel shows tab with something besides the
// loading line.
func waitTab(t *testing.T, ctx context.Context, tab string) {
	t.Helper()
	until(t, ctx, "the "+tab+" tab is drawn", fmt.Sprintf(
		`(p => p && p.dataset.tab === %q && p.querySelector('.block') !== null)(document.getElementById('panel'))`, tab))
}

// switchTab clicks the tab bar's link to tab and waits for it.
func switchTab(t *testing.T, ctx context.Context, tab string) {
	t.Helper()
	click(t, ctx, fmt.Sprintf(`#tabs a[data-tab=%q]`, tab))
	waitTab(t, ctx, tab)
}

// noFailedRequests fails the test for every request of the tab that
// answered >= 400 or failed, except those a test expects (their URL
// contains one of expected).
func (a adminTab) noFailedRequests(t *testing.T, expected ...string) {
	t.Helper()
	var left []string
next:
	for _, f := range a.requests.failures() {
		for _, e := range expected {
			if e != "" && strings.Contains(f, e) {
				continue next
			}
		}
		left = append(left, f)
	}
	assert.Empty(t, left, "no request of the admin panel failed")
}

// adminShots saves the tab as a tablet in dark Russian and as a phone in
// light English (name-1024-dark-ru, name-375-light-en), each no wider than
// its screen; tab is redrawn in each language.
func adminShots(t *testing.T, ctx context.Context, dir, tab, name string) {
	t.Helper()
	for _, v := range []struct {
		width        int64
		scheme, lang string
	}{{1024, "dark", "ru"}, {375, "light", "en"}} {
		look(t, ctx, v.width, v.scheme, v.lang)
		require.NoError(t, chromedp.Do(ctx, chromedp.Reload()))
		waitTab(t, ctx, tab)
		eval[any](t, ctx, `window.scrollTo(0, 0)`)
		assert.LessOrEqual(t, eval[int](t, ctx, `document.documentElement.scrollWidth`), int(v.width), "%s at %d px is no wider than the screen", name, v.width)
		screenshot(t, ctx, dir, fmt.Sprintf("%s-%d-%s-%s", name, v.width, v.scheme, v.lang))
	}
}
