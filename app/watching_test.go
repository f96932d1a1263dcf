package app

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/repository/sqlstore/sqlstoretest"
)

// watchApp is a library app with libraryFiles scanned and the ids of a
// film, an episode, its season and its series.
type watchApp struct {
	*libApp
	matrix, episode, season, series int64
}

func newWatchApp(t *testing.T) *watchApp {
	t.Helper()
	la := newLibApp(t, nil)
	la.put(t, libraryFiles())
	la.scan(t)
	wa := &watchApp{libApp: la,
		matrix:  la.idOf(t, "Фильмы/Боевики/The.Matrix.1999.1080p.BluRay.x264-GROUP.mkv"),
		episode: la.idOf(t, "Сериалы/Breaking Bad (2008)/Season 1/Breaking.Bad.S01E01.mkv"),
		season:  la.idOf(t, "Сериалы/Breaking Bad (2008)/Season 1"),
		series:  la.idOf(t, "Сериалы/Breaking Bad (2008)")}
	return wa
}

// progress sends PUT /progress and returns the status and error code.
func (wa *watchApp) progress(t *testing.T, token string, id any, body any) (int, map[string]any) {
	t.Helper()
	resp, out := wa.do(t, "PUT", fmt.Sprintf("/api/media/%v/progress", id), token, body)
	return resp.StatusCode, out
}

// entries decodes a JSON array of entries.
func entries(t *testing.T, raw []byte) []map[string]any {
	t.Helper()
	var out []map[string]any
	require.NoError(t, json.Unmarshal(raw, &out), string(raw))
	return out
}

// stateOf finds the user_state of entry id in list; fails when the entry
// is absent or carries no user_state member.
func stateOf(t *testing.T, list []map[string]any, id int64) any {
	t.Helper()
	for _, e := range list {
		if int64(e["id"].(float64)) == id {
			st, ok := e["user_state"]
			require.True(t, ok, "entry %d has no user_state member", id)
			return st
		}
	}
	t.Fatalf("entry %d is not listed", id)
	return nil
}

// continueOf is GET /api/media/continue's body and X-Total-Count.
func (wa *watchApp) continueOf(t *testing.T, token, query string) ([]map[string]any, string) {
	t.Helper()
	resp, raw := wa.raw(t, "GET", "/api/media/continue"+query, token, nil)
	require.Equal(t, 200, resp.StatusCode, string(raw))
	return entries(t, raw), resp.Header.Get("X-Total-Count")
}

func TestWatchingStateThroughTheAPI(t *testing.T) {
	t.Parallel()
	wa := newWatchApp(t)
	status, body := wa.progress(t, wa.user, wa.matrix, map[string]any{"position": 600.5, "duration": 8160})
	require.Equal(t, 204, status, "%v", body)
	status, _ = wa.progress(t, wa.user, wa.episode, map[string]any{"position": 1200, "duration": 2900})
	require.Equal(t, 204, status)

	// Every entry a user is shown carries the user's state, or null.
	_, raw := wa.raw(t, "GET", "/api/media/files", wa.user, nil) // streamed whole
	all := entries(t, raw)
	st := stateOf(t, all, wa.matrix).(map[string]any)
	assert.Equal(t, 600.5, st["position"])
	assert.Equal(t, 8160.0, st["duration"])
	assert.Equal(t, false, st["watched"])
	updated, err := time.Parse(time.RFC3339Nano, st["updated_at"].(string))
	require.NoError(t, err)
	assert.WithinDuration(t, time.Now(), updated, time.Minute)
	assert.Nil(t, stateOf(t, all, wa.series))
	_, raw = wa.raw(t, "GET", "/api/media/files?type=episode&limit=10", wa.user, nil) // a page
	assert.Equal(t, 1200.0, stateOf(t, entries(t, raw), wa.episode).(map[string]any)["position"])

	_, found := wa.do(t, "POST", "/api/media/by-title", wa.user, map[string]string{"title": "matrix"})
	match := found["match"].(map[string]any)
	require.Contains(t, match, "user_state")
	list := []map[string]any{match}
	for _, alt := range found["alternatives"].([]any) {
		list = append(list, alt.(map[string]any))
		assert.Contains(t, alt, "user_state")
	}
	assert.Equal(t, 600.5, stateOf(t, list, wa.matrix).(map[string]any)["position"])

	_, shelves := wa.do(t, "GET", "/api/media/by-category", wa.user, nil)
	action := shelves["movies"].(map[string]any)["action"].([]any)
	assert.Equal(t, 600.5, action[0].(map[string]any)["user_state"].(map[string]any)["position"])
	assert.Nil(t, shelves["series"].(map[string]any)["uncategorized"].([]any)[0].(map[string]any)["user_state"])

	_, series := wa.do(t, "GET", fmt.Sprintf("/api/media/%d", wa.series), wa.user, nil)
	assert.Nil(t, series["user_state"])
	season := series["children"].([]any)[0].(map[string]any)
	assert.Contains(t, season, "user_state")
	episode := season["children"].([]any)[0].(map[string]any)
	assert.Equal(t, 1200.0, episode["user_state"].(map[string]any)["position"], "the state of a grandchild")

	// Continue: newest first, with the entry and its state.
	cont, total := wa.continueOf(t, wa.user, "")
	assert.Equal(t, "2", total)
	require.Len(t, cont, 2)
	assert.Equal(t, float64(wa.episode), cont[0]["media"].(map[string]any)["id"])
	assert.Equal(t, 1200.0, cont[0]["position"])
	assert.Equal(t, 2900.0, cont[0]["duration"])
	assert.Equal(t, 1200.0, cont[0]["media"].(map[string]any)["user_state"].(map[string]any)["position"])
	assert.Equal(t, float64(wa.matrix), cont[1]["media"].(map[string]any)["id"])
	page, total := wa.continueOf(t, wa.user, "?limit=1&offset=1")
	assert.Equal(t, "2", total)
	require.Len(t, page, 1)
	assert.Equal(t, float64(wa.matrix), page[0]["media"].(map[string]any)["id"])

	// Another account sees none of it.
	_, raw = wa.raw(t, "GET", "/api/media/files", wa.admin, nil)
	assert.Nil(t, stateOf(t, entries(t, raw), wa.matrix))
	other, total := wa.continueOf(t, wa.admin, "")
	assert.Empty(t, other)
	assert.Equal(t, "0", total)

	// 90 % is watched: it leaves continue.
	status, _ = wa.progress(t, wa.user, wa.episode, map[string]any{"position": 2610, "duration": 2900})
	require.Equal(t, 204, status)
	cont, total = wa.continueOf(t, wa.user, "")
	assert.Equal(t, "1", total)
	assert.Equal(t, float64(wa.matrix), cont[0]["media"].(map[string]any)["id"])

	resp, marked := wa.do(t, "POST", fmt.Sprintf("/api/media/%d/watched", wa.matrix), wa.user, map[string]bool{"watched": true})
	require.Equal(t, 200, resp.StatusCode, "%v", marked)
	assert.Equal(t, true, marked["watched"])
	assert.Equal(t, 600.5, marked["position"], "marking keeps the position")
	cont, _ = wa.continueOf(t, wa.user, "")
	assert.Empty(t, cont)

	resp, marked = wa.do(t, "POST", fmt.Sprintf("/api/media/%d/watched", wa.episode), wa.user, map[string]bool{"watched": false})
	require.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, map[string]any{"position": 0.0, "duration": 2900.0, "watched": false, "updated_at": marked["updated_at"]}, marked,
		"unmarking clears the position")
	_, entry := wa.do(t, "GET", fmt.Sprintf("/api/media/%d", wa.episode), wa.user, nil)
	assert.Equal(t, false, entry["user_state"].(map[string]any)["watched"])
}

// TestWatchingRefusesBadInput: each bad request gets the API error body
// with its status and code, and leaves the state as it was.
func TestWatchingRefusesBadInput(t *testing.T) {
	t.Parallel()
	wa := newWatchApp(t)
	for _, c := range []struct {
		name   string
		id     any
		body   any
		status int
		code   string
		field  string
	}{
		{"not JSON", wa.matrix, "{position: 1", 400, "invalid_json", ""},
		{"a string position", wa.matrix, `{"position": "12", "duration": 100}`, 400, "invalid_input", "position"},
		{"a bool duration", wa.matrix, `{"position": 12, "duration": true}`, 400, "invalid_input", "duration"},
		{"an array", wa.matrix, `[12, 100]`, 400, "invalid_input", "body"},
		{"no position", wa.matrix, `{"duration": 100}`, 400, "invalid_input", "position"},
		{"null duration", wa.matrix, `{"position": 1, "duration": null}`, 400, "invalid_input", "duration"},
		{"empty body", wa.matrix, "", 400, "invalid_input", "position"},
		{"negative position", wa.matrix, map[string]any{"position": -3, "duration": 100}, 400, "invalid_input", "position"},
		{"negative duration", wa.matrix, map[string]any{"position": 3, "duration": -100}, 400, "invalid_input", "duration"},
		{"past the end", wa.matrix, map[string]any{"position": 150, "duration": 100}, 400, "invalid_input", "position"},
		{"a huge number", wa.matrix, `{"position": 1e400, "duration": 100}`, 400, "invalid_input", "position"},
		{"id not a number", "abc", map[string]any{"position": 1, "duration": 100}, 400, "invalid_input", "id"},
		{"id zero", 0, map[string]any{"position": 1, "duration": 100}, 400, "invalid_input", "id"},
		{"a series", wa.series, map[string]any{"position": 1, "duration": 100}, 400, "not_playable", ""},
		{"a season", wa.season, map[string]any{"position": 1, "duration": 100}, 400, "not_playable", ""},
		{"unknown id", 99999, map[string]any{"position": 1, "duration": 100}, 404, "media_not_found", ""},
	} {
		status, body := wa.progress(t, wa.user, c.id, c.body)
		assert.Equal(t, c.status, status, c.name)
		assert.Equal(t, c.code, errCode(body), c.name)
		if c.field != "" {
			fields, _ := body["error"].(map[string]any)["fields"].(map[string]any)
			assert.Contains(t, fields, c.field, c.name)
		}
	}
	status, body := wa.progress(t, "", wa.matrix, map[string]any{"position": 1, "duration": 100})
	assert.Equal(t, 401, status)
	assert.Equal(t, "unauthorized", errCode(body))

	for _, c := range []struct {
		name   string
		id     any
		body   any
		status int
		code   string
	}{
		{"no watched", wa.matrix, `{}`, 400, "invalid_input"},
		{"a string", wa.matrix, `{"watched": "yes"}`, 400, "invalid_input"},
		{"not JSON", wa.matrix, `watched`, 400, "invalid_json"},
		{"a series", wa.series, `{"watched": true}`, 400, "not_playable"},
		{"unknown", 99999, `{"watched": true}`, 404, "media_not_found"},
		{"bad id", "x1", `{"watched": true}`, 400, "invalid_input"},
	} {
		resp, body := wa.do(t, "POST", fmt.Sprintf("/api/media/%v/watched", c.id), wa.user, c.body)
		assert.Equal(t, c.status, resp.StatusCode, "watched: %s", c.name)
		assert.Equal(t, c.code, errCode(body), "watched: %s", c.name)
	}
	for _, q := range []string{"?limit=abc", "?limit=-1", "?limit=1001", "?offset=-1", "?offset=1.5"} {
		resp, body := wa.do(t, "GET", "/api/media/continue"+q, wa.user, nil)
		assert.Equal(t, 400, resp.StatusCode, q)
		assert.Equal(t, "invalid_input", errCode(body), q)
		assert.Empty(t, resp.Header.Get("X-Total-Count"), q)
	}

	_, raw := wa.raw(t, "GET", "/api/media/files", wa.user, nil)
	for _, e := range entries(t, raw) {
		assert.Nil(t, e["user_state"], "nothing was written: %v", e["path"])
	}
}

// TestAFinishedFilmIsNoLongerRecommended: the offline assistant's
// suggestions leave out what the asker watched, and only for them.
func TestAFinishedFilmIsNoLongerRecommended(t *testing.T) {
	t.Parallel()
	wa := newWatchApp(t)
	ask := func(token string) string {
		return wa.chatAs(t, token, "посоветуй фильм")["response"].(string)
	}
	before := ask(wa.user)
	require.Contains(t, before, "«The Matrix»", "the film is suggested at first")

	status, _ := wa.progress(t, wa.user, wa.matrix, map[string]any{"position": 8000, "duration": 8160})
	require.Equal(t, 204, status)
	assert.NotContains(t, ask(wa.user), "«The Matrix»", "finished: no longer suggested")
	assert.Contains(t, ask(wa.admin), "«The Matrix»", "another account has not watched it")
}

// TestAPlayerInARoomKeepsThePosition: a signed-in player's status_updates
// through a real WebSocket keep its account's position in what the
// remote played; an anonymous player's keep nothing.
func TestAPlayerInARoomKeepsThePosition(t *testing.T) {
	t.Parallel()
	ra, stop := newRoomApp(t)
	defer func() { require.NoError(t, stop()) }()
	player := joinRoom(t, ra.addr, "player", "viewer@example.org", ra.user)
	remote := joinRoom(t, ra.addr, "remote", "viewer@example.org", ra.user)
	remote.presence(1, 1)
	remote.say(map[string]any{"event": "play", "file": fmt.Sprintf("media:%d", ra.id)})
	require.Equal(t, "play", player.next()["event"])
	player.say(map[string]any{"event": "status_update", "state": "playing", "position": 42.5, "duration": 6000})
	require.Equal(t, "status_update", remote.next()["event"])

	continued := func(token string) []map[string]any {
		resp, raw := ra.raw(t, "GET", "/api/media/continue", token, nil)
		require.Equal(t, 200, resp.StatusCode)
		return entries(t, raw)
	}
	require.Eventually(t, func() bool { return len(continued(ra.user)) == 1 }, roomWait, 10*time.Millisecond)
	got := continued(ra.user)[0]
	assert.Equal(t, 42.5, got["position"])
	assert.Equal(t, float64(ra.id), got["media"].(map[string]any)["id"])
	assert.Empty(t, continued(ra.admin))

	anon := joinRoom(t, ra.addr, "player", "den", "")
	anonRemote := joinRoom(t, ra.addr, "remote", "den", "")
	anonRemote.presence(1, 1)
	anon.say(map[string]any{"event": "metadata_update", "title": "Heat", "media_id": ra.id})
	anon.say(map[string]any{"event": "status_update", "state": "playing", "position": 99, "duration": 6000})
	// A player's messages are handled in order, a status kept before the
	// next is read: once the next one arrives, the status was handled.
	anon.say(map[string]any{"event": "metadata_update", "title": "Heat (1995)", "media_id": ra.id})
	for _, ev := range []string{"metadata_update", "status_update", "metadata_update"} {
		require.Equal(t, ev, anonRemote.next()["event"])
	}
	got = continued(ra.user)[0]
	assert.Equal(t, 42.5, got["position"], "an anonymous player's report is nobody's")
	var rows int
	require.NoError(t, sqlstoretest.Raw(t, ra.cfg.DBPath()).QueryRow(`SELECT count(*) FROM watch_state`).Scan(&rows))
	assert.Equal(t, 1, rows, "the viewer's Heat alone")
	assert.False(t, strings.Contains(ra.stderr.String(), "keep a player's position"), "no failure was logged")
}

// TestPlayResumesWhereTheViewerStopped: /play's resume_position is the
// account's stored position, 0 for another account and once watched.
func TestPlayResumesWhereTheViewerStopped(t *testing.T) {
	t.Parallel()
	pa := newPlayApp(t, nil)
	resp, body := pa.do(t, "PUT", mediaPath(pa.matrix, "progress"), pa.user, map[string]any{"position": 1.5, "duration": 4})
	require.Equal(t, 204, resp.StatusCode, "%v", body)
	assert.Equal(t, 1.5, pa.play(t, pa.matrix, pa.user)["resume_position"])
	assert.Equal(t, 0.0, pa.play(t, pa.matrix, pa.admin)["resume_position"], "another account never started it")

	resp, _ = pa.do(t, "PUT", mediaPath(pa.matrix, "progress"), pa.user, map[string]any{"position": 3.8, "duration": 4})
	require.Equal(t, 204, resp.StatusCode)
	assert.Equal(t, 0.0, pa.play(t, pa.matrix, pa.user)["resume_position"], "watched: it starts over")
}

// TestAPagesOwnSavesAreNeverThrottled: a page saves its position every
// few seconds and when the viewer pauses or leaves; the last save is
// where the viewer resumes, however soon it follows the one before.
func TestAPagesOwnSavesAreNeverThrottled(t *testing.T) {
	t.Parallel()
	wa := newWatchApp(t)
	for _, pos := range []float64{100, 104.5, 106} {
		status, body := wa.progress(t, wa.user, wa.matrix, map[string]any{"position": pos, "duration": 8160})
		require.Equal(t, 204, status, "%v", body)
		_, entry := wa.do(t, "GET", fmt.Sprintf("/api/media/%d", wa.matrix), wa.user, nil)
		assert.Equal(t, pos, entry["user_state"].(map[string]any)["position"], "kept at once")
	}
}
