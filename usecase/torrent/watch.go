package torrent

import (
	"context"
	"errors"
	"log/slog"
	"path/filepath"
	"slices"
	"time"

	"mediateka/domain"
)

// maxScanPaths is how many finished downloads one scan request names (the
// library's own bound of a scan request).
const maxScanPaths = 100

// WatchOptions configure a Watcher.
type WatchOptions struct {
	// Every is the time between two looks at the client.
	Every time.Duration
	// Events receives torrent_completed.
	Events Publisher
	// Roots lists the library folders now.
	Roots func() []domain.Root
	// Scan starts a library scan of paths (folders or files inside the
	// library folders); nil scans nothing. A domain Conflict (a scan is
	// running) is tried again at the next look; other errors drop the paths.
	Scan func(paths []string) error
	// Logger is where the client's being down is told, once per outage:
	// a warning once it had answered, an information line before.
	Logger *slog.Logger
}

// Watcher notices finished downloads: it lists the client's torrents
// every WatchOptions.Every and publishes torrent_completed for each that
// finished since the last look, then scans those that lie inside a
// library folder. The torrents finished at its first look are remembered
// without a word, so a restart does not announce them again; a download
// that finished while the server was down is left to the next scan.
type Watcher struct {
	client Client
	opt    WatchOptions
	log    *slog.Logger
	// finished maps the hashes seen at the last look to whether they had
	// finished; primed is false until the first look succeeded.
	finished map[string]bool
	primed   bool
	down     bool
	pending  []string // paths waiting for the scan slot
	oneByOne bool     // the last batch was refused: ask path by path
}

// NewWatcher builds the watcher of client's downloads.
func NewWatcher(client Client, opt WatchOptions) *Watcher {
	if opt.Logger == nil {
		opt.Logger = slog.New(slog.DiscardHandler)
	}
	if opt.Roots == nil {
		opt.Roots = func() []domain.Root { return nil }
	}
	return &Watcher{client: client, opt: opt, log: opt.Logger, finished: map[string]bool{}}
}

// Run looks at the client at once and then every WatchOptions.Every until
// ctx ends. It returns nil: a client that is down is looked at again.
func (w *Watcher) Run(ctx context.Context) error {
	t := time.NewTicker(w.opt.Every)
	defer t.Stop()
	for {
		w.Poll(ctx)
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}

// Poll is one look: list, announce what finished, scan what is in the
// library. Run calls it; tests may call it directly.
func (w *Watcher) Poll(ctx context.Context) {
	ts, err := w.client.List(ctx)
	if err != nil {
		switch {
		case w.down || ctx.Err() != nil:
		case !w.primed:
			// Never reached since the start: most likely a server that does
			// not use torrents at all (the default URL is a guess), so this
			// is news, not a fault.
			w.log.Info("no torrent client answers; the torrent poller keeps looking", "err", err.Error())
		default:
			w.log.Warn("the torrent poller cannot reach the torrent client; trying again", "err", err.Error())
		}
		w.down = true
		return
	}
	if w.down {
		w.log.Info("the torrent poller reaches the torrent client again")
		w.down = false
	}
	for _, t := range w.update(ts) {
		w.opt.Events.Publish(domain.TorrentCompleted{Hash: t.Hash, Name: t.Name, SavePath: t.SavePath})
		w.log.Info("torrent finished", "hash", t.Hash, "name", t.Name, "save_path", t.SavePath)
		if p, ok := w.libraryPath(t); ok && !slices.Contains(w.pending, p) {
			w.pending = append(w.pending, p)
		}
	}
	w.scanPending()
}

// update records the torrents' states and returns those that finished
// since the last look (none at the first). A torrent being checked or
// moved keeps what it was, so a recheck of a finished download is not a
// new completion; one that lost its data (missing files) and got it back
// is.
func (w *Watcher) update(ts []domain.Torrent) []domain.Torrent {
	var done []domain.Torrent
	next := make(map[string]bool, len(ts))
	for _, t := range ts {
		was, known := w.finished[t.Hash]
		now := t.Finished() && t.State != domain.TorrentMissingFiles
		if known && (t.State == domain.TorrentChecking || t.State == domain.TorrentMoving) {
			now = was
		}
		next[t.Hash] = now
		if now && !was && w.primed {
			done = append(done, t)
		}
	}
	w.finished, w.primed = next, true
	return done
}

// libraryPath is the download's file or folder when it lies inside a
// library folder, else its save path when that does.
func (w *Watcher) libraryPath(t domain.Torrent) (string, bool) {
	if w.opt.Scan == nil {
		return "", false
	}
	roots := w.opt.Roots()
	inside := func(p string) bool {
		return filepath.IsAbs(p) && slices.ContainsFunc(roots, func(r domain.Root) bool {
			return domain.PathWithin(filepath.Clean(r.Path), p)
		})
	}
	content := t.ContentPath
	if content == "" && t.SavePath != "" {
		content = filepath.Join(t.SavePath, t.Name)
	}
	for _, p := range []string{content, t.SavePath} {
		if p != "" && inside(filepath.Clean(p)) {
			return filepath.Clean(p), true
		}
	}
	return "", false
}

// scanPending asks for one scan of every path waiting. A scan already
// running keeps them for the next look. A request the library refuses
// (a download moved or deleted since) is tried again path by path, so one
// bad path does not cost the others their scan.
func (w *Watcher) scanPending() {
	if len(w.pending) == 0 {
		w.oneByOne = false
		return
	}
	n := min(len(w.pending), maxScanPaths)
	if w.oneByOne {
		n = 1
	}
	batch := slices.Clone(w.pending[:n])
	err := w.opt.Scan(batch)
	switch {
	case errors.Is(err, domain.ErrScanRunning):
		return
	case err != nil && n > 1:
		w.oneByOne = true
		return
	case err != nil:
		w.log.Warn("the scan of a finished download did not start", "path", batch[0], "err", err.Error())
	default:
		w.log.Info("scanning finished downloads", "paths", batch)
	}
	w.pending = slices.Delete(w.pending, 0, n)
}
