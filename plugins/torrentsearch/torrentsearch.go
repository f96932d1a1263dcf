// Package torrentsearch is the torrent_search plugin (slot 6, API.md §11):
// "найди торрент Интерстеллар" / "find torrent Interstellar" lists the best
// seeded results of the Torznab indexers (GET /api/torrents/search), and
// "скачай 2" / "download 2" adds the second of that caller's last search
// to the torrent client. Each caller's last results are remembered for a
// while (bounded, expiring). Answers are in the message's language;
// anything else passes.
package torrentsearch

import (
	"context"
	"log/slog"
	"time"

	"mediateka/domain"
	"mediateka/usecase/textmatch"
	"mediateka/usecase/torrent"
)

// Name is the plugin's registry name.
const Name = "torrent_search"

// Searcher is the torrent search use case.
type Searcher interface {
	Search(ctx context.Context, query, category string) (torrent.SearchResult, error)
	// Problem is why the indexers' configuration is not usable, or nil.
	Problem() error
}

// Downloader adds a download, as POST /api/torrents/download does.
type Downloader interface {
	Download(ctx context.Context, req torrent.DownloadRequest) (torrent.Added, error)
}

// Limits of what the plugin shows and remembers.
const (
	shown      = 5
	keepFor    = 30 * time.Minute
	maxCallers = 1000
)

// Plugin is the torrent search plugin.
type Plugin struct {
	domain.NoBackground
	search Searcher
	down   Downloader
	log    *slog.Logger
	last   *memory
}

// New builds the plugin; without a searcher it declines to load. now is
// the clock of the memory (nil: time.Now).
func New(search Searcher, down Downloader, log *slog.Logger, now func() time.Time) *Plugin {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Plugin{search: search, down: down, log: log, last: newMemory(maxCallers, keepFor, now)}
}

// Name implements domain.Plugin.
func (p *Plugin) Name() string { return Name }

// Description implements domain.Plugin.
func (p *Plugin) Description() string {
	return "Searches the Torznab indexers (Jackett, Prowlarr) for torrents and adds the one picked by its number (Russian and English)"
}

// Setup declines to load without a searcher, or when the indexers'
// configuration is not valid (the reason shows in the plugin's status).
func (p *Plugin) Setup(context.Context) (bool, error) {
	if p.search == nil {
		return false, nil
	}
	if err := p.search.Problem(); err != nil {
		return false, err
	}
	return true, nil
}

// Handle answers a search or a pick, or passes ("").
func (p *Plugin) Handle(ctx context.Context, message string) (string, error) {
	c := parse(message)
	if c.kind == cmdNone {
		return "", nil
	}
	lang := textmatch.AnswerLang(ctx, message)
	caller, _ := domain.CallerFrom(ctx)
	// A search spends the indexers' quota and a pick adds to the torrent
	// client: both act as an account, so a caller without one (an unlinked
	// Telegram user) is asked to link first and nothing is asked of them.
	if caller.UserID == 0 {
		return textmatch.LinkFirst(lang), nil
	}
	if c.kind == cmdFind {
		return p.find(ctx, caller, c, lang), nil
	}
	return p.pick(ctx, caller, c.n, lang), nil
}
