package control

import (
	"sync"

	"mediateka/domain"
)

// room is one room's members and memory. Its lock covers the state and
// every fan-out, so each member receives the room's messages in the order
// the room accepted them; fan-out only queues, so holding it is short.
type room struct {
	name string

	mu      sync.Mutex
	players map[*Client]struct{}
	remotes map[*Client]struct{}
	state   domain.Room
	// The last reports, kept for remotes that join later and for Status,
	// with their encoded frames so a replay encodes nothing.
	status        *StatusUpdate
	statusFrame   []byte
	playlist      []PlaylistItem
	playlistFrame []byte
	metadata      *Metadata
	metadataFrame []byte
}

func newRoom(name string) *room {
	return &room{name: name, players: map[*Client]struct{}{}, remotes: map[*Client]struct{}{}, state: domain.NewRoom()}
}

func (r *room) set(role Role) map[*Client]struct{} {
	if role == Player {
		return r.players
	}
	return r.remotes
}

// size counts every connection of the room, closing ones included: they
// hold their place until they have left.
func (r *room) size() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.players) + len(r.remotes)
}

// members lists every connection of the room.
func (r *room) members() []*Client {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]*Client, 0, len(r.players)+len(r.remotes))
	for c := range r.players {
		out = append(out, c)
	}
	for c := range r.remotes {
		out = append(out, c)
	}
	return out
}

// join adds c, tells everyone the presence and replays the room's
// memory to a remote.
func (r *room) join(c *Client, limit int) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.players)+len(r.remotes) >= limit {
		return ErrRoomFull
	}
	r.set(c.role)[c] = struct{}{}
	r.presence()
	if c.role == Remote {
		for _, f := range [][]byte{r.statusFrame, r.playlistFrame, r.metadataFrame} {
			if f != nil {
				c.send(f)
			}
		}
	}
	return nil
}

// leave removes c, tells those left the presence, and returns how many
// connections remain.
func (r *room) leave(c *Client) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.set(c.role), c)
	n := len(r.players) + len(r.remotes)
	if n > 0 {
		r.presence()
	}
	return n
}

// count is how many connections of a set are open (not closing).
func count(set map[*Client]struct{}) int {
	n := 0
	for c := range set {
		if !c.closing() {
			n++
		}
	}
	return n
}

// presence sends every member the room's counts. Called with r.mu held.
func (r *room) presence() {
	f := encode(presenceFrame{Event: EventPresence, Players: count(r.players), Remotes: count(r.remotes)})
	r.broadcast(r.players, f)
	r.broadcast(r.remotes, f)
}

// broadcast queues f for every open member of set. Called with r.mu held.
func (r *room) broadcast(set map[*Client]struct{}, f []byte) {
	for c := range set {
		c.send(f)
	}
}

// command applies a remote's command and forwards it to the players.
// With no open player the command is refused and the state left alone.
func (r *room) command(m message) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.applyCommand(m); err != nil {
		return err
	}
	r.broadcast(r.players, commandFrame(m.event, m.change))
	return nil
}

// playTo applies a play and returns the players it must go to, for a play
// that each player gets resolved for itself after the lock is released.
func (r *room) playTo(m message) ([]*Client, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.applyCommand(m); err != nil {
		return nil, err
	}
	out := make([]*Client, 0, len(r.players))
	for c := range r.players {
		out = append(out, c)
	}
	return out, nil
}

// applyCommand is the shared start of a command. Called with r.mu held.
func (r *room) applyCommand(m message) error {
	if count(r.players) == 0 {
		return ErrNoPlayer
	}
	if err := r.state.Apply(m.change); err != nil {
		return err
	}
	if p, ok := m.change.(domain.Play); ok && p.File != "" {
		for c := range r.players {
			c.playing = p.MediaID
		}
	}
	return nil
}

// report applies player c's report, keeps it for replay and forwards it
// to the remotes. It returns the entry c plays as far as the hub knows
// (Client.playing).
func (r *room) report(c *Client, m message) (playing int64, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var f []byte
	switch m.event {
	case EventStatus:
		if err := r.state.Apply(m.change); err != nil {
			return 0, err
		}
		f = encode(statusFrame{Event: EventStatus, StatusUpdate: *m.status})
		r.status, r.statusFrame = m.status, f
	case EventPlaylist:
		f = encode(playlistFrame{Event: EventPlaylist, Files: m.playlist})
		r.playlist, r.playlistFrame = m.playlist, f
	case EventMetadata:
		f = encode(metadataFrame{Event: EventMetadata, Metadata: *m.metadata})
		r.metadata, r.metadataFrame = m.metadata, f
		if m.metadata.MediaID > 0 {
			c.playing = m.metadata.MediaID
		}
	}
	r.broadcast(r.remotes, f)
	return c.playing, nil
}

// snapshot is the room's status as GET /api/control/status shows it.
func (r *room) snapshot() RoomStatus {
	r.mu.Lock()
	defer r.mu.Unlock()
	return RoomStatus{Room: r.name, Players: count(r.players), Remotes: count(r.remotes),
		Status: r.status, Playlist: r.playlist, Metadata: r.metadata, Playback: r.state}
}
