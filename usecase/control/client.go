package control

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"mediateka/domain"
)

// Client is one joined connection: its room and role, its bounded queue
// and the writer goroutine that drains it into the transport. The
// transport's reader goroutine calls Receive for each message and Leave
// once when it ends; nothing else calls them.
type Client struct {
	hub    *Service
	room   *room
	role   Role
	caller domain.Caller
	conn   Conn

	out  chan []byte   // never closed: a late send must not panic
	done chan struct{} // closed by shut
	once sync.Once
	left sync.Once
	// wg covers the writer goroutine and the closing one, so Leave returns
	// only when nothing of the hub touches the transport any more.
	wg sync.WaitGroup
	// ctx ends when the connection closes; catalogue lookups use it.
	ctx    context.Context
	cancel context.CancelFunc

	// playing is the catalogue entry this player plays as far as the hub
	// knows: that of the last play the room sent it, or the media_id of
	// its own last metadata_update that named one; 0 when unknown. Only
	// this player's own messages and the plays it receives set it, so
	// nobody else in a shared room can say what its reports are about.
	// Guarded by the room's lock.
	playing int64

	// Only the reader goroutine touches these.
	bucket   bucket
	warnedAt time.Time
	kept     kept
}

func newClient(s *Service, r *room, t Ticket, conn Conn) *Client {
	ctx, cancel := context.WithCancel(context.Background())
	return &Client{hub: s, room: r, role: t.Role, caller: t.Caller, conn: conn,
		out: make(chan []byte, s.opt.QueueSize), done: make(chan struct{}), ctx: ctx, cancel: cancel}
}

// Role is the connection's role in its room.
func (c *Client) Role() Role { return c.role }

// Room is the name of the connection's room.
func (c *Client) Room() string { return c.room.name }

// start runs the writer.
func (c *Client) start() {
	c.wg.Add(1)
	go c.write()
}

// write is the connection's one writer: it sends queued messages in order
// and pings every PingEvery, until the connection closes or a write fails.
func (c *Client) write() {
	defer c.wg.Done()
	ping := time.NewTicker(c.hub.opt.PingEvery)
	defer ping.Stop()
	for {
		var err error
		select {
		case <-c.done:
			return
		case f := <-c.out:
			err = c.conn.Write(f)
		case <-ping.C:
			err = c.conn.Ping()
		}
		if err != nil {
			c.shut(CloseGoingAway, "")
			return
		}
	}
}

// closing reports whether the connection is being closed.
func (c *Client) closing() bool {
	select {
	case <-c.done:
		return true
	default:
		return false
	}
}

// send queues f without ever blocking. A full queue means the peer stopped
// keeping up: the connection is closed, alone, and its messages dropped.
func (c *Client) send(f []byte) {
	if c.closing() {
		return
	}
	select {
	case c.out <- f:
	default:
		c.hub.log.Warn("room connection fell behind its queue; closing it", "room", c.room.name, "role", c.role)
		c.shut(CloseTooSlow, "too slow: the message queue is full")
	}
}

// shut starts closing the connection: the writer stops, lookups are
// cancelled, and the transport sends a close frame and closes within its
// grace (in a goroutine of its own, as it may wait on a stuck peer).
// Only the first call counts.
func (c *Client) shut(code int, reason string) {
	c.once.Do(func() {
		close(c.done)
		c.cancel()
		c.wg.Add(1)
		go func() {
			defer c.wg.Done()
			c.conn.Close(code, reason)
		}()
	})
}

// Leave is called by the transport once its reader has ended: the
// connection leaves its room (whose members get the new presence; an
// empty room is dropped), and Leave returns when the writer and the
// closing have finished, so the transport may release the socket.
func (c *Client) Leave() {
	c.left.Do(func() {
		c.shut(CloseNormal, "")
		c.hub.leave(c)
		c.flushProgress()
		c.wg.Wait()
	})
}

// Receive handles one message from the peer: within the rate limit, it is
// decoded, validated, applied to the room and forwarded; whatever is
// refused is answered to the sender alone with an error event.
func (c *Client) Receive(data []byte) {
	if c.closing() || !c.allow() {
		return
	}
	if err := c.handle(data); err != nil {
		if domain.KindOf(err) == domain.KindInternal {
			c.hub.log.Error("room message failed", "room", c.room.name, "role", c.role, "err", err)
		}
		c.send(errorFrameOf(err))
	}
}

func (c *Client) handle(data []byte) error {
	m, err := decode(data, c.role)
	if err != nil {
		return err
	}
	switch {
	case c.role == Player:
		playing, err := c.room.report(c, m)
		if err == nil {
			c.keepProgress(m, playing)
		}
		return err
	case m.event == EventPlay && m.change.(domain.Play).File != "":
		return c.play(m)
	}
	return c.room.command(m)
}

// play resolves the file of a play through the catalogue, so a path
// outside it never reaches a player, and forwards the entry's id and
// title (and, with a PlayResolver, each player's own play answer).
func (c *Client) play(m message) error {
	p := m.change.(domain.Play)
	var media domain.Media
	var err error
	if m.mediaID > 0 {
		media, err = c.hub.cat.File(c.ctx, m.mediaID)
	} else {
		media, err = c.hub.cat.FileAt(c.ctx, p.File)
	}
	if err != nil {
		return err
	}
	p.MediaID, p.Title = media.ID, media.Title
	m.change = p
	return c.hub.sendPlay(c.ctx, c.room, m, media)
}

// playFrameFor is the play message for one player, with its PlayResolver
// answer when the player has an account. A failed resolution still sends
// the play: the player can ask /play itself.
func (s *Service) playFrameFor(ctx context.Context, player *Client, p domain.Play, media domain.Media) []byte {
	f := playFrame{Event: EventPlay, File: p.File, MediaID: p.MediaID, Title: p.Title}
	if player.caller.UserID != 0 {
		info, err := s.opt.Play.ResolvePlay(ctx, player.caller, media)
		if err != nil {
			s.log.Warn("resolve a play for a player", "room", player.room.name, "media_id", media.ID, "err", err)
		}
		f.Play = info
	}
	raw, err := json.Marshal(f)
	if err != nil {
		s.log.Error("encode a resolved play", "media_id", media.ID, "err", err)
		f.Play = nil
		return encode(f)
	}
	return raw
}

// allow takes a token from the connection's bucket. Over the limit the
// message is dropped, and the sender hears about it at most once a
// second, so the warnings cannot fill its own queue.
func (c *Client) allow() bool {
	now := c.hub.opt.Now()
	if c.bucket.take(now, c.hub.opt.Rate, float64(c.hub.opt.Burst)) {
		return true
	}
	if now.Sub(c.warnedAt) >= time.Second {
		c.warnedAt = now
		c.send(errorFrameOf(ErrRateLimited))
	}
	return false
}

// bucket is a token bucket: it holds up to burst tokens and gains rate a
// second; each message takes one.
type bucket struct {
	tokens float64
	last   time.Time
}

func (b *bucket) take(now time.Time, rate, burst float64) bool {
	switch {
	case b.last.IsZero():
		b.tokens, b.last = burst, now
	case now.After(b.last):
		b.tokens = min(burst, b.tokens+now.Sub(b.last).Seconds()*rate)
		b.last = now
	}
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}
