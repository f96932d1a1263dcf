package app

import (
	"context"
	"crypto/tls"
	"log/slog"
	"path/filepath"

	"mediateka/config"
	deliveryhttp "mediateka/delivery/http"
)

// deliveryDeps are the use cases the HTTP delivery calls, and the rooms'
// routes it mounts.
func deliveryDeps(uc useCases, lib libraryParts, ai aiParts, ch chatUseCases, ctl controlParts) deliveryhttp.Deps {
	d := deliveryhttp.Deps{Auth: uc.auth, Google: uc.google, Telegram: uc.telegram, Users: uc.users, Chat: ch.chat, Admin: ch.admin, Keys: ai.keys,
		Catalog: lib.catalog, Library: lib.library, Events: lib.events, Control: ctl.ws, Watching: lib.watching,
		RAG: lib.rag}
	if lib.classify != nil {
		d.Classify = lib.classify
	}
	return d
}

// newDelivery builds the HTTP server, whose streams end with streams, and
// the TLS configuration when USE_SSL is on (nil otherwise).
func newDelivery(cfg config.Config, version string, deps deliveryhttp.Deps, streams context.Context, log *slog.Logger) (*deliveryhttp.Server, *tls.Config, error) {
	srv := deliveryhttp.New(deps, deliveryhttp.Options{
		Version: version, TrustedProxies: cfg.TrustedProxyPrefixes(), BodyLimit: cfg.HTTP.BodyLimitBytes,
		ReadTimeout: cfg.HTTP.ReadTimeout.D(), IndexPath: cfg.IndexPath, Logger: log, Shutdown: streams,
		WriteTimeout: cfg.HTTP.WriteTimeout.D(), IdleTimeout: cfg.HTTP.IdleTimeout.D(),
	})
	if !cfg.UseSSL {
		return srv, nil, nil
	}
	t, created, err := tlsConfig(cfg.TLSCert, cfg.TLSKey, cfg.DataDir)
	if err != nil {
		return nil, nil, err
	}
	if created {
		log.Warn("USE_SSL is on without tls_cert: serving a self-signed certificate", "dir", filepath.Join(cfg.DataDir, "tls"))
	}
	return srv, t, nil
}
