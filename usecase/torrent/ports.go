package torrent

import (
	"context"

	"mediateka/domain"
)

// Client is the torrent client as this use case needs it
// (repository/qbittorrent implements it). Every method answers
// domain.ErrTorrentClientUnavailable when the client cannot be reached,
// does not answer in time or refuses the login.
type Client interface {
	// List returns all torrents, or those with the given info-hashes.
	List(ctx context.Context, hashes ...string) ([]domain.Torrent, error)
	// Add adds a magnet link or a .torrent file; a refusal (a duplicate
	// or an unreadable torrent) is domain.ErrTorrentRefused.
	Add(ctx context.Context, a domain.TorrentAdd) error
}

// LinkFetcher downloads the .torrent behind an http(s) link
// (repository/linkfetch). A server that redirects to a magnet link gives
// that link instead of a body. Failures are domain.ErrInvalidTorrentLink.
type LinkFetcher interface {
	Fetch(ctx context.Context, link string) (body []byte, magnet string, err error)
}
