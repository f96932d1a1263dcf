package app

import (
	"log/slog"

	"mediateka/config"
	"mediateka/repository/linkfetch"
	"mediateka/repository/localfs"
	"mediateka/repository/qbittorrent"
	"mediateka/usecase/library"
	"mediateka/usecase/torrent"
)

// torrentParts are the torrents use case and, with a client configured,
// the poller that notices finished downloads.
type torrentParts struct {
	svc     *torrent.Service
	watcher *torrent.Watcher
	// search asks the Torznab indexers (API.md §5 search).
	search *torrent.Searcher
}

// newTorrents builds the torrents use case on the qBittorrent client of
// torrent_client and the safe .torrent link fetcher. An empty
// torrent_client.url leaves the service without a client: its endpoints
// still check their input and then answer 503 torrent_client_unavailable,
// and no poller runs. The password goes to the client's login form and
// nowhere else (the log redactor scrubs it too, see secretValues).
func newTorrents(cfg config.Config, lib libraryParts, log *slog.Logger) (torrentParts, error) {
	tc := cfg.TorrentClient
	fetch := linkfetch.New(linkfetch.Options{Timeout: tc.FetchTimeout.D()})
	opt := torrent.Options{Logger: log, Roots: lib.roots, FS: localfs.FS{}, Titles: lib.catalog,
		RelocateInline: tc.RelocateInline}
	if tc.URL == "" {
		log.Warn("torrent_client.url is empty: the torrent endpoints answer 503 until it is set")
		return torrentParts{svc: torrent.New(nil, fetch, opt)}, nil
	}
	client, err := qbittorrent.New(qbittorrent.Config{URL: tc.URL, Username: tc.Username, Password: tc.Password,
		Timeout: tc.Timeout.D()})
	if err != nil {
		return torrentParts{}, err
	}
	watch := torrent.WatchOptions{Every: tc.PollInterval.D(), Events: lib.events, Roots: lib.roots, Logger: log}
	if tc.ScanCompleted {
		watch.Scan = func(paths []string) error {
			_, err := lib.library.StartScan(library.ScanRequest{Paths: paths})
			return err
		}
	}
	return torrentParts{svc: torrent.New(client, fetch, opt), watcher: torrent.NewWatcher(client, watch)}, nil
}

// components are the relocation job (stopped at shutdown) and the poller.
// They come after the library, so a scan they start finds it running,
// and stop before it.
func (tp torrentParts) components(life *lifecycle) []component {
	cs := []component{{Name: "torrent relocation job", Start: noStart, Stop: tp.svc.Stop}}
	if tp.watcher != nil {
		cs = append(cs, life.background("torrent poller", tp.watcher.Run, nil))
	}
	return cs
}
