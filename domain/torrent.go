package domain

import (
	"fmt"
	"strings"
	"time"
)

// TorrentState is where a torrent stands, in words that do not depend on
// the torrent client or its version: qBittorrent 4.x says pausedDL where
// 5.x says stoppedDL, and both are Paused here. The client's own word
// travels beside it as Torrent.ClientState.
type TorrentState string

// The states of API.md §5. Completed (TorrentDone: the name
// TorrentCompleted is the event's) is a finished torrent that is not
// seeding (paused or stopped after the download); Stalled is a download
// that has no peers to fetch from.
const (
	TorrentDownloading  TorrentState = "Downloading"
	TorrentSeeding      TorrentState = "Seeding"
	TorrentPaused       TorrentState = "Paused"
	TorrentStalled      TorrentState = "Stalled"
	TorrentQueued       TorrentState = "Queued"
	TorrentChecking     TorrentState = "Checking"
	TorrentMoving       TorrentState = "Moving"
	TorrentMetadata     TorrentState = "Metadata"
	TorrentDone         TorrentState = "Completed"
	TorrentMissingFiles TorrentState = "MissingFiles"
	TorrentError        TorrentState = "Error"
)

// Torrent is one torrent of the client. Hash is the lower-case hex
// info-hash the client knows it by; Progress runs 0..1; ETA is zero when
// the client does not know it (nothing to fetch, no peers).
type Torrent struct {
	Hash        string
	Name        string
	State       TorrentState
	ClientState string
	Progress    float64
	Size        int64
	Category    string
	SavePath    string
	// ContentPath is the torrent's file (single-file torrent) or top
	// folder on disk; empty when the client does not say.
	ContentPath   string
	AddedOn       time.Time
	ETA           time.Duration
	DownloadSpeed int64 // bytes per second
}

// Finished reports whether every wanted byte is on disk.
func (t Torrent) Finished() bool { return t.Progress >= 1 }

// TorrentFile is one file of a torrent, its Name relative to the
// torrent's save path (with the torrent's folder when it has one).
type TorrentFile struct {
	Name     string
	Size     int64
	Progress float64
	// Skipped is a file the person chose not to download (priority 0): it
	// need not be on disk.
	Skipped bool
}

// TorrentAdd is what the client is asked to add: either a magnet link in
// URL or the bytes of a .torrent file in File, never both. Category and
// SavePath are optional; Paused adds it without starting it.
type TorrentAdd struct {
	URL      string
	File     []byte
	Category string
	SavePath string
	Paused   bool
}

// ErrTorrentClientUnavailable is every torrent endpoint's answer when the
// client cannot be reached, does not answer in time or refuses the login.
var ErrTorrentClientUnavailable = NewError(KindUnavailable, "torrent_client_unavailable",
	"the torrent client is unreachable or refused the login")

// ErrInvalidTorrentLink is a download link that cannot become a torrent:
// not a magnet or http(s) link, a magnet without a valid info-hash, a file
// that cannot be fetched or is not a torrent. reason says which, for people.
func ErrInvalidTorrentLink(reason string) *Error {
	return &Error{Kind: KindInvalid, Code: "invalid_torrent_link", Message: "the torrent link is not usable: " + reason,
		Fields: map[string]string{"url": reason}}
}

// ErrTorrentRefused is the client's "no" to an add: the torrent is a
// duplicate or not a torrent it can read (qBittorrent answers "Fails."
// with status 200 for both). The torrent use case tells the two apart by
// looking the hash up.
var ErrTorrentRefused = NewError(KindInvalid, "invalid_torrent_link",
	"the torrent client refused the torrent")

// ErrRelocateRunning is the answer to a relocation while one runs.
var ErrRelocateRunning = NewError(KindConflict, "relocate_running", "a torrent relocation is already running")

// TorrentCompleted announces a download that finished: Name and Hash as
// the client knows them, SavePath the folder it was saved into.
type TorrentCompleted struct {
	eventOf[TorrentCompleted]
	Hash     string `json:"hash"`
	Name     string `json:"name"`
	SavePath string `json:"save_path"`
}

// PathWithin reports whether the clean absolute path p is dir or lies
// below it. Both must be clean (filepath.Clean); no link is resolved.
func PathWithin(dir, p string) bool {
	if dir == "/" {
		return strings.HasPrefix(p, "/")
	}
	return p == dir || strings.HasPrefix(p, dir+"/")
}

// TorrentRelease is one result of a torrent search (a Torznab indexer's
// item): what it is called, how big it is, how many peers share it and
// where to get it. DownloadURL is the indexer's .torrent link (it may
// redirect to a magnet), Magnet the magnet link when the indexer gives
// one; at least one of them is set. Zero Published means unknown;
// Leechers -1 means the indexer did not say. DownloadFactor is 0 for a
// freeleech release and 1 normally.
type TorrentRelease struct {
	Title          string
	Size           int64
	Seeders        int
	Leechers       int
	DownloadURL    string
	Magnet         string
	InfoHash       string
	Indexer        string
	Published      time.Time
	Categories     []int
	DownloadFactor float64
	UploadFactor   float64
}

// ErrTorrentSearchNotConfigured is the torrent search's answer while no
// Torznab indexer is configured: the message tells how to add one.
var ErrTorrentSearchNotConfigured = NewError(KindUnavailable, "torrent_search_not_configured",
	`no Torznab indexer is configured: add {"indexers": [{"name": "jackett", "url": "http://127.0.0.1:9117/api/v2.0/indexers/all/results/torznab", "apikey": "…"}]} `+
		`to <plugin_config_dir>/torrent_search/config.json (Jackett or Prowlarr give the URL and the key) and restart the server`)

// ErrIndexersUnavailable is the torrent search's answer when every
// configured indexer failed (unreachable, too slow, or answered an error).
var ErrIndexersUnavailable = NewError(KindUnavailable, "indexers_unavailable", "no Torznab indexer answered")

// IndexerError is a Torznab indexer's own error element
// (<error code="100" description="Incorrect user credentials"/>), sent
// with status 200.
type IndexerError struct {
	Code        int
	Description string
}

func (e *IndexerError) Error() string {
	return fmt.Sprintf("indexer error %d: %s", e.Code, e.Description)
}

// TorrentQuery is one search of the torrent indexers: the words, what is
// sought (MediaMovie, MediaSeries, or "" for anything) and, optionally,
// the Torznab category ids (2000 movies, 5000 TV …) to search in.
type TorrentQuery struct {
	Text string
	Kind string
	Cats []int
}
