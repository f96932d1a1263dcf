// Package torrents is the torrents plugin (slot 3, API.md §11): in the
// chat it lists the torrent client's torrents ("торренты", "что
// качается", "what's downloading"), adds a magnet or .torrent link
// ("скачай magnet:?…") as POST /api/torrents/download does, and for
// administrators pauses, resumes and rechecks a torrent by name. Answers
// come from the client, in the message's language; the client being down
// is a sentence, not an error. Anything else passes.
package torrents

import (
	"context"
	"errors"
	"log/slog"

	"mediateka/domain"
	"mediateka/usecase/textmatch"
	"mediateka/usecase/torrent"
)

// Name is the plugin's registry name.
const Name = "torrents"

// Service is the torrents use case as the plugin needs it.
type Service interface {
	List(ctx context.Context) ([]domain.Torrent, error)
	Download(ctx context.Context, req torrent.DownloadRequest) (torrent.Added, error)
	Control(ctx context.Context, action torrent.Action, name string) ([]domain.Torrent, error)
}

// Plugin is the torrents plugin.
type Plugin struct {
	domain.NoBackground
	svc Service
	log *slog.Logger
}

// New builds the plugin; without a service it declines to load.
func New(svc Service, log *slog.Logger) *Plugin {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Plugin{svc: svc, log: log}
}

// Name implements domain.Plugin.
func (p *Plugin) Name() string { return Name }

// Description implements domain.Plugin.
func (p *Plugin) Description() string {
	return "Lists and adds torrents in the torrent client; administrators pause, resume and recheck them (Russian and English)"
}

// Setup declines to load without the torrents use case.
func (p *Plugin) Setup(context.Context) (bool, error) { return p.svc != nil, nil }

// Handle answers a torrent request or passes ("").
func (p *Plugin) Handle(ctx context.Context, message string) (string, error) {
	c := parse(message)
	if c.kind == cmdNone {
		return "", nil
	}
	lang := textmatch.AnswerLang(ctx, message)
	caller, _ := domain.CallerFrom(ctx)
	// Listing and adding act as an account (POST /api/torrents/download
	// and GET /api/torrents need one): a caller without one (an unlinked
	// Telegram user) is asked to link first and the client is not asked.
	switch {
	case caller.UserID == 0 && (c.kind == cmdList || c.kind == cmdActive || c.kind == cmdAdd):
		return textmatch.LinkFirst(lang), nil
	case c.kind == cmdList || c.kind == cmdActive:
		return p.list(ctx, c.kind == cmdActive, lang), nil
	case c.kind == cmdAdd:
		return p.add(ctx, c.arg, lang), nil
	}
	// Pausing, resuming and rechecking change the client for everyone and
	// have no user endpoint: administrators only.
	if !caller.Admin {
		return textmatch.AdminOnly(lang), nil
	}
	return p.control(ctx, c, lang), nil
}

// unavailable is the answer while the client cannot be reached.
var unavailable = textmatch.Phrase{
	RU: "Торрент-клиент сейчас недоступен: он не отвечает или не принимает вход. Проверьте, что qBittorrent запущен, и настройки torrent_client.",
	EN: "The torrent client is unavailable: it does not answer or refuses the login. Check that qBittorrent is running and the torrent_client settings.",
}

// failed is the answer to an unexpected error, whose cause goes to the log.
var failed = textmatch.Phrase{
	RU: "Не получилось — причина записана в журнал сервера.",
	EN: "That did not work; the reason is in the server log.",
}

// trouble turns an error of the use case into a sentence.
func (p *Plugin) trouble(err error, lang string) string {
	if errors.Is(err, domain.ErrTorrentClientUnavailable) || domain.IsKind(err, domain.KindUnavailable) {
		return unavailable.In(lang)
	}
	p.log.Warn("torrents plugin failed", "err", err.Error())
	return failed.In(lang)
}
