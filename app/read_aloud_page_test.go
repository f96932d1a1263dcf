package app

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/repository/exectest"
)

// speechAudio is the page's speech <audio> as a person would hear it: its
// source, whether it plays and how far it got.
const speechAudio = `(a => a ? {src: a.getAttribute('src') || '', paused: a.paused, time: a.currentTime} : {src: '', paused: true, time: 0})(document.getElementById('speech'))`

// sourceBufferListeners counts, on the page, the chunks appended to a
// SourceBuffer and the "error" listeners still attached to one (added,
// less those removed or whose signal aborted).
const sourceBufferListeners = `(() => {
  const sb = window.__sb = {appends: 0, errorListeners: 0};
  const p = SourceBuffer.prototype, add = p.addEventListener, remove = p.removeEventListener, append = p.appendBuffer;
  p.appendBuffer = function (...a) { sb.appends++; return append.apply(this, a); };
  p.addEventListener = function (type, fn, opts) {
    if (type === 'error') {
      sb.errorListeners++;
      const signal = opts && opts.signal;
      if (signal) signal.addEventListener('abort', () => sb.errorListeners--, {once: true});
    }
    return add.call(this, type, fn, opts);
  };
  p.removeEventListener = function (type, fn, opts) {
    if (type === 'error') sb.errorListeners--;
    return remove.call(this, type, fn, opts);
  };
})()`

// A film's plot read aloud on the player and on the remote, by espeak-ng
// and ffmpeg for real: the button shows only for an entry with a plot,
// the speech plays from a blob: source while the server is still speaking
// (the request carries no token in its address), stop silences it and
// ends the request, the film playing again stops it, and an error of the
// API is shown in words. Screenshots of the reading on a phone and a
// desktop, dark and light, Russian and English.
func TestReadingAPlotAloud(t *testing.T) {
	t.Parallel()
	exectest.Require(t, "espeak-ng", "espeak-ng")
	exectest.Require(t, "ffmpeg", "ffmpeg")
	wa, stop := newScreenApp(t)
	defer func() { require.NoError(t, stop()) }()
	var plot []string
	for i := 1; i <= 24; i++ {
		plot = append(plot, fmt.Sprintf("Это предложение номер %d из пересказа фильма о грабителе и детективе из Лос-Анджелеса.", i))
	}
	for id, text := range map[int64]string{wa.heat: strings.Join(plot, " "), wa.matrix: strings.Repeat("Очень длинный пересказ. ", 220)} {
		resp, body := wa.do(t, "PATCH", fmt.Sprintf("/api/media-admin/media/%d", id), wa.admin, map[string]any{"plot": text})
		require.Equal(t, 200, resp.StatusCode, "%v", body)
	}
	for _, path := range []string{"/player", "/remote"} {
		resp, _ := pageGet(t, wa.testApp, "GET", path, nil)
		assert.Equal(t, "'self' blob:", directives(resp.Header.Get("Content-Security-Policy"))["media-src"], "%s plays speech from blob: URLs", path)
	}

	b, closeBrowser := newPageBrowser(t)
	defer closeBrowser()
	player := b.tab(t, "player")
	playerNet := recordRequests(t, player)
	openSignedIn(t, player, wa.base, wa.user, "/player")
	look(t, player, 1280, "dark", "en")
	require.NoError(t, chromedp.Do(player, chromedp.Reload()))
	until(t, player, "the player joined", `document.getElementById('conn').dataset.state === 'open'`)
	require.True(t, eval[bool](t, player, `MediaSource.isTypeSupported('audio/mpeg')`), "this chromium streams mp3 through MediaSource; else the test would only see the Blob way")

	pickOnRemote(t, player, "heat", "Heat") // the player's own library
	until(t, player, "the film plays", `!document.getElementById('video').paused && document.getElementById('video').currentTime > 0.5`)
	until(t, player, "the plot and its button", `!document.getElementById('read-aloud').hidden`)
	assert.Equal(t, "Read aloud", visibleText(t, player, "#read-aloud"))
	dir := t.TempDir()
	screenshot(t, player, dir, "read-aloud-player-1280-dark-en-ready")
	assert.True(t, strings.HasPrefix(visibleText(t, player, "#plot"), "Это предложение номер 1 "), "the plot is shown: %q", visibleText(t, player, "#plot"))

	eval[any](t, player, sourceBufferListeners)
	click(t, player, "#read-aloud")
	until(t, player, "the button says stop", `document.getElementById('read-aloud').textContent === 'Stop'`)
	until(t, player, "the plot sounds", speechAudio+`.time > 0.2 && !`+speechAudio+`.paused`)
	until(t, player, "several chunks appended", `window.__sb.appends >= 4`)
	assert.LessOrEqual(t, eval[int](t, player, `window.__sb.errorListeners`), 1,
		"the SourceBuffer's error listeners pile up, one per chunk")
	assert.True(t, playerNet.streaming("/api/tts/stream-audio"), "playback began while the server was still speaking")
	assert.True(t, strings.HasPrefix(eval[string](t, player, speechAudio+`.src`), "blob:"), "speech plays from a blob: URL")
	assert.True(t, eval[bool](t, player, `document.getElementById('video').paused`), "reading pauses the film")
	asked := playerNet.urls("/api/tts/stream-audio")
	require.Len(t, asked, 1)
	assert.Equal(t, fmt.Sprintf("%s/api/tts/stream-audio?media_id=%d&field=plot", wa.base, wa.heat), asked[0], "no token in the address")

	click(t, player, "#read-aloud")
	until(t, player, "stop silences it", `(s => s.paused && s.src === '')(`+speechAudio+`) && document.getElementById('read-aloud').textContent === 'Read aloud'`)
	require.Eventually(t, func() bool { return !playerNet.streaming("/api/tts/stream-audio") }, 5*time.Second, 20*time.Millisecond,
		"the request ended with the reading")

	// The film playing again stops the reading.
	click(t, player, "#read-aloud")
	until(t, player, "reading again", speechAudio+`.time > 0.2`)
	click(t, player, "#toggle")
	until(t, player, "the film plays and the reading stopped", `!document.getElementById('video').paused && `+speechAudio+`.paused && document.getElementById('read-aloud').textContent === 'Read aloud'`)

	// The remote in the same room reads the plot of what plays.
	remote := b.tab(t, "remote")
	remoteNet := recordRequests(t, remote)
	openSignedIn(t, remote, wa.base, wa.user, "/remote")
	until(t, remote, "what plays", `document.getElementById('now-title').textContent === 'Heat (1995)'`)
	until(t, remote, "its read-aloud button", `!document.getElementById('read-aloud').hidden`)
	click(t, remote, "#toggle")
	until(t, player, "paused from the remote", `document.getElementById('video').paused`)
	click(t, remote, "#read-aloud")
	until(t, remote, "the plot sounds on the phone", speechAudio+`.time > 0.2 && !`+speechAudio+`.paused`)
	click(t, player, "#read-aloud")
	until(t, player, "and on the TV", speechAudio+`.time > 0.2 && !`+speechAudio+`.paused`)

	for _, width := range []int64{375, 1280} {
		for _, scheme := range []string{"dark", "light"} {
			for _, lang := range []string{"ru", "en"} {
				for name, tab := range map[string]context.Context{"player": player, "remote": remote} {
					restyle(t, tab, width, scheme, lang)
					want := map[string]string{"ru": "Остановить", "en": "Stop"}[lang]
					until(t, tab, "still reading, in "+lang, fmt.Sprintf(`document.getElementById('read-aloud').textContent === %q && !%s.paused`, want, speechAudio))
					assert.LessOrEqual(t, eval[int](t, tab, `document.documentElement.scrollWidth`), int(width), "%s at %d px is no wider than the screen", name, width)
					screenshot(t, tab, dir, fmt.Sprintf("read-aloud-%s-%d-%s-%s", name, width, scheme, lang))
				}
			}
		}
	}
	restyle(t, remote, 375, "light", "en")
	click(t, remote, "#read-aloud")
	until(t, remote, "stopped on the remote", `(s => s.paused && s.src === '')(`+speechAudio+`) && document.getElementById('read-aloud').textContent === 'Read aloud'`)
	assert.False(t, eval[bool](t, player, speechAudio+`.paused`), "the player reads on: each page has its own")
	click(t, remote, "#toggle")
	until(t, player, "the film played from the remote stops the player's reading", `!document.getElementById('video').paused && `+speechAudio+`.paused`)

	// A plot over 5000 characters: the API's error, in words.
	restyle(t, player, 1280, "dark", "en")
	pickOnRemote(t, player, "matrix", "The Matrix")
	until(t, player, "its button", `!document.getElementById('read-aloud').hidden && document.getElementById('title').textContent.startsWith('The Matrix')`)
	click(t, player, "#read-aloud")
	until(t, player, "the error is shown", `document.getElementById('toasts')?.textContent.includes('The text is over 5000 characters')`)
	eval[any](t, player, `scrollTo(0, 0)`) // the click scrolled the button into view; the header is sticky
	screenshot(t, player, dir, "read-aloud-player-1280-dark-en-too-long")
	until(t, player, "and the button is back", `document.getElementById('read-aloud').textContent === 'Read aloud' && `+speechAudio+`.src === ''`)

	assert.Equal(t, []string{fmt.Sprintf("400 %s/api/tts/stream-audio?media_id=%d&field=plot", wa.base, wa.matrix)}, playerNet.failures(), "no request failed but the refused one")
	assert.Empty(t, remoteNet.failures(), "no request of the remote failed")
	b.noProblems(t)
}

// requestLog keeps a tab's requests: their addresses, which are still
// under way, and which failed (status >= 400, or an error other than the
// page cancelling it; the browser's own favicon.ico, which the pages do
// not have, is not counted).
type requestLog struct {
	mu     sync.Mutex
	url    map[network.RequestID]string
	open   map[network.RequestID]bool
	failed []string
}

// recordRequests starts a tab's requestLog; call it before the page opens.
func recordRequests(t *testing.T, ctx context.Context) *requestLog {
	t.Helper()
	rl := &requestLog{url: map[network.RequestID]string{}, open: map[network.RequestID]bool{}}
	require.NoError(t, chromedp.Listen(ctx, func(ev any) {
		rl.mu.Lock()
		defer rl.mu.Unlock()
		switch e := ev.(type) {
		case *network.EventRequestWillBeSent:
			rl.url[e.RequestID] = e.Request.URL
			rl.open[e.RequestID] = true
		case *network.EventResponseReceived:
			if e.Response.Status >= 400 && !strings.HasSuffix(e.Response.URL, "/favicon.ico") { // the browser's own, not the page's
				rl.failed = append(rl.failed, fmt.Sprintf("%d %s", e.Response.Status, e.Response.URL))
			}
		case *network.EventLoadingFinished:
			delete(rl.open, e.RequestID)
		case *network.EventLoadingFailed:
			delete(rl.open, e.RequestID)
			if !e.Canceled {
				rl.failed = append(rl.failed, e.ErrorText+" "+rl.url[e.RequestID])
			}
		}
	}))
	return rl
}

// urls are the addresses asked for that contain part.
func (rl *requestLog) urls(part string) []string {
	rl.mu.Lock()
	defer rl.mu.Unlock()
	var out []string
	for _, u := range rl.url {
		if strings.Contains(u, part) {
			out = append(out, u)
		}
	}
	return out
}

// streaming says whether a request whose address contains part is still
// under way.
func (rl *requestLog) streaming(part string) bool {
	rl.mu.Lock()
	defer rl.mu.Unlock()
	for id := range rl.open {
		if strings.Contains(rl.url[id], part) {
			return true
		}
	}
	return false
}

func (rl *requestLog) failures() []string {
	rl.mu.Lock()
	defer rl.mu.Unlock()
	return append([]string(nil), rl.failed...)
}
