package roomload

import (
	"context"
	"encoding/json"
	"net"
	"net/url"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	fws "github.com/fasthttp/websocket"
)

// room is one room of the run: a player and a remote. The remote's seek
// positions are sequence numbers, so the player finds the send time of
// each command it receives.
type room struct {
	l      *load
	name   string
	player *fws.Conn
	remote *fws.Conn
	ready  chan struct{} // closed when the remote saw the player's status
	once   sync.Once

	sentAt    []atomic.Int64 // by sequence number: ns since the run started
	sent      atomic.Int64
	delivered atomic.Int64

	mu      sync.Mutex
	latency []time.Duration // written by the player's reader
	readers sync.WaitGroup
	writeMu sync.Mutex // the player's writes: its status, and chatter with Stall
}

func newRoom(l *load, name string, capacity int) *room {
	return &room{l: l, name: name, ready: make(chan struct{}), sentAt: make([]atomic.Int64, capacity)}
}

// dial opens one connection of the room.
func dial(ctx context.Context, base, role, name string, netDial func(context.Context, string, string) (net.Conn, error)) (*fws.Conn, error) {
	u, err := url.Parse(base)
	if err != nil {
		return nil, err
	}
	q := url.Values{"role": {role}, "room": {name}}
	d := fws.Dialer{HandshakeTimeout: 30 * time.Second, NetDialContext: netDial}
	c, _, err := d.DialContext(ctx, "ws://"+u.Host+"/api/control/ws?"+q.Encode(), nil)
	return c, err
}

// open connects the player and the remote, starts their readers and has
// the player report that it plays (a seek needs something playing).
func (r *room) open(ctx context.Context) error {
	var err error
	if r.player, err = dial(ctx, r.l.cfg.BaseURL, "player", r.name, nil); err != nil {
		return err
	}
	if r.remote, err = dial(ctx, r.l.cfg.BaseURL, "remote", r.name, nil); err != nil {
		return err
	}
	r.readers.Add(2)
	go r.readPlayer()
	go r.readRemote()
	return r.playerSays([]byte(`{"event":"status_update","state":"playing","position":0,"duration":0}`))
}

func (r *room) playerSays(msg []byte) error {
	r.writeMu.Lock()
	defer r.writeMu.Unlock()
	return r.player.WriteMessage(fws.TextMessage, msg)
}

// readPlayer times every seek the player receives.
func (r *room) readPlayer() {
	defer r.readers.Done()
	var m struct {
		Event    string  `json:"event"`
		Position float64 `json:"position"`
	}
	for {
		_, data, err := r.player.ReadMessage()
		if err != nil {
			r.ended()
			return
		}
		now := time.Since(r.l.start)
		m.Event = ""
		if json.Unmarshal(data, &m) != nil || m.Event != "seek" {
			continue
		}
		if seq := int(m.Position); seq >= 0 && seq < len(r.sentAt) {
			lat := now - time.Duration(r.sentAt[seq].Load())
			r.mu.Lock()
			r.latency = append(r.latency, lat)
			r.mu.Unlock()
			r.delivered.Add(1)
		}
	}
}

// readRemote reads what the remote gets (it must read, or it would be the
// one stalling): the status that makes the room ready, and errors.
func (r *room) readRemote() {
	defer r.readers.Done()
	var m struct {
		Event string `json:"event"`
		Code  string `json:"code"`
	}
	for {
		_, data, err := r.remote.ReadMessage()
		if err != nil {
			r.ended()
			return
		}
		m.Event, m.Code = "", ""
		if json.Unmarshal(data, &m) != nil {
			continue
		}
		switch m.Event {
		case "status_update":
			r.once.Do(func() { close(r.ready) })
		case "error":
			r.l.noteError(m.Code)
		}
	}
}

// ended counts a connection the server closed while the run went on.
func (r *room) ended() {
	if !r.l.closing.Load() {
		r.l.dropped.Add(1)
	}
}

// sendUntil sends a seek every interval from first until end, on a fixed
// schedule: a late send does not shift the ones after it.
func (r *room) sendUntil(ctx context.Context, first time.Time, interval time.Duration, end time.Time) {
	buf := make([]byte, 0, 64)
	for next := first; next.Before(end) && ctx.Err() == nil; next = next.Add(interval) {
		time.Sleep(time.Until(next))
		seq := int(r.sent.Load())
		if seq >= len(r.sentAt) {
			return
		}
		r.sentAt[seq].Store(int64(time.Since(r.l.start)))
		buf = append(buf[:0], `{"event":"seek","position":`...)
		buf = strconv.AppendInt(buf, int64(seq), 10)
		buf = append(buf, '}')
		if r.remote.WriteMessage(fws.TextMessage, buf) != nil {
			return
		}
		r.sent.Add(1)
	}
}

// close ends both connections with a close frame and waits for the
// readers.
func (r *room) close() {
	for _, c := range []*fws.Conn{r.player, r.remote} {
		if c != nil {
			_ = c.WriteControl(fws.CloseMessage, fws.FormatCloseMessage(fws.CloseNormalClosure, ""), time.Now().Add(time.Second))
			_ = c.Close()
		}
	}
	r.readers.Wait()
}
