// Package control is the rooms hub: players and remotes join a room, a
// remote's commands reach the room's players and a player's reports reach
// its remotes, every message validated and the room's playback kept as a
// domain.Room state machine. Fan-out never blocks: each connection has a
// bounded queue drained by its own writer goroutine, and a connection
// whose queue is full is closed alone. See README.md for the design.
package control

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"mediateka/domain"
)

// Role is what a connection is in its room.
type Role string

// The two roles: a player shows the video, a remote drives it.
const (
	Player Role = "player"
	Remote Role = "remote"
)

// Defaults of Options.
const (
	DefaultQueueSize  = 64
	DefaultPingEvery  = 25 * time.Second
	DefaultRate       = 20
	DefaultBurst      = 40
	DefaultMaxPerRoom = 32
)

// Errors of joining a room and of the hub's life. Their codes are part of
// the API (docs/API.md §6).
var (
	ErrRoomNeedsAccount = domain.NewError(domain.KindUnauthorized, "unauthorized", "this room is an account's e-mail: sign in as that account")
	ErrRoomOfAnother    = domain.NewError(domain.KindForbidden, "forbidden", "this room belongs to another account")
	ErrSignInRequired   = domain.NewError(domain.KindUnauthorized, "unauthorized", "rooms on this server need a signed-in account")
	ErrRoomFull         = domain.NewError(domain.KindConflict, "room_full", "this room has as many connections as it takes")
	ErrShuttingDown     = domain.NewError(domain.KindUnavailable, "shutting_down", "the server is shutting down")
)

// Options configure the hub; zero values take the defaults.
type Options struct {
	// AllowAnonymousRooms lets anyone who knows a shared-code room (one
	// that is not an e-mail) join it without signing in (config
	// control.allow_anonymous_rooms).
	AllowAnonymousRooms bool
	// QueueSize is how many messages may wait for one connection (at
	// least 4); a connection whose queue is full is closed (CloseTooSlow).
	QueueSize int
	// PingEvery is how often each connection is pinged.
	PingEvery time.Duration
	// Rate and Burst are each connection's token bucket: messages a
	// second, and how many may come at once. Keep Burst below QueueSize,
	// so the replies to a burst of bad messages fit the sender's queue.
	Rate  float64
	Burst int
	// MaxPerRoom bounds the connections of one room.
	MaxPerRoom int
	// Play fills play messages for players (usecase/playback); nil:
	// players get the entry's id and title only.
	Play   PlayResolver
	Now    func() time.Time
	Logger *slog.Logger

	// Progress keeps the positions signed-in players report; nil: they
	// are kept by the room only.
	Progress Progress
}

func (o Options) withDefaults() Options {
	if o.QueueSize <= 0 {
		o.QueueSize = DefaultQueueSize
	}
	// A joining remote gets a presence and up to three replayed reports
	// at once; a queue must hold them.
	o.QueueSize = max(o.QueueSize, 4)
	if o.PingEvery <= 0 {
		o.PingEvery = DefaultPingEvery
	}
	if o.Rate <= 0 {
		o.Rate = DefaultRate
	}
	if o.Burst <= 0 {
		o.Burst = DefaultBurst
	}
	if o.MaxPerRoom <= 0 {
		o.MaxPerRoom = DefaultMaxPerRoom
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return o
}

// Service is the hub. It is a lifecycle component: Stop closes every
// connection with CloseGoingAway and waits until all have left.
type Service struct {
	cat Catalog
	opt Options
	log *slog.Logger

	mu      sync.Mutex
	rooms   map[string]*room
	live    int  // joined connections that have not left
	closed  bool // Stop was called; joins are refused
	drained chan struct{}
}

// New builds the hub over the catalogue that play commands are checked
// against.
func New(cat Catalog, opt Options) *Service {
	opt = opt.withDefaults()
	return &Service{cat: cat, opt: opt, log: opt.Logger, rooms: map[string]*room{}, drained: make(chan struct{})}
}

// Start does nothing: connections start the hub's work as they join.
func (s *Service) Start(context.Context) error { return nil }

// Stop refuses new joins, closes every connection with CloseGoingAway and
// waits until each has left (its transport's reader ended), or until ctx
// ends.
func (s *Service) Stop(ctx context.Context) error {
	s.mu.Lock()
	if !s.closed {
		s.closed = true
		if s.live == 0 {
			close(s.drained)
		}
	}
	var all []*Client
	for _, r := range s.rooms {
		all = append(all, r.members()...)
	}
	s.mu.Unlock()
	for _, c := range all {
		c.shut(CloseGoingAway, "server shutting down")
	}
	select {
	case <-s.drained:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Ticket is a checked request to join: Admit gives it, Join takes it.
type Ticket struct {
	Room   string
	Role   Role
	Caller domain.Caller
}

// Admit applies the join rules before a connection is upgraded, so a
// refusal is an HTTP error: role and room must be valid; an e-mail room
// takes only that account or an administrator; a shared-code room takes
// anyone when anonymous rooms are allowed, else any signed-in account.
// caller is the zero Caller for a request without a token.
func (s *Service) Admit(role, room string, caller domain.Caller) (Ticket, error) {
	r, err := parseRole(role)
	name, rerr := ParseRoom(room)
	if err != nil || rerr != nil {
		return Ticket{}, joinFieldsError(err, rerr)
	}
	if err := s.access(name, caller); err != nil {
		return Ticket{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return Ticket{}, ErrShuttingDown
	}
	if rm := s.rooms[name]; rm != nil && rm.size() >= s.opt.MaxPerRoom {
		return Ticket{}, ErrRoomFull
	}
	return Ticket{Room: name, Role: r, Caller: caller}, nil
}

// access is the room rule of Admit and Status.
func (s *Service) access(room string, caller domain.Caller) error {
	signedIn := caller.UserID != 0
	if isEmailRoom(room) {
		switch {
		case !signedIn:
			return ErrRoomNeedsAccount
		case !caller.Admin && domain.NormalizeEmail(caller.Email) != room:
			return ErrRoomOfAnother
		}
		return nil
	}
	if !s.opt.AllowAnonymousRooms && !signedIn {
		return ErrSignInRequired
	}
	return nil
}

// Join adds conn to the ticket's room: it starts the connection's writer,
// tells the room's members the new presence and, to a remote, replays the
// room's last status, playlist and metadata. The caller's transport then
// feeds the peer's messages to Client.Receive and calls Client.Leave when
// its reader ends.
func (s *Service) Join(t Ticket, conn Conn) (*Client, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, ErrShuttingDown
	}
	r := s.rooms[t.Room]
	if r == nil {
		r = newRoom(t.Room)
		s.rooms[t.Room] = r
	}
	c := newClient(s, r, t, conn)
	if err := r.join(c, s.opt.MaxPerRoom); err != nil {
		if r.size() == 0 {
			delete(s.rooms, t.Room)
		}
		return nil, err
	}
	s.live++
	c.start()
	return c, nil
}

// leave removes c from its room, tells the others, and drops the room
// when it is empty.
func (s *Service) leave(c *Client) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c.room.leave(c) == 0 {
		delete(s.rooms, c.room.name)
	}
	s.live--
	if s.closed && s.live == 0 {
		close(s.drained)
	}
}

// Rooms counts the rooms that have a connection.
func (s *Service) Rooms() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.rooms)
}
