// Package app is the composition root: it builds configuration →
// repositories → use cases → plugins → delivery, owns the start-up order and
// shuts everything down in reverse with a deadline. Only this package knows
// every other one.
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

	"golang.org/x/sync/errgroup"

	"mediateka/config"
	deliveryhttp "mediateka/delivery/http"
	"mediateka/plugins"
	"mediateka/repository/sqlstore"
	"mediateka/usecase/auth"
)

// Options are what the command line passes besides the configuration.
type Options struct {
	Version string
	Stderr  io.Writer
	// Warnings from config loading, logged once the logger exists.
	Warnings []string
	// Plugins overrides the registry (tests); nil means plugins.Builtins().
	Plugins []plugins.Entry
}

// App is one running mediateka.
type App struct {
	cfg     config.Config
	log     *slog.Logger
	logFile io.Closer
	repos   repositories
	uc      useCases
	chat    chatParts
	plugins *plugins.Manager
	http    *deliveryhttp.Server
	tls     *tls.Config
	lib     libraryParts
	// generatedJWT is set when this start created the JWT secret file.
	generatedJWT bool
	// stopStreams ends long-lived streams when shutdown begins.
	streams     context.Context
	stopStreams context.CancelFunc
}

type repositories struct {
	store    *sqlstore.Store
	users    *sqlstore.Users
	activity *sqlstore.Activity
	settings *sqlstore.Settings
}

type useCases struct {
	auth   *auth.Service
	google *auth.Google
}

// New builds the whole application; nothing listens until Run.
func New(ctx context.Context, cfg config.Config, opt Options) (*App, error) {
	if opt.Stderr == nil {
		opt.Stderr = os.Stderr
	}
	if err := os.MkdirAll(cfg.DataDir, 0o750); err != nil {
		return nil, fmt.Errorf("create data folder %s: %w", cfg.DataDir, err)
	}
	a := &App{cfg: cfg}
	if err := a.resolveSecrets(); err != nil {
		return nil, err
	}
	log, logFile, err := newLogger(cfg.LogDir, cfg.Log.Level, cfg.Log.MaxSizeMB, cfg.Log.MaxBackups, opt.Stderr, a.secrets())
	if err != nil {
		return nil, fmt.Errorf("open log folder %s: %w", cfg.LogDir, err)
	}
	a.log, a.logFile = log, logFile
	if a.generatedJWT {
		a.log.Warn("JWT_SECRET is not set: generated one and stored it in the data folder", "file", filepath.Join(cfg.DataDir, "jwt_secret"))
	}
	for _, w := range opt.Warnings {
		a.log.Warn("config: " + w)
	}
	a.streams, a.stopStreams = context.WithCancel(context.Background())
	if err := a.build(ctx, opt); err != nil {
		a.Close()
		return nil, err
	}
	return a, nil
}

func (a *App) build(ctx context.Context, opt Options) error {
	if err := a.newRepositories(ctx); err != nil {
		return err
	}
	if err := a.newUseCases(ctx); err != nil {
		return err
	}
	if err := a.newAIModel(); err != nil {
		return err
	}
	a.newClassify()
	a.newPlugins(ctx, opt.Plugins)
	if err := a.newChatUseCases(ctx); err != nil {
		return err
	}
	return a.newDelivery(opt.Version)
}

// resolveSecrets fills JWT_SECRET from the data folder when unset: there is
// no built-in default secret.
func (a *App) resolveSecrets() error {
	if err := a.resolveKeyMaster(); err != nil {
		return err
	}
	if a.cfg.JWTSecret != "" {
		return nil
	}
	secret, created, err := loadOrCreateSecret(filepath.Join(a.cfg.DataDir, "jwt_secret"), 32)
	if err != nil {
		return err
	}
	a.cfg.JWTSecret = secret
	a.generatedJWT = created
	return nil
}

// secrets lists the configured secret values the log redactor scrubs.
func (a *App) secrets() []string {
	return []string{a.cfg.JWTSecret, a.cfg.AdminPassword, a.cfg.GoogleOAuth.ClientSecret,
		a.cfg.TorrentClient.Password, a.cfg.TelegramBotToken, a.chat.keyMaster}
}

func (a *App) newRepositories(ctx context.Context) error {
	store, err := sqlstore.Open(ctx, a.cfg.DBPath())
	if err != nil {
		return err
	}
	a.repos = repositories{store: store, users: sqlstore.NewUsers(store),
		activity: sqlstore.NewActivity(store), settings: sqlstore.NewSettings(store)}
	a.newLibraryRepository()
	return nil
}

func (a *App) newUseCases(ctx context.Context) error {
	svc, err := auth.New(a.repos.users, a.repos.activity, auth.Options{
		Secret: []byte(a.cfg.JWTSecret), TokenTTL: a.cfg.Auth.TokenTTL.D(),
		MaxFailedPerMinute: a.cfg.Auth.MaxFailedPerMinute, MaxConcurrentChecks: a.cfg.Auth.MaxConcurrentLogins, Logger: a.log,
	})
	if err != nil {
		return err
	}
	if err := svc.Bootstrap(ctx, a.cfg.AdminEmail, a.cfg.AdminPassword, a.cfg.DataDir); err != nil {
		return err
	}
	g := a.cfg.GoogleOAuth
	a.uc = useCases{auth: svc, google: auth.NewGoogle(svc, a.repos.users, auth.GoogleConfig{
		ClientID: g.ClientID, ClientSecret: g.ClientSecret, RedirectURI: g.RedirectURI,
		AuthURL: g.AuthURL, TokenURL: g.TokenURL, UserinfoURL: g.UserinfoURL,
		AllowedEmails: g.AllowedEmails, StateTTL: a.cfg.Auth.OAuthStateTTL.D(), MaxPending: a.cfg.Auth.OAuthMaxPending,
	})}
	if err := a.newLibraryUseCases(); err != nil {
		return err
	}
	return nil
}

func (a *App) newPlugins(ctx context.Context, entries []plugins.Entry) {
	if entries == nil {
		entries = plugins.Builtins()
	}
	a.plugins = plugins.NewManager(entries, a.pluginDeps(), plugins.Options{
		Disabled: a.cfg.PluginDisabled, ConfigDir: a.cfg.PluginConfigDir, Logger: a.log,
	})
	a.plugins.Load(ctx)
}

func (a *App) newDelivery(version string) error {
	deps := deliveryhttp.Deps{Auth: a.uc.auth, Google: a.uc.google, Chat: a.chat.chat, Admin: a.chat.admin, Keys: a.chat.keys}
	a.libraryDelivery(&deps)
	a.http = deliveryhttp.New(deps, deliveryhttp.Options{
		Version: version, TrustedProxies: a.cfg.TrustedProxyPrefixes(), BodyLimit: a.cfg.HTTP.BodyLimitBytes,
		ReadTimeout: a.cfg.HTTP.ReadTimeout.D(), IndexPath: a.cfg.IndexPath, Logger: a.log, Shutdown: a.streams,
	})
	if !a.cfg.UseSSL {
		return nil
	}
	t, created, err := tlsConfig(a.cfg.TLSCert, a.cfg.TLSKey, a.cfg.DataDir)
	if err != nil {
		return err
	}
	if created {
		a.log.Warn("USE_SSL is on without tls_cert: serving a self-signed certificate", "dir", filepath.Join(a.cfg.DataDir, "tls"))
	}
	a.tls = t
	return nil
}

// HTTP exposes the delivery (tests mount extra routes on it).
func (a *App) HTTP() *deliveryhttp.Server { return a.http }

// Logger is the application's logger.
func (a *App) Logger() *slog.Logger { return a.log }

// Run serves on ln (or on the configured address when ln is nil) until ctx
// ends, then shuts down gracefully: streams are told to end, in-flight
// requests get until the shutdown deadline, plugins stop, the database
// closes.
func (a *App) Run(ctx context.Context, ln net.Listener) error {
	if ln == nil {
		var err error
		if ln, err = net.Listen("tcp", a.cfg.Addr()); err != nil {
			return fmt.Errorf("listen on %s: %w", a.cfg.Addr(), err)
		}
	}
	if a.tls != nil {
		ln = tls.NewListener(ln, a.tls)
	}
	a.plugins.Start(ctx)
	scheme := map[bool]string{true: "https", false: "http"}[a.tls != nil]
	a.log.Info("mediateka listening", "addr", scheme+"://"+ln.Addr().String())

	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error { return a.http.App().Listener(ln) })
	g.Go(func() error {
		<-gctx.Done()
		return a.shutdown()
	})
	err := g.Wait()
	a.Close()
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

func (a *App) shutdown() error {
	a.log.Info("shutting down")
	a.stopStreams()
	deadline := a.cfg.HTTP.ShutdownTimeout.D()
	err := a.http.App().ShutdownWithTimeout(deadline)
	pctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	a.plugins.Shutdown(pctx)
	return err
}

// Close releases the database and the log file; Run calls it on the way out.
func (a *App) Close() {
	if a.stopStreams != nil {
		a.stopStreams()
	}
	a.closeLibrary()
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
