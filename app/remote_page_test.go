package app

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The remote page in a real browser, against a player that is a plain
// WebSocket client: it shows what the player reports, its buttons, sliders,
// playlist and library send the documented commands, and what the room
// refuses is shown in words.
func TestRemotePageDrivesTheRoom(t *testing.T) {
	ra, stop := newRoomApp(t)
	defer func() { require.NoError(t, stop()) }()
	b, closeBrowser := newPageBrowser(t)
	defer closeBrowser()
	base, room := "http://"+ra.addr, "viewer@example.org"
	player := joinRoom(t, ra.addr, "player", room, ra.user)
	player.say(map[string]any{"event": "status_update", "state": "playing", "position": 42, "duration": 100, "volume": 80})

	tab := b.tab(t, "remote")
	openSignedIn(t, tab, base, ra.user, "/remote")
	look(t, tab, 375, "light", "en")
	require.NoError(t, chromedp.Do(tab, chromedp.Reload()))
	until(t, tab, "the player is there", `document.getElementById('presence').dataset.players === '1'`)
	assert.Equal(t, room, eval[string](t, tab, `document.getElementById('room').value`), "the default room is the account's e-mail")
	until(t, tab, "the replayed status shows", `document.getElementById('time').textContent.endsWith('/ 1:40')`)
	assert.Regexp(t, `^0:4\d / 1:40$`, visibleText(t, tab, "#time"), "the position moves on while playing")
	assert.Equal(t, "80", eval[string](t, tab, `document.getElementById('volume').value`))

	player.presence(1, 1)
	player.say(map[string]any{"event": "metadata_update", "title": "Heat", "year": 1995, "media_id": ra.id})
	player.say(map[string]any{"event": "playlist_update", "files": []any{map[string]any{"file": fmt.Sprintf("media:%d", ra.id), "title": "Heat", "media_id": ra.id}}})
	player.say(map[string]any{"event": "status_update", "state": "playing", "position": 3700, "duration": 7323})
	until(t, tab, "what plays", `document.getElementById('now-title').textContent === 'Heat (1995)'`)
	until(t, tab, "hours", `/^1:01:4\d \/ 2:02:03$/.test(document.getElementById('time').textContent)`)
	until(t, tab, "the playlist", `document.querySelector('#playlist .item[aria-current="true"]')?.textContent === 'Heat'`)

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
	b.noProblems(t)
}

// playFrame is the player's next message without the /play answer the
// room adds for it (what the remote sent is what this test looks at).
func playFrame(player *roomClient) map[string]any {
	m := player.next()
	delete(m, "play")
	return m
}
