package app

import (
	"log/slog"

	"mediateka/config"
	"mediateka/repository/linkfetch"
	"mediateka/repository/qbittorrent"
	"mediateka/usecase/torrent"
)

// newTorrents builds the torrents use case on the qBittorrent client of
// torrent_client and the safe .torrent link fetcher. An empty
// torrent_client.url leaves the service without a client: its endpoints
// still check their input and then answer 503 torrent_client_unavailable.
// The password goes to the client's login form and nowhere else (the log
// redactor scrubs it too, see secretValues).
func newTorrents(cfg config.Config, log *slog.Logger) (*torrent.Service, error) {
	tc := cfg.TorrentClient
	fetch := linkfetch.New(linkfetch.Options{Timeout: tc.FetchTimeout.D()})
	if tc.URL == "" {
		log.Warn("torrent_client.url is empty: the torrent endpoints answer 503 until it is set")
		return torrent.New(nil, fetch, torrent.Options{Logger: log}), nil
	}
	client, err := qbittorrent.New(qbittorrent.Config{URL: tc.URL, Username: tc.Username, Password: tc.Password,
		Timeout: tc.Timeout.D()})
	if err != nil {
		return nil, err
	}
	return torrent.New(client, fetch, torrent.Options{Logger: log}), nil
}
