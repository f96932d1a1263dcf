package app

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
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

// look sets how the tab looks: its screen and the language the page
// remembers. Reload to apply the language.
func look(t *testing.T, ctx context.Context, width int64, scheme, lang string) {
	t.Helper()
	emulateScreen(t, ctx, width, scheme)
	eval[any](t, ctx, fmt.Sprintf(`localStorage.setItem('mediateka_lang', %q); localStorage.removeItem('mediateka_theme')`, lang))
}

// emulateScreen gives the tab a screen width (under 600: a phone, 812 px
// high) and the system's colour scheme (dark or light).
func emulateScreen(t *testing.T, ctx context.Context, width int64, scheme string) {
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

// shownPosition is the seconds a page's #time shows before the slash
// ("1:02:03 / …"), as the person reads it.
const shownPosition = `Number(document.getElementById('time').textContent.split(' / ')[0].split(':').reduce((a, b) => a * 60 + Number(b), 0))`

// wsFrame is one room message a tab sent or received.
type wsFrame struct {
	sent bool
	msg  map[string]any
}

// frameLog keeps, in order, every WebSocket message of a tab: what the
// page itself put on the wire, which a room client cannot see (the room
// rebuilds what it forwards).
type frameLog struct {
	mu     sync.Mutex
	frames []wsFrame
}

// recordFrames starts a tab's frameLog; call it before the page opens.
func recordFrames(t *testing.T, ctx context.Context) *frameLog {
	t.Helper()
	fl := &frameLog{}
	require.NoError(t, chromedp.Listen(ctx, func(ev any) {
		switch e := ev.(type) {
		case *network.EventWebSocketFrameSent:
			fl.add(true, e.Response.PayloadData)
		case *network.EventWebSocketFrameReceived:
			fl.add(false, e.Response.PayloadData)
		}
	}))
	return fl
}

func (fl *frameLog) add(sent bool, payload []byte) {
	var m map[string]any
	if json.Unmarshal(payload, &m) != nil {
		return
	}
	fl.mu.Lock()
	defer fl.mu.Unlock()
	fl.frames = append(fl.frames, wsFrame{sent: sent, msg: m})
}

// mark is where the log is now: since(mark) is what came after.
func (fl *frameLog) mark() int {
	fl.mu.Lock()
	defer fl.mu.Unlock()
	return len(fl.frames)
}

func (fl *frameLog) since(mark int) []wsFrame {
	fl.mu.Lock()
	defer fl.mu.Unlock()
	return append([]wsFrame(nil), fl.frames[mark:]...)
}

// cutProxy forwards connections to a server so that a test can drop them
// all at once, as a network does: cut() closes every connection open
// through it (a page's room socket included); new ones go through again.
type cutProxy struct {
	ln     net.Listener
	target string
	mu     sync.Mutex
	conns  []net.Conn
}

func newCutProxy(t *testing.T, target string) *cutProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	p := &cutProxy{ln: ln, target: target}
	t.Cleanup(func() { _ = ln.Close(); p.cut() })
	go p.serve()
	return p
}

func (p *cutProxy) addr() string { return p.ln.Addr().String() }

func (p *cutProxy) serve() {
	for {
		in, err := p.ln.Accept()
		if err != nil {
			return
		}
		out, err := net.Dial("tcp", p.target)
		if err != nil {
			_ = in.Close()
			continue
		}
		p.mu.Lock()
		p.conns = append(p.conns, in, out)
		p.mu.Unlock()
		go func() { _, _ = io.Copy(out, in); _ = out.Close() }()
		go func() { _, _ = io.Copy(in, out); _ = in.Close() }()
	}
}

func (p *cutProxy) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		_ = c.Close()
	}
	p.conns = nil
}
