package control_test

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"mediateka/domain"
	"mediateka/repository/localfs"
	"mediateka/repository/sqlstore/sqlstoretest"
	"mediateka/usecase/catalog"
	"mediateka/usecase/control"
	"mediateka/usecase/textmatch"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// wait bounds every wait for something that should happen at once.
const wait = 2 * time.Second

// fakeConn is a transport that keeps what the hub writes. A stalled one
// never finishes a Write, like a peer that stopped reading, until it is
// closed. Closing it ends its reader (see peer), as closing a socket does.
type fakeConn struct {
	frames  chan []byte
	stalled bool
	closed  chan struct{}
	once    sync.Once
	mu      sync.Mutex
	code    int
	reason  string
}

var errClosed = errors.New("closed")

func newFakeConn(stalled bool) *fakeConn {
	return &fakeConn{frames: make(chan []byte, 100_000), stalled: stalled, closed: make(chan struct{})}
}

func (f *fakeConn) Write(msg []byte) error {
	if f.stalled {
		<-f.closed
		return errClosed
	}
	select {
	case <-f.closed:
		return errClosed
	default:
	}
	f.frames <- msg
	return nil
}

func (f *fakeConn) Ping() error { return nil }

func (f *fakeConn) Close(code int, reason string) {
	f.once.Do(func() {
		f.mu.Lock()
		f.code, f.reason = code, reason
		f.mu.Unlock()
		close(f.closed)
	})
}

// closeCode waits for the hub to close the connection and returns the code.
func (f *fakeConn) closeCode(t *testing.T) int {
	t.Helper()
	select {
	case <-f.closed:
	case <-time.After(wait):
		t.Fatal("the connection was not closed")
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.code
}

func (f *fakeConn) isClosed() bool {
	select {
	case <-f.closed:
		return true
	default:
		return false
	}
}

// env is a hub over a real catalogue in SQLite.
type env struct {
	t   *testing.T
	db  *sqlstoretest.DB
	hub *control.Service
}

func newEnv(t *testing.T, opt control.Options) *env {
	t.Helper()
	return newEnvWith(t, func(*sqlstoretest.DB, *catalog.Service) control.Options { return opt })
}

// newEnvWith is newEnv with options made over the env's store and
// catalogue.
func newEnvWith(t *testing.T, options func(*sqlstoretest.DB, *catalog.Service) control.Options) *env {
	t.Helper()
	db := sqlstoretest.New(t, textmatch.Normalize)
	cat := catalog.New(db.Media, db.Media, localfs.FS{}, catalog.Options{})
	hub := control.New(cat, options(db, cat))
	t.Cleanup(func() {
		ctx, cancel := stopCtx()
		defer cancel()
		require.NoError(t, hub.Stop(ctx))
	})
	return &env{t: t, db: db, hub: hub}
}

// anonymous is the caller of a request without a token.
var anonymous = domain.Caller{}

// peer is one connection to the hub, driven the way the WebSocket
// delivery drives it: a reader that calls Leave when the socket closes.
type peer struct {
	t      *testing.T
	conn   *fakeConn
	client *control.Client
	gone   chan struct{}
}

func (e *env) join(role control.Role, room string, caller domain.Caller) *peer {
	e.t.Helper()
	return e.joinConn(role, room, caller, newFakeConn(false))
}

func (e *env) joinConn(role control.Role, room string, caller domain.Caller, conn *fakeConn) *peer {
	e.t.Helper()
	ticket, err := e.hub.Admit(string(role), room, caller)
	require.NoError(e.t, err)
	c, err := e.hub.Join(ticket, conn)
	require.NoError(e.t, err)
	p := &peer{t: e.t, conn: conn, client: c, gone: make(chan struct{})}
	go func() {
		<-conn.closed
		c.Leave()
		close(p.gone)
	}()
	e.t.Cleanup(p.leave)
	return p
}

// leave closes the peer's socket and waits until it has left its room.
func (p *peer) leave() {
	p.conn.Close(control.CloseNormal, "")
	select {
	case <-p.gone:
	case <-time.After(wait):
		p.t.Error("the connection did not leave its room")
	}
}

// say sends one message given as a value to encode, or raw bytes.
func (p *peer) say(msg any) {
	p.t.Helper()
	raw, ok := msg.([]byte)
	if !ok {
		var err error
		raw, err = json.Marshal(msg)
		require.NoError(p.t, err)
	}
	p.client.Receive(raw)
}

// next returns the next message the peer received.
func (p *peer) next() map[string]any {
	p.t.Helper()
	select {
	case raw := <-p.conn.frames:
		var out map[string]any
		require.NoError(p.t, json.Unmarshal(raw, &out), string(raw))
		return out
	case <-time.After(wait):
		p.t.Fatal("no message arrived")
		return nil
	}
}

// nextOf skips presence messages and returns the next other one.
func (p *peer) nextOf() map[string]any {
	p.t.Helper()
	for {
		if m := p.next(); m["event"] != control.EventPresence {
			return m
		}
	}
}

// quiet asserts that nothing but presence arrives for a moment.
func (p *peer) quiet() {
	p.t.Helper()
	deadline := time.After(20 * time.Millisecond)
	for {
		select {
		case raw := <-p.conn.frames:
			var m map[string]any
			_ = json.Unmarshal(raw, &m)
			if m["event"] != control.EventPresence {
				p.t.Fatalf("unexpected message %s", raw)
			}
		case <-deadline:
			return
		}
	}
}

// drain drops every message received so far.
func (p *peer) drain() {
	for {
		select {
		case <-p.conn.frames:
		case <-time.After(20 * time.Millisecond):
			return
		}
	}
}

// stopCtx bounds a Stop.
func stopCtx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), wait)
}
