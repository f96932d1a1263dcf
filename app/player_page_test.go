package app

import (
	"context"
	"fmt"
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
	base string
	heat int64
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
		heat: la.idOf(t, "Фильмы/Боевики/Heat (1995)/Heat.1995.mp4")}, stop
}

// pickOnRemote searches the remote's library for query and taps the first result.
func pickOnRemote(t *testing.T, remote context.Context, query, title string) {
	t.Helper()
	until(t, remote, "the library is there", `document.getElementById('search') !== null`)
	eval[bool](t, remote, `(document.getElementById('search').value = '') === ''`)
	require.NoError(t, chromedp.Do(remote, chromedp.SendKeys(chromedp.CSS("#search"), query)))
	until(t, remote, "the search finds "+title, fmt.Sprintf(`document.querySelector('.results .card .name')?.textContent === %q`, title))
	click(t, remote, ".results .card")
}

// position is where the player is in the film, as its page reports it
// (a remuxed stream's own clock starts where the remux does).
const playerPosition = `Number(document.getElementById('time').textContent.split(' / ')[0].split(':').reduce((a, b) => a * 60 + Number(b), 0))`

// The end-to-end run: a phone's remote and a TV's player in one
// room, real files, a real browser.
func TestWatchingWithThePlayerAndTheRemote(t *testing.T) {
	wa, stop := newScreenApp(t)
	defer func() { require.NoError(t, stop()) }()
	b, closeBrowser := newPageBrowser(t)
	defer closeBrowser()

	player := b.tab(t, "player")
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

	// The position is kept: a new player page offers to go on from there.
	require.NoError(t, chromedp.Do(player, chromedp.Reload()))
	until(t, player, "the player is back", `document.getElementById('conn').dataset.state === 'open'`)
	until(t, player, "continue watching offers the film", `[...document.querySelectorAll('.continue .card .name')].some(n => n.textContent === 'The Matrix')`)
	click(t, player, ".continue .card")
	until(t, player, "it resumes where it stopped", fmt.Sprintf(`!document.getElementById('resume').hidden && %s >= %f && !document.getElementById('video').paused`, playerPosition, paused-2))

	// An episode goes on to the next one at its end; the remote sees the season.
	click(t, remote, "#toggle") // pause the film, then play the first episode from the player's library
	require.NoError(t, chromedp.Do(player, chromedp.SendKeys(chromedp.CSS("#search"), "dark")))
	until(t, player, "the series is found", `document.querySelector('.results .card .name')?.textContent === 'Dark'`)
	click(t, player, ".results .card")
	until(t, player, "its episodes", `document.querySelectorAll('.drill .episode').length === 2`)
	click(t, player, ".drill .episode")
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
	n := 0
	for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); {
		if m := observer.next(); m["event"] == "status_update" && m["state"] == "playing" {
			n++
		}
	}
	assert.GreaterOrEqual(t, n, 3, "a status_update at least once a second while playing")
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
