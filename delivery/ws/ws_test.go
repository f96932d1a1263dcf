package ws_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	fws "github.com/fasthttp/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	deliveryhttp "mediateka/delivery/http"
	"mediateka/delivery/ws"
	"mediateka/domain"
	"mediateka/repository/localfs"
	"mediateka/repository/sqlstore"
	"mediateka/repository/sqlstore/sqlstoretest"
	"mediateka/usecase/auth"
	"mediateka/usecase/catalog"
	"mediateka/usecase/control"
	"mediateka/usecase/textmatch"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m,
		// fasthttp keeps its Date header fresh in one goroutine for the
		// life of the process.
		goleak.IgnoreAnyFunction("github.com/valyala/fasthttp.updateServerDate.func1"),
		// A stopped server's worker-pool cleaner notices the stop only
		// after its idle sleep (10 s); it holds no connection.
		goleak.IgnoreAnyFunction("github.com/valyala/fasthttp.(*workerPool).Start.func2"))
}

const wait = 3 * time.Second

// server is the HTTP delivery with the rooms mounted, on 127.0.0.1, over
// a real hub, catalogue and token verifier.
type server struct {
	t    *testing.T
	addr string
	hub  *control.Service
	auth *auth.Service
	db   *sqlstoretest.DB
}

func start(t *testing.T, hubOpt control.Options, wsOpt ws.Options) *server {
	t.Helper()
	db := sqlstoretest.New(t, textmatch.Normalize)
	verifier, err := auth.New(db.Users, sqlstore.NewActivity(db.Store), auth.Options{Secret: []byte("0123456789abcdef0123456789abcdef")})
	require.NoError(t, err)
	hub := control.New(catalog.New(db.Media, db.Media, localfs.FS{}, catalog.Options{}), hubOpt)
	srv := deliveryhttp.New(deliveryhttp.Deps{Auth: verifier, Control: ws.New(hub, wsOpt)}, deliveryhttp.Options{BodyLimit: 1 << 20})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	served := make(chan struct{})
	go func() { defer close(served); _ = srv.Serve(ln) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), wait)
		defer cancel()
		require.NoError(t, srv.App().ShutdownWithContext(ctx))
		require.NoError(t, hub.Stop(ctx), "every connection left")
		<-served
	})
	return &server{t: t, addr: ln.Addr().String(), hub: hub, auth: verifier, db: db}
}

// dial opens a room connection; query is role=…&room=…[&token=…].
func (s *server) dial(query string, header http.Header) (*fws.Conn, *http.Response, error) {
	d := fws.Dialer{HandshakeTimeout: wait}
	c, resp, err := d.Dial("ws://"+s.addr+"/api/control/ws?"+query, header)
	if c != nil {
		s.t.Cleanup(func() { _ = c.Close() })
	}
	return c, resp, err
}

func (s *server) join(query string) *fws.Conn {
	s.t.Helper()
	c, _, err := s.dial(query, nil)
	require.NoError(s.t, err)
	return c
}

func (s *server) token(email string, edit ...func(*domain.User)) string {
	s.t.Helper()
	tok, err := s.auth.IssueToken(s.db.User(email, edit...))
	require.NoError(s.t, err)
	return tok
}

// read returns the next message; presence is skipped when skipPresence.
func read(t *testing.T, c *fws.Conn, skipPresence bool) map[string]any {
	t.Helper()
	for {
		require.NoError(t, c.SetReadDeadline(time.Now().Add(wait)))
		_, raw, err := c.ReadMessage()
		require.NoError(t, err)
		var m map[string]any
		require.NoError(t, json.Unmarshal(raw, &m), string(raw))
		if !skipPresence || m["event"] != "presence" {
			return m
		}
	}
}

// closeCode reads until the server closes the socket and returns the code.
func closeCode(t *testing.T, c *fws.Conn) int {
	t.Helper()
	require.NoError(t, c.SetReadDeadline(time.Now().Add(wait)))
	for {
		_, _, err := c.ReadMessage()
		if err == nil {
			continue
		}
		var ce *fws.CloseError
		require.True(t, errors.As(err, &ce), "a close frame, not %v", err)
		return ce.Code
	}
}

func errorBody(t *testing.T, resp *http.Response) (int, string, map[string]any) {
	t.Helper()
	require.NotNil(t, resp)
	raw, _ := io.ReadAll(resp.Body)
	var body struct {
		Error struct {
			Code   string         `json:"code"`
			Fields map[string]any `json:"fields"`
		} `json:"error"`
	}
	require.NoError(t, json.Unmarshal(raw, &body), string(raw))
	return resp.StatusCode, body.Error.Code, body.Error.Fields
}

func TestRefusedJoinsAreHTTPErrorsBeforeTheUpgrade(t *testing.T) {
	s := start(t, control.Options{AllowAnonymousRooms: true}, ws.Options{})
	ann := s.token("ann@example.org")
	bob := s.token("bob@example.org")
	tests := []struct {
		name   string
		query  string
		origin string
		status int
		code   string
		field  string
	}{
		{"no role", "room=den", "", 400, "invalid_input", "role"},
		{"a made-up role", "role=tv&room=den", "", 400, "invalid_input", "role"},
		{"no room", "role=player", "", 400, "invalid_input", "room"},
		{"an e-mail room without a token", "role=player&room=ann@example.org", "", 401, "unauthorized", ""},
		{"someone else's e-mail room", "role=remote&room=ann@example.org&token=" + bob, "", 403, "forbidden", ""},
		{"a bad token in a shared room", "role=remote&room=den&token=nonsense", "", 401, "unauthorized", ""},
		{"a page of another origin", "role=remote&room=den", "http://evil.example", 403, "origin_not_allowed", ""},
		{"a page of the origin null", "role=remote&room=den", "null", 403, "origin_not_allowed", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := http.Header{}
			if tt.origin != "" {
				h.Set("Origin", tt.origin)
			}
			_, resp, err := s.dial(tt.query, h)
			require.ErrorIs(t, err, fws.ErrBadHandshake)
			status, code, fields := errorBody(t, resp)
			assert.Equal(t, tt.status, status)
			assert.Equal(t, tt.code, code)
			if tt.field != "" {
				assert.Contains(t, fields, tt.field)
			}
		})
	}
	s.join("role=player&room=ann@example.org&token=" + ann)
	c, _, err := s.dial("role=remote&room=den", http.Header{"Origin": {"http://" + s.addr}})
	require.NoError(t, err, "the server's own pages may join")
	assert.Equal(t, map[string]any{"event": "presence", "players": 0.0, "remotes": 1.0}, read(t, c, false))

	resp, err := http.Get("http://" + s.addr + "/api/control/ws?role=player&room=den")
	require.NoError(t, err)
	defer resp.Body.Close()
	status, code, _ := errorBody(t, resp)
	assert.Equal(t, 426, status, "a plain request on the WebSocket route")
	assert.Equal(t, "upgrade_required", code)
}

func TestAllowedOriginsAdmitOtherPages(t *testing.T) {
	s := start(t, control.Options{AllowAnonymousRooms: true}, ws.Options{AllowedOrigins: []string{"https://web.telegram.org"}})
	_, _, err := s.dial("role=remote&room=den", http.Header{"Origin": {"https://web.telegram.org"}})
	assert.NoError(t, err)
	_, resp, err := s.dial("role=remote&room=den", http.Header{"Origin": {"https://telegram.org"}})
	require.Error(t, err)
	_, code, _ := errorBody(t, resp)
	assert.Equal(t, "origin_not_allowed", code)
}

func TestMessagesCrossTheSocketAndBadOnesAreAnswered(t *testing.T) {
	s := start(t, control.Options{AllowAnonymousRooms: true}, ws.Options{})
	player := s.join("role=player&room=den")
	remote := s.join("role=remote&room=den")
	require.NoError(t, player.WriteMessage(fws.TextMessage, []byte(`{"event":"status_update","state":"playing","position":3,"duration":9}`)))
	assert.Equal(t, map[string]any{"event": "status_update", "state": "playing", "position": 3.0, "duration": 9.0}, read(t, remote, true))

	require.NoError(t, remote.WriteMessage(fws.TextMessage, []byte("not json")))
	assert.Equal(t, "invalid_json", read(t, remote, true)["code"])
	require.NoError(t, remote.WriteMessage(fws.BinaryMessage, []byte(`{"event":"volume","level":5}`)))
	assert.Equal(t, map[string]any{"event": "volume", "level": 5.0}, read(t, player, true), "a binary frame is read the same way")
}

func TestAnOversizedMessageClosesTheSocket(t *testing.T) {
	s := start(t, control.Options{AllowAnonymousRooms: true}, ws.Options{CloseGrace: 200 * time.Millisecond})
	player := s.join("role=player&room=den")
	remote := s.join("role=remote&room=den")
	big := `{"event":"metadata_update","title":"` + strings.Repeat("x", 64<<10) + `"}`
	require.NoError(t, player.WriteMessage(fws.TextMessage, []byte(big)))
	assert.Equal(t, fws.CloseMessageTooBig, closeCode(t, player))
	waitPresence(t, remote, 0, 1)
}

// waitPresence reads until a presence message with these counts arrives.
func waitPresence(t *testing.T, c *fws.Conn, players, remotes int) {
	t.Helper()
	for {
		m := read(t, c, false)
		if m["event"] == "presence" && m["players"] == float64(players) && m["remotes"] == float64(remotes) {
			return
		}
	}
}

func TestASilentPeerIsDropped(t *testing.T) {
	s := start(t, control.Options{AllowAnonymousRooms: true, PingEvery: 50 * time.Millisecond},
		ws.Options{PongWait: 300 * time.Millisecond, CloseGrace: 100 * time.Millisecond})
	s.join("role=player&room=den") // never reads, so never answers a ping
	remote := s.join("role=remote&room=den")
	waitPresence(t, remote, 1, 1)
	begin := time.Now()
	waitPresence(t, remote, 0, 1)
	assert.Less(t, time.Since(begin), 2*time.Second)
}

func TestStatusFollowsTheRoomRules(t *testing.T) {
	s := start(t, control.Options{AllowAnonymousRooms: true}, ws.Options{})
	ann := s.token("ann@example.org")
	player := s.join("role=player&room=ann@example.org&token=" + ann)
	require.NoError(t, player.WriteMessage(fws.TextMessage, []byte(`{"event":"playlist_update","files":["/m/a.mkv"]}`)))
	require.NoError(t, player.WriteMessage(fws.TextMessage, []byte(`{"event":"status_update","state":"paused","position":3,"duration":9}`)))
	time.Sleep(50 * time.Millisecond)

	get := func(query string) (int, map[string]any) {
		resp, err := http.Get("http://" + s.addr + "/api/control/status?" + query)
		require.NoError(t, err)
		defer resp.Body.Close()
		var body map[string]any
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&body))
		return resp.StatusCode, body
	}
	status, body := get("room=ann@example.org&token=" + ann)
	assert.Equal(t, 200, status)
	assert.Equal(t, map[string]any{"room": "ann@example.org", "players": 1.0, "remotes": 0.0,
		"state":    map[string]any{"state": "paused", "position": 3.0, "duration": 9.0},
		"playlist": []any{"/m/a.mkv"}, "metadata": nil,
		"playback": map[string]any{"state": "paused", "position": 3.0, "duration": 9.0, "volume": 100.0}}, body)

	status, body = get("")
	assert.Equal(t, 200, status)
	assert.Equal(t, map[string]any{"room": "default", "players": 0.0, "remotes": 0.0, "state": nil, "playlist": []any{},
		"metadata": nil, "playback": map[string]any{"state": "idle", "position": 0.0, "duration": 0.0, "volume": 100.0}}, body)

	status, _ = get("room=ann@example.org")
	assert.Equal(t, 401, status)
	status, _ = get("room=ann@example.org&token=" + s.token("bob@example.org"))
	assert.Equal(t, 403, status)
}

func TestStopClosesSocketsGoingAway(t *testing.T) {
	s := start(t, control.Options{AllowAnonymousRooms: true}, ws.Options{})
	conns := []*fws.Conn{s.join("role=player&room=den"), s.join("role=remote&room=den"), s.join("role=remote&room=attic")}
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- s.hub.Stop(ctx) }()
	for _, c := range conns {
		assert.Equal(t, fws.CloseGoingAway, closeCode(t, c))
	}
	require.NoError(t, <-done)
	_, resp, err := s.dial("role=player&room=den", nil)
	require.Error(t, err)
	status, code, _ := errorBody(t, resp)
	assert.Equal(t, 503, status)
	assert.Equal(t, "shutting_down", code)
}
