package app

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"time"

	"mediateka/config"
	"mediateka/domain"
	embgemini "mediateka/repository/embedder/gemini"
	embopenai "mediateka/repository/embedder/openai"
	"mediateka/repository/embedder/remote"
	"mediateka/repository/localfs"
	"mediateka/repository/sqlstore"
	"mediateka/usecase/apikey"
	"mediateka/usecase/catalog"
	"mediateka/usecase/rag"
	"mediateka/usecase/rag/local"
	"mediateka/usecase/textmatch"
)

// ragEmbedding is how semantic search gets its embedder: emb when a caller
// names one (tests), else the one config rag.embedder names, a remote one
// rotating the keys of the key store.
type ragEmbedding struct {
	emb  domain.Embedder
	keys *apikey.Service
}

// embedder is the embedder of semantic search: the named one, the local
// one (the default: offline and deterministic, so the index works with
// nothing configured) or a remote provider's over the key store. A remote
// client with a bad setting is a configuration error at start.
func (r ragEmbedding) embedder(cfg config.Config) (domain.Embedder, error) {
	if r.emb != nil {
		return r.emb, nil
	}
	c := cfg.RAG
	rc := remote.Config{BaseURL: c.BaseURL, Model: c.Model, BatchSize: c.BatchSize, Dimensions: c.Dimensions, Timeout: c.Timeout.D()}
	switch c.Embedder {
	case "openai":
		p, err := embopenai.New(rc)
		if err != nil {
			return nil, fmt.Errorf("rag: %w", err)
		}
		// A configured base URL is a local or self-hosted server (Ollama,
		// LM Studio), which usually needs no key.
		return r.keys.Embedder(p, c.BaseURL != ""), nil
	case "gemini":
		p, err := embgemini.New(rc)
		if err != nil {
			return nil, fmt.Errorf("rag: %w", err)
		}
		return r.keys.Embedder(p, false), nil
	}
	return local.New(), nil
}

// newRAG builds semantic search over the catalogue with the embedder of
// emb. Its searches are logged through the catalogue's search log.
func newRAG(cfg config.Config, repos repositories, cat *catalog.Service, bus rag.Publisher, emb ragEmbedding, log *slog.Logger) (*rag.Service, error) {
	e, err := emb.embedder(cfg)
	if err != nil {
		return nil, err
	}
	log.Info("semantic search embedder", "embedder", e.Name(), "model", e.Model())
	return rag.New(repos.media, sqlstore.NewVectors(repos.store), e, rag.Options{
		Events: bus, SearchLog: cat, Lock: ragLock(cfg), Logger: log,
	}), nil
}

// ragLock is the file lock the server and `mediateka rag build` share.
func ragLock(cfg config.Config) *localfs.Lock {
	return localfs.NewLock(filepath.Join(cfg.DataDir, "rag.lock"))
}

// changeListeners tells the catalogue's title index and the semantic
// index that records were written. The title index settles at once (the
// next title search must find an edit); the semantic index only hears of
// it and updates in the background, since embedding may be slow or cost
// a provider's quota.
type changeListeners struct {
	catalog *catalog.Service
	rag     *rag.Service
}

// MediaChanged implements library.ChangeListener and classify.ChangeListener.
func (l changeListeners) MediaChanged() {
	l.catalog.MediaChanged()
	l.rag.MediaChanged()
}

// Settle implements library.ChangeListener.
func (l changeListeners) Settle(ctx context.Context) error { return l.catalog.Settle(ctx) }

// BuildRAG builds the semantic index from the command line against the
// server's database with emb (nil: the one config rag.embedder names, a
// remote one over the server's key store), calling progress every `every`
// with the status. The lock makes it and a build of the server take turns
// (409); the server loads the new vectors at its next start, or updates
// them itself after its next change.
func BuildRAG(ctx context.Context, cfg config.Config, emb domain.Embedder, every time.Duration, progress func(rag.Status)) (rag.Status, error) {
	store, err := sqlstore.Open(ctx, cfg.DBPath())
	if err != nil {
		return rag.Status{}, err
	}
	defer store.Close()
	re := ragEmbedding{emb: emb}
	if emb == nil && cfg.RAG.Embedder != "local" {
		if re.keys, err = cliKeys(cfg, store); err != nil {
			return rag.Status{}, err
		}
	}
	if emb, err = re.embedder(cfg); err != nil {
		return rag.Status{}, err
	}
	svc := rag.New(sqlstore.NewMedia(store, textmatch.Normalize), sqlstore.NewVectors(store), emb, rag.Options{
		Lock: ragLock(cfg), ProgressEvery: every,
	})
	defer func() { _ = svc.Stop(context.Background()) }()
	st, err := svc.Run(ctx, progress)
	if err != nil {
		return st, fmt.Errorf("build the semantic index: %w", err)
	}
	return st, nil
}

// cliKeys is the server's key store for a command-line build with a remote
// embedder: the keys of the database, opened with the data folder's
// master secret.
func cliKeys(cfg config.Config, store *sqlstore.Store) (*apikey.Service, error) {
	master, _, err := loadOrCreateSecret(filepath.Join(cfg.DataDir, keyMasterFile), 32)
	if err != nil {
		return nil, err
	}
	return newKeys(cfg, store, master, slog.New(slog.DiscardHandler))
}
