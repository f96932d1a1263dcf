package app

import (
	"context"
	"encoding/json"
	"fmt"
	nethttp "net/http"
	"strings"
	"time"

	"mediateka/config"
	"mediateka/domain"
	"mediateka/plugins"
	"mediateka/plugins/telegram"
	"mediateka/usecase/apikey"
	"mediateka/usecase/auth"
	"mediateka/usecase/catalog"
	"mediateka/usecase/control"
	"mediateka/usecase/library"
	"mediateka/usecase/offline"
	"mediateka/usecase/torrent"
	"mediateka/usecase/tts"
)

// statusPartTimeout bounds each part of the bot's /status, so a slow
// torrent client or store cannot keep the answer waiting.
const statusPartTimeout = 5 * time.Second

// telegramParts are what the bot plugin gets beyond plugins.Deps' common
// fields. The plugins are built before the chat use case (which holds the
// plugin chain) and before the control rooms, so both are bound late:
// bindChat and bindRooms run in build, before any plugin starts.
type telegramParts struct {
	chat   *telegram.ChatRef
	status *telegramStatus
	// rooms plays /find's results; its hub is bound with the status's.
	rooms    *telegramRooms
	catalog  *catalog.Service
	torrents torrentParts
}

// newTelegramParts builds the bot's dependencies that exist now.
func newTelegramParts(cfg config.Config, ai aiParts, lib libraryParts, torrents torrentParts) telegramParts {
	return telegramParts{chat: &telegram.ChatRef{}, status: &telegramStatus{
		library: lib.library, torrents: torrents.svc, torrentsConfigured: cfg.TorrentClient.URL != "",
		model: ai.model, keys: ai.keys, keyOptional: cfg.AI.Provider == "openai" && cfg.AI.BaseURL != "",
	}, rooms: &telegramRooms{}, catalog: lib.catalog, torrents: torrents}
}

// bindRooms gives /status and /find's ▶ button the control rooms, built
// after the plugins.
func (tp telegramParts) bindRooms(hub *control.Service) {
	tp.status.rooms = hub
	tp.rooms.hub = hub
}

// telegramRooms is telegram.Rooms over the control hub, bound late.
type telegramRooms struct {
	hub *control.Service
}

// Play implements telegram.Rooms.
func (r *telegramRooms) Play(ctx context.Context, room string, caller domain.Caller, mediaID int64) (domain.Media, error) {
	if r.hub == nil {
		return domain.Media{}, domain.ErrUnavailable("unavailable", "the rooms are not ready yet", nil)
	}
	return r.hub.Play(ctx, room, caller, mediaID)
}

// deps are the plugin's dependencies: accounts are the Telegram account
// links of the auth use case (who is linked, /link codes, linked admins).
func (tp telegramParts) deps(cfg config.Config, accounts *auth.Telegram, speech *tts.Service, events telegram.Events) telegram.Deps {
	d := telegram.Deps{Token: cfg.TelegramBotToken, Chat: tp.chat, Status: tp.status, Events: events, Accounts: accounts,
		MiniApp: telegram.MiniApp{URL: cfg.TgMiniApp.URL, Name: cfg.TgMiniApp.Name, Description: cfg.TgMiniApp.Description},
		Rooms:   tp.rooms, Torrents: tp.torrents.svc}
	if tp.catalog != nil {
		d.Catalog = tp.catalog
	}
	if tp.torrents.search != nil {
		d.TorrentSearch = tp.torrents.search
	}
	if speech != nil {
		d.Speech = speech
	}
	return d
}

// telegramStatus is the bot's /status over the use cases.
type telegramStatus struct {
	library            *library.Service
	torrents           *torrent.Service
	torrentsConfigured bool
	// rooms is set once the control rooms exist (bindRooms).
	rooms       *control.Service
	model       domain.AIModel
	keys        *apikey.Service
	keyOptional bool
}

// Status implements telegram.Status.
func (s *telegramStatus) Status(ctx context.Context, caller domain.Caller) telegram.StatusReport {
	r := telegram.StatusReport{Model: s.model.Name(), Torrents: telegram.TorrentsStatus{Configured: s.torrentsConfigured}}
	part := func(f func(ctx context.Context)) {
		ctx, cancel := context.WithTimeout(ctx, statusPartTimeout)
		defer cancel()
		f(ctx)
	}
	part(func(ctx context.Context) { r.Library = s.libraryCounts(ctx) })
	if s.torrentsConfigured && s.torrents != nil {
		part(func(ctx context.Context) { r.Torrents = s.torrentCounts(ctx) })
	}
	part(func(ctx context.Context) { r.ModelKey = s.modelKey(ctx) })
	r.Room = s.room(caller)
	return r
}

func (s *telegramStatus) libraryCounts(ctx context.Context) *telegram.LibraryCounts {
	if s.library == nil {
		return nil
	}
	st, err := s.library.Stats(ctx)
	if err != nil {
		return nil
	}
	return &telegram.LibraryCounts{Movies: st.Movies, Series: st.Series, Episodes: st.Episodes, Missing: st.Missing}
}

// torrentCounts counts the torrents and the unfinished ones among them.
func (s *telegramStatus) torrentCounts(ctx context.Context) telegram.TorrentsStatus {
	ts := telegram.TorrentsStatus{Configured: true}
	list, err := s.torrents.List(ctx)
	if err != nil {
		return ts
	}
	ts.Reachable, ts.Total = true, len(list)
	for _, t := range list {
		switch t.State {
		case domain.TorrentDownloading, domain.TorrentStalled, domain.TorrentMetadata, domain.TorrentQueued,
			domain.TorrentChecking, domain.TorrentMoving:
			if !t.Finished() {
				ts.Active++
			}
		}
	}
	return ts
}

// modelKey tells whether the chat's model can be called: the offline
// assistant and keyless servers always, a provider when it has an active
// key.
func (s *telegramStatus) modelKey(ctx context.Context) bool {
	if _, ok := s.model.(*offline.Model); ok || s.keyOptional || s.keys == nil {
		return true
	}
	provider, _, _ := strings.Cut(s.model.Name(), "/")
	keys, err := s.keys.List(ctx)
	if err != nil {
		return false
	}
	for _, k := range keys {
		if k.Provider == provider && k.Status == domain.KeyActive {
			return true
		}
	}
	return false
}

// room is the caller's room (their e-mail); nil without an account.
func (s *telegramStatus) room(caller domain.Caller) *telegram.RoomStatus {
	if caller.UserID == 0 || caller.Email == "" || s.rooms == nil {
		return nil
	}
	st, err := s.rooms.Status(caller.Email, caller)
	if err != nil {
		return nil
	}
	pb := st.Playback
	return &telegram.RoomStatus{Room: st.Room, Players: st.Players, State: pb.State, Position: pb.Position,
		Duration: pb.Duration, Volume: pb.Volume, Title: pb.Title}
}

// telegramWebhook is the bot's webhook handler for the HTTP server, nil
// when the registry has no bot.
func telegramWebhook(m *plugins.Manager) nethttp.Handler {
	if h := m.Webhook(telegram.Name); h != nil {
		return h
	}
	return nil
}

// telegramPlugin is the Telegram bot's plugin name: its config.json lives
// in <plugin_config_dir>/telegram/.
const telegramPlugin = "telegram"

// telegramBotToken is the one answer to "which bot token": the
// TELEGRAM_BOT_TOKEN environment variable (cfg.TelegramBotToken) when set,
// else the telegram plugin's config "token". The Mini App login checks
// init_data with it and the bot talks to Telegram with it, so both must
// read it from here. It runs before the logger exists, so that the token
// is handed to the log redactor; a plugin config that cannot be read gives
// no token and the problem, logged later.
func telegramBotToken(cfg config.Config) (string, error) {
	if tok := strings.TrimSpace(cfg.TelegramBotToken); tok != "" {
		return tok, nil
	}
	raw, err := plugins.ReadConfig(cfg.PluginConfigDir, telegramPlugin)
	if err != nil {
		return "", fmt.Errorf("telegram plugin: %w", err)
	}
	var file struct {
		Token string `json:"token"`
	}
	if err := json.Unmarshal(raw, &file); err != nil {
		return "", fmt.Errorf("telegram plugin: config.json: token must be a string: %w", err)
	}
	return strings.TrimSpace(file.Token), nil
}
