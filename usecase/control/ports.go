package control

import (
	"context"

	"mediateka/domain"
)

// Conn is one connected peer as the hub sees it: a socket the delivery
// (delivery/ws) opened. The hub's writer goroutine is the only caller of
// Write and Ping, so the transport needs no lock of its own for them.
type Conn interface {
	// Write sends one message and returns once it is written or has
	// failed; the transport bounds it with its write deadline.
	Write(msg []byte) error
	// Ping sends a ping; the transport drops a peer whose pong does not
	// come back in time, which ends its reader.
	Ping() error
	// Close sends a close frame with code and reason and closes the
	// connection within a short grace, even when a Write is stuck on a
	// peer that stopped reading. It may be called concurrently with Write
	// and more than once; only the first call counts.
	Close(code int, reason string)
}

// Close codes the hub closes connections with (RFC 6455 §7.4).
const (
	CloseNormal    = 1000
	CloseGoingAway = 1001 // the server is shutting down
	CloseTooSlow   = 1013 // "try again later": the peer fell behind its queue
)

// Catalog finds the video file a play command names: by catalogue id
// ("media:42") or by the path the catalogue records. usecase/catalog's
// Service implements it; it never resolves a path on disk.
type Catalog interface {
	File(ctx context.Context, id int64) (domain.Media, error)
	FileAt(ctx context.Context, path string) (domain.Media, error)
}

// PlayResolver turns the entry a play command resolved to into what the
// receiving player needs to start it: the answer of GET
// /api/media/{id}/play for that player's account (stream URL with a play
// token bound to the account and the entry, subtitles, audio tracks,
// resume position). The hub puts it under "play" in the play message each
// player receives, resolved per player because play tokens are per
// account; a player without an account gets none. usecase/playback's
// Service implements it; without a resolver a player receives the media
// id and title only, from which it asks /play itself.
type PlayResolver interface {
	ResolvePlay(ctx context.Context, viewer domain.Caller, media domain.Media) (any, error)
}

// Progress keeps how far each account got with what it watches
// (usecase/watching's Service). The hub hands it the status_updates of
// signed-in players (anonymous players report nothing): Report while
// playing, which may drop reports sent too often but holds the last one
// dropped; Save on a pause, written at once; Flush when the player stops,
// moves on to another entry or leaves, which writes the report held back.
type Progress interface {
	Report(ctx context.Context, userID, mediaID int64, position, duration float64) error
	Save(ctx context.Context, userID, mediaID int64, position, duration float64) error
	Flush(ctx context.Context, userID, mediaID int64) error
}
