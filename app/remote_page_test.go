package app

import (
	"fmt"
	"net/url"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The remote page in a real browser, against a player that is a plain
// WebSocket client: it shows what the player reports, its buttons, sliders,
// playlist and library send the documented commands, and what the room
// refuses is shown in words. The page reaches the server through a proxy
// that can drop its connections, as a network does: it rejoins.
func TestRemotePageDrivesTheRoom(t *testing.T) {
	t.Parallel()
	ra, stop := newRoomApp(t)
	defer func() { require.NoError(t, stop()) }()
	b, closeBrowser := newPageBrowser(t)
	defer closeBrowser()
	proxy := newCutProxy(t, ra.addr)
	base, room := "http://"+proxy.addr(), "viewer@example.org"
	player := joinRoom(t, ra.addr, "player", room, ra.user)
	player.say(map[string]any{"event": "status_update", "state": "playing", "position": 42, "duration": 100, "volume": 80})

	tab := b.tab(t, "remote")
	openSignedIn(t, tab, base, ra.user, "/remote")
	look(t, tab, 375, "light", "en")
	require.NoError(t, chromedp.Do(tab, chromedp.Reload()))
	until(t, tab, "the player is there", `document.getElementById('presence').dataset.players === '1'`)
	assert.Equal(t, room, eval[string](t, tab, `document.getElementById('room').value`), "the default room is the account's e-mail")
	until(t, tab, "the replayed status shows", `document.getElementById('time').textContent.endsWith('/ 1:40')`)
	until(t, tab, "the position moves on while playing, with no new report", shownPosition+` >= 44`)
	assert.Regexp(t, `^0:4\d / 1:40$`, visibleText(t, tab, "#time"))
	assert.Equal(t, "80", eval[string](t, tab, `document.getElementById('volume').value`))

	player.presence(1, 1)
	pixel := "https://127.0.0.1:9/pixel.gif" // a shared room's player could learn who looks
	player.say(map[string]any{"event": "metadata_update", "title": "Heat", "year": 1995, "media_id": ra.id, "thumbnail_url": pixel})
	player.say(map[string]any{"event": "playlist_update", "files": []any{map[string]any{"file": fmt.Sprintf("media:%d", ra.id), "title": "Heat", "media_id": ra.id}}})
	player.say(map[string]any{"event": "status_update", "state": "playing", "position": 3700, "duration": 7323})
	until(t, tab, "what plays", `document.getElementById('now-title').textContent === 'Heat (1995)'`)
	until(t, tab, "hours", `/^1:01:4\d \/ 2:02:03$/.test(document.getElementById('time').textContent)`)
	until(t, tab, "the playlist", `document.querySelector('#playlist .item[aria-current="true"]')?.textContent === 'Heat'`)
	until(t, tab, "its thumbnail was asked for", `performance.getEntriesByType('resource').some(e => e.name.endsWith('/api/media/`+fmt.Sprint(ra.id)+`/thumbnail'))`)
	assert.Empty(t, eval[string](t, tab, `document.getElementById('now-img').getAttribute('src') || ''`), "no picture: the entry has none, and the room's address is never loaded")
	assert.False(t, eval[bool](t, tab, `performance.getEntriesByType('resource').some(e => e.name.includes('pixel'))`), "the room's thumbnail address is not fetched")

	proxy.cut()
	player.presence(1, 0)
	player.presence(1, 1)
	until(t, tab, "the page is back in the room", `document.getElementById('conn').dataset.state === 'open'`)
	player.say(map[string]any{"event": "status_update", "state": "playing", "position": 5000, "duration": 7323})
	until(t, tab, "reports reach the rejoined page", `/^1:23:2\d \/ 2:02:03$/.test(document.getElementById('time').textContent)`)
	resp, st := ra.do(t, "GET", "/api/control/status?room="+url.QueryEscape(room), ra.user, nil)
	require.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, 1.0, st["remotes"], "the dropped socket left, one came back: %v", st)

	click(t, tab, "#toggle")
	assert.Equal(t, map[string]any{"event": "pause"}, player.next(), "playing: the button pauses")
	slide(t, tab, "#volume", 35)
	assert.Equal(t, map[string]any{"event": "volume", "level": 35.0}, player.next())
	slide(t, tab, "#seek", 60)
	assert.Equal(t, map[string]any{"event": "seek", "position": 60.0}, player.next())
	click(t, tab, "#playlist .item")
	heat := map[string]any{"event": "play", "file": fmt.Sprintf("media:%d", ra.id), "media_id": float64(ra.id), "title": "Heat"}
	assert.Equal(t, heat, playFrame(player), "a playlist item plays")
	require.NoError(t, chromedp.Do(tab, chromedp.SendKeys(chromedp.CSS("#search"), "heat")))
	until(t, tab, "the search finds it", `document.querySelector('.results .card .name')?.textContent === 'Heat'`)
	click(t, tab, ".results .card")
	assert.Equal(t, heat, playFrame(player), "a film picked in the library plays")
	player.say(map[string]any{"event": "status_update", "state": "paused", "position": 10, "duration": 100})
	until(t, tab, "paused", `document.getElementById('now-state').textContent === 'Paused'`)
	click(t, tab, "#toggle")
	assert.Equal(t, map[string]any{"event": "play"}, player.next(), "paused: the button resumes")

	player.say(map[string]any{"event": "status_update", "state": "idle", "position": 0, "duration": 0})
	until(t, tab, "idle", `document.getElementById('now-state').textContent === 'Idle'`)
	click(t, tab, "#fwd10")
	until(t, tab, "the room's refusal is shown", `document.getElementById('toasts')?.textContent.includes('nothing is playing')`)
	require.NoError(t, player.c.Close())
	until(t, tab, "the player left", `document.getElementById('presence').dataset.players === '0'`)
	assert.Contains(t, visibleText(t, tab, "#presence"), "No player in the room")
	click(t, tab, "#stop")
	until(t, tab, "no_player in words", `document.getElementById('toasts').textContent.includes('No player in this room')`)

	require.NoError(t, chromedp.Do(tab, chromedp.SetValue(chromedp.CSS("#room"), "someone@example.org"), chromedp.Click(chromedp.CSS("#room-form button"))))
	until(t, tab, "someone else's room is refused", `document.getElementById('conn').dataset.state === 'refused'`)
	assert.Contains(t, visibleText(t, tab, "#conn"), "another account's room")

	// Signing in on the home page leads back to the page that sent the
	// person there, and only to the server's own pages.
	for next, want := range map[string]string{"/remote": `location.pathname === '/remote'`,
		"//evil.example/remote": `location.pathname === '/' && document.getElementById('who').textContent.includes('(admin)')`} {
		home := b.tab(t, "home")
		require.NoError(t, chromedp.Do(home, chromedp.Navigate(base+"/healthz")))
		eval[any](t, home, `localStorage.removeItem('mediateka_token')`)
		require.NoError(t, chromedp.Do(home, chromedp.Navigate(base+"/?next="+url.QueryEscape(next)),
			chromedp.SetValue(chromedp.CSS("#email"), "admin@localhost"),
			chromedp.SetValue(chromedp.CSS("#password"), ra.initialPassword(t)),
			chromedp.Click(chromedp.CSS("#login button"))))
		until(t, home, "signed in", `localStorage.getItem('mediateka_token') !== null`)
		until(t, home, "then back from "+next, want)
	}
	b.noProblems(t)
}

// playFrame is the player's next message without the /play answer the
// room adds for it (what the remote sent is what this test looks at).
func playFrame(player *roomClient) map[string]any {
	m := player.next()
	delete(m, "play")
	return m
}
