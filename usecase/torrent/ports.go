package torrent

import (
	"context"
	"io/fs"

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
	// Files lists one torrent's files, names relative to its save path.
	Files(ctx context.Context, hash string) ([]domain.TorrentFile, error)
	// SetLocation points the torrents at dir; Recheck verifies their data.
	SetLocation(ctx context.Context, dir string, hashes ...string) error
	Recheck(ctx context.Context, hashes ...string) error
	// Pause stops the torrents, Resume starts them again (qBittorrent 5.x
	// calls them stop and start).
	Pause(ctx context.Context, hashes ...string) error
	Resume(ctx context.Context, hashes ...string) error
	// CreateCategory creates a category (one that exists is fine);
	// SetCategory files torrents under an existing one.
	CreateCategory(ctx context.Context, name, savePath string) error
	SetCategory(ctx context.Context, category string, hashes ...string) error
}

// LinkFetcher downloads the .torrent behind an http(s) link
// (repository/linkfetch). A server that redirects to a magnet link gives
// that link instead of a body. Failures are domain.ErrInvalidTorrentLink.
type LinkFetcher interface {
	Fetch(ctx context.Context, link string) (body []byte, magnet string, err error)
}

// FileSystem is the disk as the relocation's walk reads it
// (repository/localfs.FS). ReadDir does not follow links; Stat does;
// RealPath resolves every link in a path.
type FileSystem interface {
	ReadDir(path string) ([]fs.DirEntry, error)
	Stat(path string) (fs.FileInfo, error)
	RealPath(path string) (string, error)
}

// TitleSearch is the catalogue's title search (usecase/catalog), best
// match first; no match is an empty list.
type TitleSearch interface {
	SearchTitles(ctx context.Context, query string, limit int) ([]domain.Media, error)
}

// Publisher sends events to live listeners; it must never block.
type Publisher interface {
	Publish(e domain.Event)
}
