package app

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/repository/exectest"
)

// screenApp is a running app whose library holds real videos made by
// ffmpeg: an H.264/AAC MP4 with English subtitles (played directly), a
// Matroska with two AC3 tracks (remuxed) and two short episodes of a
// season, in category folders, beside a comedy that is no video at all
// (it has no thumbnail).
type screenApp struct {
	*libApp
	base         string
	heat, matrix int64
}

func newScreenApp(t *testing.T) (*screenApp, func() error) {
	t.Helper()
	exectest.Require(t, "ffmpeg", "ffmpeg", "ffprobe")
	la := newLibApp(t, nil)
	la.place(t, "Фильмы/Боевики/Heat (1995)/Heat.1995.mp4", exectest.Video{Name: "heat.mp4", Seconds: 30, Size: "320x180", KeyframeEvery: 2,
		Audio: []exectest.Track{{Language: "eng"}}})
	la.put(t, map[string]string{"Фильмы/Боевики/Heat (1995)/Heat.1995.en.srt": "1\n00:00:01,000 --> 00:00:29,000\nHello\n",
		"Фильмы/Комедии/Брат (1997)/Brat.1997.mkv": "not a video"})
	la.place(t, "Фильмы/Фантастика/The Matrix (1999)/The.Matrix.1999.mkv", exectest.Video{Name: "matrix.mkv", Seconds: 40, Size: "320x180", KeyframeEvery: 1,
		Audio: []exectest.Track{{Language: "rus", Codec: "ac3", Channels: 6, Default: true}, {Language: "eng", Codec: "ac3"}}})
	la.place(t, "Сериалы/Dark (2017)/Season 1/Dark.S01E01.mkv", exectest.Video{Name: "e1.mkv", Seconds: 3, Size: "320x180", Audio: []exectest.Track{{}}})
	la.place(t, "Сериалы/Dark (2017)/Season 1/Dark.S01E02.mkv", exectest.Video{Name: "e2.mkv", Seconds: 3, Size: "320x180", Audio: []exectest.Track{{}}})
	la.scan(t)
	addr, stop := runOnLoopback(t, la.testApp)
	return &screenApp{libApp: la, base: "http://" + addr,
		heat: la.idOf(t, "Фильмы/Боевики/Heat (1995)/Heat.1995.mp4"), matrix: la.idOf(t, "Фильмы/Фантастика/The Matrix (1999)/The.Matrix.1999.mkv")}, stop
}

// pickOnRemote searches the remote's library for query and taps the first
// result (a series opens its episodes).
func pickOnRemote(t *testing.T, remote context.Context, query, title string) {
	t.Helper()
	until(t, remote, "the library is there", `document.getElementById('search') !== null`)
	eval[bool](t, remote, `(document.getElementById('search').value = '') === ''`)
	require.NoError(t, chromedp.Do(remote, chromedp.SendKeys(chromedp.CSS("#search"), query)))
	until(t, remote, "the search finds "+title, fmt.Sprintf(`document.querySelector('.results .card .name')?.textContent === %q`, title))
	click(t, remote, ".results .card")
}

// playerPosition is where the player is in the film, as its page shows
// it (a remuxed stream's own clock starts where the remux does).
const playerPosition = shownPosition

// The end-to-end run: a phone's remote and a TV's player in one
// room, real files, a real browser.
func TestWatchingWithThePlayerAndTheRemote(t *testing.T) {
	t.Parallel()
	wa, stop := newScreenApp(t)
	defer func() { require.NoError(t, stop()) }()
	b, closeBrowser := newPageBrowser(t)
	defer closeBrowser()

	player := b.tab(t, "player")
	frames := recordFrames(t, player)
	openSignedIn(t, player, wa.base, wa.user, "/player")
	h264 := eval[string](t, player, `document.createElement('video').canPlayType('video/mp4; codecs="avc1.42E01E, mp4a.40.2"')`)
	require.NotEmpty(t, h264, "this chromium cannot play H.264/AAC in MP4; the tests' videos would need another codec")
	until(t, player, "the player joined", `document.getElementById('conn').dataset.state === 'open'`)
	remote := b.tab(t, "remote")
	openSignedIn(t, remote, wa.base, wa.user, "/remote")
	look(t, remote, 375, "dark", "en")
	require.NoError(t, chromedp.Do(remote, chromedp.Reload()))
	until(t, remote, "the remote sees the player", `document.getElementById('presence').dataset.players === '1'`)
	observer := joinRoom(t, wa.base[len("http://"):], "remote", "viewer@example.org", wa.user)

	// Direct play of the MP4, started from the remote.
	pickOnRemote(t, remote, "heat", "Heat")
	until(t, player, "the MP4 plays", `!document.getElementById('video').paused && document.getElementById('video').currentTime > 1`)
	assert.NotContains(t, eval[string](t, player, `document.getElementById('video').src`), "remux=1", "an MP4 plays as it is")
	until(t, remote, "the remote's position moves", `/^0:0[1-9] \/ 0:30$/.test(document.getElementById('time').textContent)`)
	assert.Equal(t, "Heat (1995)", visibleText(t, remote, "#now-title"))
	until(t, remote, "the remote shows the film's thumbnail", `(i => !i.hidden && i.src.startsWith('blob:') && i.complete && i.naturalWidth > 0)(document.getElementById('now-img'))`)
	assertReportsEverySecond(t, observer)
	assertOnlyPlayURLs(t, player)
	assert.Equal(t, "English", eval[string](t, player, `document.querySelector('#subs option[value="0"]')?.textContent || ''`), "its subtitles are offered")

	click(t, remote, "#toggle")
	until(t, player, "a pause reaches the player", `document.getElementById('video').paused`)
	until(t, remote, "the remote shows the pause", `document.getElementById('now-state').textContent === 'Paused'`)
	slide(t, remote, "#volume", 30)
	until(t, player, "the volume reaches the player", `Math.abs(document.getElementById('video').volume - 0.3) < 0.01`)
	slide(t, remote, "#seek", 20)
	until(t, player, "a seek reaches the player", `Math.abs(document.getElementById('video').currentTime - 20) < 0.5`)
	click(t, remote, "#toggle")
	until(t, player, "play resumes it", `!document.getElementById('video').paused && document.getElementById('video').currentTime > 20.5`)

	// The player's own keys.
	require.NoError(t, chromedp.Do(player, chromedp.KeyEvent(" ")))
	until(t, player, "space pauses", `document.getElementById('video').paused`)
	before := eval[float64](t, player, `document.getElementById('video').currentTime`)
	require.NoError(t, chromedp.Do(player, chromedp.KeyEvent(kb.ArrowLeft)))
	until(t, player, "← goes back 10 s", fmt.Sprintf(`Math.abs(document.getElementById('video').currentTime - %f) < 0.5`, before-10))
	require.NoError(t, chromedp.Do(player, chromedp.KeyEvent("m")))
	until(t, player, "m mutes", `document.getElementById('video').muted`)
	require.NoError(t, chromedp.Do(player, chromedp.KeyEvent("m")))
	require.NoError(t, chromedp.Do(player, chromedp.KeyEvent(kb.ArrowRight)))
	until(t, player, "→ goes on 10 s", fmt.Sprintf(`Math.abs(document.getElementById('video').currentTime - %f) < 0.5`, before))
	require.NoError(t, chromedp.Do(player, chromedp.KeyEvent("f")))
	until(t, player, "f is full screen, controls included", `document.fullscreenElement?.id === 'stage'`)
	require.NoError(t, chromedp.Do(player, chromedp.KeyEvent("f")))
	until(t, player, "f again leaves it", `document.fullscreenElement === null`)

	// The MKV with AC3 sound plays through the server's remux; a seek and
	// another audio track reload it from where the film is.
	switching := frames.mark()
	pickOnRemote(t, remote, "matrix", "The Matrix")
	until(t, player, "the MKV plays through remux", `document.getElementById('video').src.includes('remux=1') && !document.getElementById('video').paused && document.getElementById('video').currentTime > 1`)
	until(t, remote, "its length", `document.getElementById('time').textContent.endsWith('/ 0:40')`)
	slide(t, remote, "#seek", 25)
	until(t, player, "a remux seek restarts the stream there", `document.getElementById('video').src.includes('start=25') && `+playerPosition+` >= 25`)
	until(t, remote, "the remote follows", `/^0:2[5-9] \/ 0:40$/.test(document.getElementById('time').textContent)`)
	require.NoError(t, chromedp.Do(player, chromedp.SetValue(chromedp.CSS("#audio"), "1")))
	eval[bool](t, player, `document.getElementById('audio').dispatchEvent(new Event('change')) || true`)
	until(t, player, "the English track from where it was", `document.getElementById('video').src.includes('audio=1') && !document.getElementById('video').paused && `+playerPosition+` >= 25`)
	click(t, remote, "#toggle")
	until(t, player, "paused in the remux", `document.getElementById('video').paused`)
	paused := eval[float64](t, player, playerPosition)
	assertLeavesAtOnce(t, frames.since(switching), wa.heat, wa.matrix)
	assertStatusNamesTheFilm(t, frames.since(0))

	// The position is kept: a new player page offers to go on from there,
	// and goes on from exactly there.
	saved := savedPosition(t, wa, wa.matrix, paused)
	require.NoError(t, chromedp.Do(player, chromedp.Reload()))
	until(t, player, "the player is back", `document.getElementById('conn').dataset.state === 'open'`)
	until(t, player, "continue watching offers the film", `[...document.querySelectorAll('.continue .card .name')].some(n => n.textContent === 'The Matrix')`)
	resuming := frames.mark()
	click(t, player, ".continue .card")
	until(t, player, "it says where it resumes", `!document.getElementById('resume').hidden`)
	assert.Equal(t, "Resumed at "+formatTime(saved)+".", visibleText(t, player, "#resume-text"))
	assert.InDelta(t, saved, firstReport(t, frames, resuming, wa.matrix), 0.5, "the first report after resuming is where it was saved")
	until(t, player, "and plays on", `!document.getElementById('video').paused`)

	// An episode picked on the remote plays; at its end the next one
	// follows; the remote sees the season.
	click(t, remote, "#toggle") // pause the film
	pickOnRemote(t, remote, "dark", "Dark")
	until(t, remote, "its episodes", `document.querySelectorAll('.drill .episode').length === 2`)
	click(t, remote, ".drill .episode")
	until(t, player, "the first episode plays", `/episode 1|серия 1/.test(document.getElementById('title').textContent)`)
	until(t, remote, "the season is the playlist", `document.querySelectorAll('#playlist .item').length === 2`)
	until(t, player, "the next episode follows", `document.getElementById('title').textContent.includes('episode 2') || document.getElementById('title').textContent.includes('серия 2')`)
	click(t, remote, "#stop")
	until(t, player, "stop ends playback", `!document.getElementById('idle').hidden && !document.getElementById('video').getAttribute('src')`)
	until(t, remote, "the remote shows it stopped", `document.getElementById('now-state').textContent === 'Stopped'`)
	b.noProblems(t)
}

// assertReportsEverySecond counts the player's status reports a remote
// hears in three seconds of playing.
func assertReportsEverySecond(t *testing.T, observer *roomClient) {
	t.Helper()
	var positions []float64
	for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); {
		if m := observer.next(); m["event"] == "status_update" && m["state"] == "playing" {
			positions = append(positions, m["position"].(float64))
		}
	}
	require.GreaterOrEqual(t, len(positions), 3, "a status_update at least once a second while playing")
	for i := 1; i < len(positions); i++ {
		assert.GreaterOrEqual(t, positions[i], positions[i-1], "the reported position never goes back: %v", positions)
	}
	assert.GreaterOrEqual(t, positions[len(positions)-1]-positions[0], 1.5, "the reported position moves on: %v", positions)
}

// assertStatusNamesTheFilm: every status_update the player sent while it
// had a film names it, as the last metadata_update before did (the room
// keeps the position of that entry alone).
func assertStatusNamesTheFilm(t *testing.T, frames []wsFrame) {
	t.Helper()
	var film any
	n := 0
	for _, f := range frames {
		switch {
		case !f.sent:
		case f.msg["event"] == "metadata_update":
			film = f.msg["media_id"]
		case f.msg["event"] == "status_update" && (f.msg["state"] == "playing" || f.msg["state"] == "paused"):
			n++
			assert.Equal(t, film, f.msg["media_id"], "%v", f.msg)
		}
	}
	assert.Greater(t, n, 5, "the player's status reports were seen")
}

// assertLeavesAtOnce: once a play of another film reaches the player,
// the film on screen is paused and said to be, before anything else is
// sent, and no report calls it playing again.
func assertLeavesAtOnce(t *testing.T, frames []wsFrame, old, next int64) {
	t.Helper()
	i := slices.IndexFunc(frames, func(f wsFrame) bool { return !f.sent && f.msg["event"] == "play" })
	require.GreaterOrEqual(t, i, 0, "the play reached the player")
	require.Equal(t, float64(next), frames[i].msg["media_id"])
	j := slices.IndexFunc(frames[i:], func(f wsFrame) bool { return f.sent })
	require.GreaterOrEqual(t, j, 0)
	first := frames[i+j].msg
	assert.Equal(t, []any{"status_update", "paused", float64(old)}, []any{first["event"], first["state"], first["media_id"]},
		"the first word after the play: the old film paused (%v)", first)
	for _, f := range frames[i:] {
		if f.sent && f.msg["event"] == "status_update" && f.msg["state"] == "playing" {
			assert.Equal(t, float64(next), f.msg["media_id"], "only the new film plays: %v", f.msg)
		}
	}
}

// savedPosition waits until the server keeps a position of media id
// within a second of shown (the page shows whole seconds) and returns it.
func savedPosition(t *testing.T, wa *screenApp, id int64, shown float64) float64 {
	t.Helper()
	var at float64
	require.Eventually(t, func() bool {
		resp, raw := wa.raw(t, "GET", "/api/media/continue", wa.user, nil)
		require.Equal(t, 200, resp.StatusCode, string(raw))
		for _, it := range entries(t, raw) {
			if media, _ := it["media"].(map[string]any); media != nil && media["id"] == float64(id) {
				at, _ = it["position"].(float64)
			}
		}
		return at >= shown && at < shown+1
	}, 5*time.Second, 100*time.Millisecond, "the position the page showed is kept (last seen %v)", at)
	return at
}

// firstReport is the position of the first status_update naming media id
// the page sent after mark.
func firstReport(t *testing.T, frames *frameLog, mark int, id int64) float64 {
	t.Helper()
	var pos float64
	require.Eventually(t, func() bool {
		for _, f := range frames.since(mark) {
			if f.sent && f.msg["event"] == "status_update" && f.msg["media_id"] == float64(id) {
				pos = f.msg["position"].(float64)
				return true
			}
		}
		return false
	}, 5*time.Second, 50*time.Millisecond, "a report of the film")
	return pos
}

// formatTime is seconds as the pages show them: 0:42, 12:05, 1:02:03.
func formatTime(seconds float64) string {
	s := int(seconds)
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// assertOnlyPlayURLs checks that the media elements use /play's URLs
// (play tokens) and the thumbnails blob: URLs: the session token is in no
// address.
func assertOnlyPlayURLs(t *testing.T, player context.Context) {
	t.Helper()
	urls := eval[[]string](t, player, `[...document.querySelectorAll('video, track, img')].map(e => e.src).filter(Boolean)`)
	require.NotEmpty(t, urls)
	for _, u := range urls {
		assert.NotContains(t, u, "token=", u)
		assert.Regexp(t, `^(blob:|http://[^/]+/api/media/\d+/(stream|subtitles/\d+\.vtt)\?st=)`, u)
	}
}
