package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	fws "github.com/fasthttp/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/bench/measure"
	"mediateka/usecase/auth"
)

// roomWait bounds each read of a room test. It is a limit for a stuck
// test, never a measure: the stalled-reader test pushes 15 MB through the
// server, which on a busy 2-core machine can take more than 5 s.
const roomWait = 20 * time.Second

// roomClient is one WebSocket connection to a room of a running server.
type roomClient struct {
	t *testing.T
	c *fws.Conn
}

// joinRoom connects to addr as role in room, with token when not empty.
func joinRoom(t *testing.T, addr, role, room, token string) *roomClient {
	t.Helper()
	c, resp, err := dialRoom(addr, role, room, token, nil)
	require.NoError(t, err, "%v", resp)
	t.Cleanup(func() { _ = c.Close() })
	return &roomClient{t: t, c: c}
}

func dialRoom(addr, role, room, token string, netDial func(ctx context.Context, network, addr string) (net.Conn, error)) (*fws.Conn, *http.Response, error) {
	q := url.Values{"role": {role}, "room": {room}}
	if token != "" {
		q.Set("token", token)
	}
	d := fws.Dialer{HandshakeTimeout: roomWait, NetDialContext: netDial}
	return d.Dial("ws://"+addr+"/api/control/ws?"+q.Encode(), nil)
}

func (rc *roomClient) say(v any) {
	rc.t.Helper()
	require.NoError(rc.t, rc.c.WriteJSON(v))
}

// next returns the next message that is not a presence.
func (rc *roomClient) next() map[string]any {
	rc.t.Helper()
	for {
		m := rc.any()
		if m["event"] != "presence" {
			return m
		}
	}
}

func (rc *roomClient) any() map[string]any {
	rc.t.Helper()
	require.NoError(rc.t, rc.c.SetReadDeadline(time.Now().Add(roomWait)))
	var m map[string]any
	require.NoError(rc.t, rc.c.ReadJSON(&m))
	return m
}

// presence reads until the room counts these players and remotes.
func (rc *roomClient) presence(players, remotes int) {
	rc.t.Helper()
	for {
		if m := rc.any(); m["event"] == "presence" && m["players"] == float64(players) && m["remotes"] == float64(remotes) {
			return
		}
	}
}

// closeCode reads until the server closes the socket and returns the
// close frame's code, or -1 when the connection ended without one. It
// does not fail the test, so it may run in a goroutine of its own.
func (rc *roomClient) closeCode() int {
	_ = rc.c.SetReadDeadline(time.Now().Add(roomWait))
	for {
		if _, _, err := rc.c.ReadMessage(); err != nil {
			var ce *fws.CloseError
			if errors.As(err, &ce) {
				return ce.Code
			}
			return -1
		}
	}
}

// roomApp is a running library app with a movie in its catalogue.
type roomApp struct {
	*libApp
	addr  string
	movie string // the movie's path
	id    int64
}

func newRoomApp(t *testing.T) (*roomApp, func() error) {
	t.Helper()
	la := newLibApp(t, nil)
	la.put(t, map[string]string{"Heat (1995)/Heat.1995.1080p.mkv": "video"})
	la.scan(t)
	ra := &roomApp{libApp: la, movie: filepath.Join(la.root, "Heat (1995)/Heat.1995.1080p.mkv"),
		id: la.idOf(t, "Heat (1995)/Heat.1995.1080p.mkv")}
	addr, stop := runOnLoopback(t, la.testApp)
	ra.addr = addr
	return ra, stop
}

func (ra *roomApp) status(t *testing.T, query string) (int, map[string]any) {
	t.Helper()
	resp, err := http.Get("http://" + ra.addr + "/api/control/status?" + query)
	require.NoError(t, err)
	defer resp.Body.Close()
	var body map[string]any
	raw, _ := io.ReadAll(resp.Body)
	require.NoError(t, json.Unmarshal(raw, &body), string(raw))
	return resp.StatusCode, body
}

func TestRoomsEndToEnd(t *testing.T) {
	t.Parallel()
	ra, stop := newRoomApp(t)
	defer func() { require.NoError(t, stop()) }()
	room := "viewer@example.org"
	player := joinRoom(t, ra.addr, "player", room, ra.user)
	player.presence(1, 0)
	remote := joinRoom(t, ra.addr, "remote", "Viewer@Example.org", ra.user)
	remote.presence(1, 1)
	player.presence(1, 1)

	remote.say(map[string]any{"event": "play", "file": ra.movie})
	play := player.next()
	answer, _ := play["play"].(map[string]any)
	delete(play, "play")
	assert.Equal(t, map[string]any{"event": "play", "file": ra.movie, "media_id": float64(ra.id), "title": "Heat"}, play)
	assert.Equal(t, float64(ra.id), answer["media_id"], "the player's own /play answer comes with the play")
	assert.Contains(t, answer["stream_url"], "st=")
	remote.say(map[string]any{"event": "play", "file": filepath.Join(filepath.Dir(ra.root), "config.json")})
	assert.Equal(t, "media_not_found", remote.next()["code"], "a path outside the catalogue")

	player.say(map[string]any{"event": "status_update", "state": "playing", "position": 12.5, "duration": 6000})
	assert.Equal(t, map[string]any{"event": "status_update", "state": "playing", "position": 12.5, "duration": 6000.0}, remote.next())
	player.say(map[string]any{"event": "playlist_update", "files": []any{fmt.Sprintf("media:%d", ra.id)}})
	player.say(map[string]any{"event": "metadata_update", "title": "Heat", "year": 1995, "media_id": ra.id})
	assert.Equal(t, "playlist_update", remote.next()["event"])
	assert.Equal(t, "metadata_update", remote.next()["event"])
	remote.say(map[string]any{"event": "volume", "level": 35})
	assert.Equal(t, map[string]any{"event": "volume", "level": 35.0}, player.next())
	remote.say(map[string]any{"event": "volume", "level": 50.5})
	assert.Equal(t, "invalid_input", remote.next()["code"])

	late := joinRoom(t, ra.addr, "remote", room, ra.admin)
	late.presence(1, 2)
	assert.Equal(t, "status_update", late.next()["event"], "a late remote gets the last status first")
	assert.Equal(t, map[string]any{"event": "playlist_update", "files": []any{fmt.Sprintf("media:%d", ra.id)}}, late.next())
	assert.Equal(t, map[string]any{"event": "metadata_update", "title": "Heat", "year": 1995.0, "media_id": float64(ra.id)}, late.next())

	status, body := ra.status(t, "room="+url.QueryEscape(room)+"&token="+ra.user)
	assert.Equal(t, 200, status)
	assert.Equal(t, map[string]any{"room": room, "players": 1.0, "remotes": 2.0,
		"state":    map[string]any{"state": "playing", "position": 12.5, "duration": 6000.0},
		"playlist": []any{fmt.Sprintf("media:%d", ra.id)},
		"metadata": map[string]any{"title": "Heat", "year": 1995.0, "media_id": float64(ra.id)},
		"playback": map[string]any{"state": "playing", "position": 12.5, "duration": 6000.0, "volume": 35.0,
			"file": ra.movie, "media_id": float64(ra.id), "title": "Heat"}}, body)

	late.c.Close()
	remote.presence(1, 1)
}

func TestRoomsOfAnAccountNeedItsToken(t *testing.T) {
	t.Parallel()
	ra, stop := newRoomApp(t)
	defer func() { require.NoError(t, stop()) }()
	_, err := AddUser(context.Background(), ra.cfg, auth.NewUser{Email: "other@example.org", Name: "Other", Password: "other-password"})
	require.NoError(t, err)
	other := ra.login(t, "other@example.org", "other-password")

	for _, tt := range []struct {
		token  string
		status int
		code   string
	}{{"", 401, "unauthorized"}, {other, 403, "forbidden"}, {"forged.token.value", 401, "unauthorized"}} {
		_, resp, err := dialRoom(ra.addr, "remote", "viewer@example.org", tt.token, nil)
		require.Error(t, err)
		require.NotNil(t, resp)
		raw, _ := io.ReadAll(resp.Body)
		assert.Equal(t, tt.status, resp.StatusCode)
		assert.Equal(t, tt.code, errCode(decodeJSON(t, raw)))
		status, body := ra.status(t, "room=viewer@example.org&token="+tt.token)
		assert.Equal(t, tt.status, status)
		assert.Equal(t, tt.code, errCode(body))
	}
	_, resp, err := dialRoom(ra.addr, "spectator", "den", "", nil)
	require.Error(t, err)
	assert.Equal(t, 400, resp.StatusCode)
}

func decodeJSON(t *testing.T, raw []byte) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal(raw, &m), string(raw))
	return m
}

// TestRoomsStalledReaderLosesOnlyItsOwnConnection fills the queue of a
// remote that stopped reading: the server closes that connection alone,
// the chatty players of its room stay, and another room goes on.
func TestRoomsStalledReaderLosesOnlyItsOwnConnection(t *testing.T) {
	t.Parallel()
	ra, stop := newRoomApp(t)
	defer func() { require.NoError(t, stop()) }()
	stalled, _, err := dialRoom(ra.addr, "remote", "den", "", measure.StallingDial)
	require.NoError(t, err)
	defer stalled.Close()
	// A loopback connection buffers about 3 MB even with the stalling
	// dialer's small receive buffer; six players' bursts of 40 messages of 60 KB (15 MB) are
	// well beyond that plus the 64 messages of the queue.
	var players []*roomClient
	for range 6 {
		players = append(players, joinRoom(t, ra.addr, "player", "den", ""))
	}
	atticPlayer := joinRoom(t, ra.addr, "player", "attic", "")
	atticRemote := joinRoom(t, ra.addr, "remote", "attic", "")

	big := make([]string, 1000)
	for i := range big {
		big[i] = fmt.Sprintf("/library/%04d/%s.mkv", i, strings.Repeat("x", 42))
	}
	for range 40 { // each player's burst
		for _, p := range players {
			p.say(map[string]any{"event": "playlist_update", "files": big})
		}
	}
	players[0].presence(6, 0)
	atticPlayer.say(map[string]any{"event": "status_update", "state": "paused", "position": 1, "duration": 2})
	assert.Equal(t, "status_update", atticRemote.next()["event"], "the other room goes on")
	remote := joinRoom(t, ra.addr, "remote", "den", "")
	assert.Equal(t, "playlist_update", remote.next()["event"], "the stalled room's players are still there")
	_, body := ra.status(t, "room=den")
	assert.Equal(t, 6.0, body["players"])
}

// TestShutdownClosesRoomsGoingAway stops the app's lifecycle with sockets
// open: each gets a 1001 close frame and the shutdown does not wait for
// them to go away on their own.
func TestShutdownClosesRoomsGoingAway(t *testing.T) {
	t.Parallel()
	ta := newTestApp(t, nil)
	addr, stop := runOnLoopback(t, ta)
	player := joinRoom(t, addr, "player", "den", "")
	remote := joinRoom(t, addr, "remote", "den", "")
	remote.presence(1, 1)
	codes := make(chan int, 2)
	for _, c := range []*roomClient{player, remote} {
		go func() { codes <- c.closeCode() }()
	}
	begin := time.Now()
	require.NoError(t, stop())
	assert.Less(t, time.Since(begin), 3*time.Second)
	for range 2 {
		assert.Equal(t, fws.CloseGoingAway, <-codes)
	}
}

// A room connection does not outlive its token: after the viewer changes
// their password, their open socket in their own room is closed with
// 1008 at the next check, while the administrator's stays.
func TestARoomConnectionEndsWhenItsTokenIsRevoked(t *testing.T) {
	t.Parallel()
	la := newLibAppEnv(t, nil, map[string]string{"MEDIATEKA_CONTROL__TOKEN_RECHECK": "50ms"})
	addr, stop := runOnLoopback(t, la.testApp)
	defer func() { require.NoError(t, stop()) }()

	const room = "viewer@example.org"
	player := joinRoom(t, addr, "player", room, la.admin)
	remote := joinRoom(t, addr, "remote", room, la.user)
	player.presence(1, 1)
	time.Sleep(200 * time.Millisecond) // several checks pass while the token is good
	remote.say(map[string]any{"event": "volume", "level": 40})
	assert.Equal(t, "volume", player.next()["event"], "the remote is still in the room")

	resp, _ := la.do(t, "POST", "/api/auth/password", la.user,
		map[string]string{"current_password": "viewer-password", "new_password": "a-brand-new-password"})
	require.Equal(t, 204, resp.StatusCode)
	assert.Equal(t, 1008, remote.closeCode(), "the revoked token's socket is closed")
	player.presence(1, 0)
}
