// Package app is the composition root: constructor functions build
// configuration → repositories → use cases → plugins → delivery, each taking
// what it needs and returning values, and every long-lived part becomes one
// component of the lifecycle (lifecycle.go) that Run starts in order and
// stops in reverse with a deadline. Only this package knows every other one.
package app

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"sync/atomic"

	"mediateka/config"
	deliveryhttp "mediateka/delivery/http"
	"mediateka/domain"
	"mediateka/plugins"
	"mediateka/repository/logfile"
	"mediateka/repository/sqlstore"
	"mediateka/usecase/auth"
	"mediateka/usecase/logs"
	"mediateka/usecase/notice"
	"mediateka/usecase/playback"
	"mediateka/usecase/textmatch"
)

// Options are what the command line passes besides the configuration.
type Options struct {
	Version string
	Stderr  io.Writer
	// Warnings from config loading, logged once the logger exists.
	Warnings []string
	// Plugins overrides the registry (tests); nil means plugins.Builtins().
	Plugins []plugins.Entry
	// Embedder overrides the embedder of semantic search (tests); nil
	// means the default one.
	Embedder domain.Embedder
}

// App is one mediateka: what New built, and the lifecycle Run drives.
type App struct {
	cfg     config.Config
	log     *slog.Logger
	logFile *logfile.Writer
	// redact is the logger's redaction rule, which the logs API applies too.
	redact  *domain.Redactor
	logs    *logs.Service
	life    *lifecycle
	repos   repositories
	uc      useCases
	lib     libraryParts
	ai      aiParts
	chat    chatUseCases
	control controlParts
	plugins *plugins.Manager
	http    *deliveryhttp.Server
	tls     *tls.Config
	// streams ends long-lived streams (SSE) when shutdown begins.
	streams     context.Context
	stopStreams context.CancelFunc

	// playback answers /play, remuxes and thumbnails, and each player's
	// play in the rooms.
	playback *playback.Service
	// search is the torrent_search plugin's indexers, read before the
	// logger so that their API keys are redacted.
	search searchConfig
}

type repositories struct {
	store    *sqlstore.Store
	users    *sqlstore.Users
	activity *sqlstore.Activity
	settings *sqlstore.Settings
	media    *sqlstore.Media
	watch    *sqlstore.WatchStates
}

type useCases struct {
	auth   *auth.Service
	google *auth.Google
	// telegram is the Mini App login and the account links; the bot
	// redeems /link codes and finds linked accounts through it.
	telegram *auth.Telegram
	// users is the administrators' user management (API.md §7).
	users *auth.UserAdmin
}

// New builds the whole application; nothing listens and no component
// starts until Run.
func New(ctx context.Context, cfg config.Config, opt Options) (*App, error) {
	if opt.Stderr == nil {
		opt.Stderr = os.Stderr
	}
	if err := os.MkdirAll(cfg.DataDir, 0o750); err != nil {
		return nil, fmt.Errorf("create data folder %s: %w", cfg.DataDir, err)
	}
	cfg, sec, err := resolveSecrets(cfg)
	if err != nil {
		return nil, err
	}
	search := loadSearchConfig(cfg)
	var tgProblem error
	cfg.TelegramBotToken, tgProblem = telegramBotToken(cfg)
	redact := domain.NewRedactor(append(secretValues(cfg, sec.keyMaster), search.apiKeys()...))
	log, logFile, err := newLogger(cfg, opt.Stderr, redact)
	if err != nil {
		return nil, fmt.Errorf("open log folder %s: %w", cfg.LogDir, err)
	}
	a := &App{cfg: cfg, log: log, logFile: logFile, redact: redact, life: newLifecycle(log, cfg.HTTP.ShutdownTimeout.D()), search: search}
	sec.report(cfg, log, opt.Warnings)
	if tgProblem != nil {
		log.Warn("no Telegram bot token: Mini App sign-in answers 503", "err", tgProblem)
	}
	a.streams, a.stopStreams = context.WithCancel(context.Background())
	if err := a.build(ctx, opt, sec.keyMaster); err != nil {
		a.Close()
		return nil, err
	}
	return a, nil
}

// build calls the constructors in data-flow order, adding each long-lived
// part to the lifecycle as soon as it exists, so a later failure still
// stops it (New calls Close).
func (a *App) build(ctx context.Context, opt Options, keyMaster string) error {
	var err error
	if a.repos, err = newRepositories(ctx, a.cfg); err != nil {
		return err
	}
	if a.uc, err = newUseCases(ctx, a.cfg, a.repos, a.log); err != nil {
		return err
	}
	keys, err := newKeys(a.cfg, a.repos.store, keyMaster, a.log)
	if err != nil {
		return err
	}
	if a.lib, err = newLibrary(a.cfg, a.repos, ragEmbedding{emb: opt.Embedder, keys: keys}, a.log); err != nil {
		return err
	}
	a.life.add(a.lib.components()...)
	notices := notice.New()
	a.life.add(noticesComponent(a.life, a.lib.events, notices))
	if a.ai, err = newAIModel(a.cfg, keys, a.lib, a.log); err != nil {
		return err
	}
	var afterScans bool
	a.lib.classify, afterScans = newClassify(a.cfg, a.repos, a.ai.model, a.lib, a.log)
	a.life.add(component{Name: "classification job", Start: noStart, Stop: a.lib.classify.Stop})
	if afterScans {
		a.life.add(afterScansComponent(a.life, a.lib.events, a.lib.classify, a.log))
	}
	torrents, err := newTorrents(a.cfg, a.search, a.lib, a.log)
	if err != nil {
		return err
	}
	a.life.add(torrents.components(a.life)...)
	torrents.search = newTorrentSearch(a.search, a.lib.catalog, a.log)
	speech, err := newSpeech(a.cfg, keys, a.lib, a.log)
	if err != nil {
		return err
	}
	tg := newTelegramParts(a.cfg, a.ai, a.lib, torrents)
	pd := pluginDeps(a.repos, a.ai, a.lib, torrents, notices, a.log)
	pd.Telegram = tg.deps(a.cfg, a.uc.telegram, speech, a.lib.events)
	a.plugins = newPlugins(ctx, a.cfg, opt.Plugins, pd)
	a.life.add(pluginComponent(a.plugins))
	if a.chat, err = newChatUseCases(ctx, a.cfg, a.repos, a.plugins, a.ai.model, notices, a.log); err != nil {
		return err
	}
	// The bot was built before the chat and the rooms; it gets them now,
	// before the plugins start in Run.
	tg.chat.Set(a.chat.chat)
	a.playback = newPlayback(a.cfg, a.repos, a.lib, a.ai.probe, a.log)
	a.control = newControl(a.cfg, a.lib.catalog, a.uc.auth, a.playback, a.lib.watching, a.log)
	tg.bindRooms(a.control.hub)
	a.life.add(a.control.component())
	deps := deliveryDeps(a.uc, a.lib, a.ai, a.chat, a.control)
	deps.Playback = a.playback
	deps.Torrents, deps.TorrentSearch = torrents.svc, torrents.search
	deps.Speech = speech
	deps.TelegramWebhook = telegramWebhook(a.plugins)
	if a.logs, err = newLogs(a.cfg, a.logFile, a.redact, a.ai.model, a.lib.events, a.log); err != nil {
		return err
	}
	a.life.add(logsComponent(a.logs))
	deps.Logs = a.logs
	a.http, a.tls, err = newDelivery(a.cfg, opt.Version, deps, a.streams, a.log)
	return err
}

func newRepositories(ctx context.Context, cfg config.Config) (repositories, error) {
	store, err := sqlstore.Open(ctx, cfg.DBPath())
	if err != nil {
		return repositories{}, err
	}
	return repositories{store: store, users: sqlstore.NewUsers(store),
		activity: sqlstore.NewActivity(store), settings: sqlstore.NewSettings(store),
		media: sqlstore.NewMedia(store, textmatch.Normalize), watch: sqlstore.NewWatchStates(store)}, nil
}

func newUseCases(ctx context.Context, cfg config.Config, repos repositories, log *slog.Logger) (useCases, error) {
	svc, err := auth.New(repos.users, repos.activity, auth.Options{
		Secret: []byte(cfg.JWTSecret), TokenTTL: cfg.Auth.TokenTTL.D(),
		MaxFailedPerMinute: cfg.Auth.MaxFailedPerMinute, MaxConcurrentChecks: cfg.Auth.MaxConcurrentLogins, Logger: log,
	})
	if err != nil {
		return useCases{}, err
	}
	if err := svc.Bootstrap(ctx, cfg.AdminEmail, cfg.AdminPassword, cfg.DataDir); err != nil {
		return useCases{}, err
	}
	g := cfg.GoogleOAuth
	tg := auth.NewTelegram(svc, repos.users, auth.TelegramOptions{BotToken: cfg.TelegramBotToken, MaxAge: cfg.Auth.TelegramInitDataTTL.D()})
	return useCases{auth: svc, telegram: tg, users: auth.NewUserAdmin(svc.Accounts, repos.users, tg), google: auth.NewGoogle(svc, repos.users, auth.GoogleConfig{
		ClientID: g.ClientID, ClientSecret: g.ClientSecret, RedirectURI: g.RedirectURI,
		AuthURL: g.AuthURL, TokenURL: g.TokenURL, UserinfoURL: g.UserinfoURL,
		AllowedEmails: g.AllowedEmails, StateTTL: cfg.Auth.OAuthStateTTL.D(), MaxPending: cfg.Auth.OAuthMaxPending,
	})}, nil
}

// HTTP exposes the delivery (tests mount extra routes on it).
func (a *App) HTTP() *deliveryhttp.Server { return a.http }

// Logger is the application's logger.
func (a *App) Logger() *slog.Logger { return a.log }

// Run serves on ln (or on the configured address when ln is nil) until ctx
// ends, then shuts down gracefully: the components stop in reverse (the
// HTTP server first: streams are told to end and in-flight requests get
// until the shutdown deadline; then plugins, event subscribers and jobs),
// and the database and the log file close last.
func (a *App) Run(ctx context.Context, ln net.Listener) error {
	a.life.add(a.serverComponent(ln))
	err := a.life.run(ctx)
	a.Close()
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// serverComponent is the HTTP server. It comes last, being the one part
// that needs Run's listener, and the last to start is the first to stop,
// so no request reaches a part that has stopped.
func (a *App) serverComponent(ln net.Listener) component {
	// serve reads ln when it runs, after Start has opened or wrapped it.
	// halt also closes ln itself: a shutdown that comes before the serving
	// goroutine has taken the listener would otherwise be forgotten by
	// fasthttp, which would then serve on after the database closed. The
	// accept error that close causes is the expected end, not a failure.
	var halting atomic.Bool
	serve := func(context.Context) error {
		err := a.http.Serve(ln)
		if halting.Load() {
			return nil
		}
		return err
	}
	halt := func(ctx context.Context) error {
		halting.Store(true)
		a.stopStreams()
		err := a.http.App().ShutdownWithContext(ctx)
		_ = ln.Close() // already closed by a shutdown that found it
		return err
	}
	c := a.life.background("http server", serve, halt)
	startServing := c.Start
	c.Start = func(ctx context.Context) error {
		if ln == nil {
			var err error
			if ln, err = net.Listen("tcp", a.cfg.Addr()); err != nil {
				return fmt.Errorf("listen on %s: %w", a.cfg.Addr(), err)
			}
		}
		if a.tls != nil {
			ln = tls.NewListener(ln, a.tls)
		}
		scheme := map[bool]string{true: "https", false: "http"}[a.tls != nil]
		a.log.Info("mediateka listening", "addr", scheme+"://"+ln.Addr().String())
		return startServing(ctx)
	}
	return c
}

// Close stops every component Run has not stopped (all of them when Run
// never ran: a job started through the in-memory transport must end before
// the database closes), then closes the database and the log file. Run
// calls it on the way out.
func (a *App) Close() {
	if a.stopStreams != nil {
		a.stopStreams()
	}
	if a.life != nil {
		a.life.close()
	}
	if a.repos.store != nil {
		if err := a.repos.store.Close(); err != nil && a.log != nil {
			a.log.Error("close database", "err", err)
		}
		a.repos.store = nil
	}
	if a.logFile != nil {
		_ = a.logFile.Close()
		a.logFile = nil
	}
}

// noStart is the Start of a component that only has something to stop: a
// job runner idle until asked.
func noStart(context.Context) error { return nil }

// startSecrets are the secrets resolved before the logger exists, so the
// logger can scrub them, and what was generated on this start.
type startSecrets struct {
	keyMaster       string
	generatedMaster bool
	generatedJWT    bool
}

// resolveSecrets reads (or creates) the key-store master secret and fills
// JWT_SECRET from the data folder when unset: there is no built-in
// default secret.
func resolveSecrets(cfg config.Config) (config.Config, startSecrets, error) {
	var sec startSecrets
	var err error
	sec.keyMaster, sec.generatedMaster, err = loadOrCreateSecret(filepath.Join(cfg.DataDir, keyMasterFile), 32)
	if err != nil || cfg.JWTSecret != "" {
		return cfg, sec, err
	}
	cfg.JWTSecret, sec.generatedJWT, err = loadOrCreateSecret(filepath.Join(cfg.DataDir, "jwt_secret"), 32)
	return cfg, sec, err
}

// report logs what this start generated and the config warnings.
func (sec startSecrets) report(cfg config.Config, log *slog.Logger, warnings []string) {
	if sec.generatedJWT {
		log.Warn("JWT_SECRET is not set: generated one and stored it in the data folder", "file", filepath.Join(cfg.DataDir, "jwt_secret"))
	}
	if sec.generatedMaster {
		log.Info("generated the secret that encrypts stored API keys; back it up with the database",
			"key_file", filepath.Join(cfg.DataDir, keyMasterFile))
	}
	for _, w := range warnings {
		log.Warn("config: " + w)
	}
}

// secretValues lists the configured secret values the log redactor scrubs.
func secretValues(cfg config.Config, keyMaster string) []string {
	return []string{cfg.JWTSecret, cfg.AdminPassword, cfg.GoogleOAuth.ClientSecret,
		cfg.TorrentClient.Password, cfg.TelegramBotToken, keyMaster}
}
