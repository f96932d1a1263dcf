package app

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"time"

	"mediateka/config"
	"mediateka/domain"
	"mediateka/repository/localfs"
	"mediateka/repository/sqlstore"
	"mediateka/usecase/catalog"
	"mediateka/usecase/rag"
	"mediateka/usecase/rag/local"
	"mediateka/usecase/textmatch"
)

// defaultEmbedder is the embedder semantic search uses when the caller
// names none (Options.Embedder): the built-in local one, offline and
// deterministic, so the index works with nothing configured.
func defaultEmbedder(config.Config) domain.Embedder { return local.New() }

// newRAG builds semantic search over the catalogue with emb (nil: the
// default embedder). Its searches are logged through the catalogue's
// search log.
func newRAG(cfg config.Config, repos repositories, cat *catalog.Service, bus rag.Publisher, emb domain.Embedder, log *slog.Logger) *rag.Service {
	if emb == nil {
		emb = defaultEmbedder(cfg)
	}
	return rag.New(repos.media, sqlstore.NewVectors(repos.store), emb, rag.Options{
		Events: bus, SearchLog: cat, Lock: ragLock(cfg), Logger: log,
	})
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
// server's database with emb (nil: the default embedder), calling
// progress every `every` with the status. The lock makes it and a build
// of the server take turns (409); the server loads the new vectors at its
// next start, or updates them itself after its next change.
func BuildRAG(ctx context.Context, cfg config.Config, emb domain.Embedder, every time.Duration, progress func(rag.Status)) (rag.Status, error) {
	store, err := sqlstore.Open(ctx, cfg.DBPath())
	if err != nil {
		return rag.Status{}, err
	}
	defer store.Close()
	if emb == nil {
		emb = defaultEmbedder(cfg)
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
