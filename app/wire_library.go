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
	"mediateka/usecase/classify"
	"mediateka/usecase/event"
	"mediateka/usecase/library"
	"mediateka/usecase/rag"
	"mediateka/usecase/textmatch"
	"mediateka/usecase/watching"
)

// libraryParts are the media library's use cases: the scanner/audit, the
// catalogue and the event bus they publish on.
type libraryParts struct {
	library *library.Service
	catalog *catalog.Service
	// roots lists the library folders now, with their disk names.
	roots func() []domain.Root
	// classify is built after the AI model (newClassify).
	classify *classify.Service
	events   *event.Bus
	// watching is each account's watching state of the catalogue.
	watching *watching.Service
	// rag is semantic search over the catalogue.
	rag *rag.Service
	// listeners hear of every write to the catalogue (scans, edits,
	// classification): the title index and the semantic index.
	listeners changeListeners
}

// newLibrary reads the library folders from search_dirs.json (a malformed
// file stops start-up; a folder that is missing only warns; PUT
// /api/media-admin/roots changes them later) and builds the library and
// catalogue use cases.
func newLibrary(cfg config.Config, repos repositories, emb ragEmbedding, log *slog.Logger) (libraryParts, error) {
	roots, warnings, err := localfs.OpenRoots(cfg.SearchDirsPath())
	if err != nil {
		return libraryParts{}, err
	}
	for _, w := range warnings {
		log.Warn("search_dirs.json: " + w)
	}
	var lib libraryParts
	lib.roots = roots.Roots
	lib.events = event.New(nil)
	lib.catalog = catalog.New(repos.media, repos.media, localfs.FS{}, catalog.Options{Logger: log,
		Roots: roots.Roots, SearchHistoryRows: cfg.SearchHistory.MaxRows,
		SearchHistoryAge: cfg.SearchHistory.MaxAge.D()})
	if lib.rag, err = newRAG(cfg, repos, lib.catalog, lib.events, emb, log); err != nil {
		return libraryParts{}, err
	}
	lib.listeners = changeListeners{catalog: lib.catalog, rag: lib.rag}
	lib.library = library.New(repos.media, localfs.FS{}, library.Options{
		RootStore: roots, Events: lib.events, Lock: scanLock(cfg), Listener: lib.listeners, Logger: log, Space: localfs.Space{},
	})
	lib.watching = watching.New(repos.watch, lib.catalog, watching.Options{})
	for _, r := range lib.library.Roots() {
		if !r.Available {
			log.Warn("library folder is not available", "path", r.Path, "disk", r.Disk, "problem", r.Problem)
		}
	}
	return lib, nil
}

// components are the library's long-lived parts. The search-log writer
// comes first so it stops last and writes the history queued until the
// very end; the semantic index (whose searches it logs) and the scan job
// stop before it.
func (lib libraryParts) components() []component {
	return []component{
		{Name: "catalogue search log", Start: lib.catalog.Start,
			Stop: func(context.Context) error { lib.catalog.Close(); return nil }},
		{Name: "semantic search index", Start: lib.rag.Start, Stop: lib.rag.Stop},
		{Name: "library scan job", Start: noStart, Stop: lib.library.Stop},
	}
}

// scanLock is the file lock the server and `mediateka scan` share.
func scanLock(cfg config.Config) *localfs.Lock {
	return localfs.NewLock(filepath.Join(cfg.DataDir, "scan.lock"))
}

// Scan runs one library scan from the command line against the server's
// database, calling progress every `every` with the status. The server may
// run meanwhile: the lock makes one of the two scans wait its turn (409),
// and the server's title search notices the new records by itself.
func Scan(ctx context.Context, cfg config.Config, req library.ScanRequest, every time.Duration, progress func(library.Status)) (library.Status, error) {
	store, err := sqlstore.Open(ctx, cfg.DBPath())
	if err != nil {
		return library.Status{}, err
	}
	defer store.Close()
	roots, _, err := localfs.LoadRoots(cfg.SearchDirsPath())
	if err != nil {
		return library.Status{}, err
	}
	svc := library.New(sqlstore.NewMedia(store, textmatch.Normalize), localfs.FS{}, library.Options{
		Roots: roots, Lock: scanLock(cfg), ProgressEvery: every,
	})
	defer svc.Close()
	st, err := svc.Scan(ctx, req, progress)
	if err != nil {
		return st, fmt.Errorf("scan the library: %w", err)
	}
	return st, nil
}
