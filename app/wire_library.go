package app

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"mediateka/config"
	deliveryhttp "mediateka/delivery/http"
	"mediateka/repository/localfs"
	"mediateka/repository/sqlstore"
	"mediateka/usecase/catalog"
	"mediateka/usecase/classify"
	"mediateka/usecase/event"
	"mediateka/usecase/library"
	"mediateka/usecase/textmatch"
)

// libraryParts are the media library's pieces: the media repository, the
// scanner/audit use case, the catalogue and the event bus they publish on.
type libraryParts struct {
	media   *sqlstore.Media
	library *library.Service
	catalog *catalog.Service
	// classify is built after the AI model (newClassify).
	classify *classify.Service
	events   *event.Bus
}

// newLibraryRepository builds the media repository on the open store.
func (a *App) newLibraryRepository() {
	a.lib.media = sqlstore.NewMedia(a.repos.store, textmatch.Normalize)
}

// newLibraryUseCases reads the library folders from search_dirs.json (a
// malformed file stops start-up; a folder that is missing only warns; PUT
// /api/media-admin/roots changes them later) and builds the library and
// catalogue use cases.
func (a *App) newLibraryUseCases() error {
	roots, warnings, err := localfs.OpenRoots(a.cfg.SearchDirsPath())
	if err != nil {
		return err
	}
	for _, w := range warnings {
		a.log.Warn("search_dirs.json: " + w)
	}
	a.lib.events = event.New(nil)
	a.lib.catalog = catalog.New(a.lib.media, a.lib.media, localfs.FS{}, catalog.Options{Logger: a.log,
		Roots: roots.Roots, SearchHistoryRows: a.cfg.SearchHistory.MaxRows,
		SearchHistoryAge: a.cfg.SearchHistory.MaxAge.D()})
	a.lib.library = library.New(a.lib.media, localfs.FS{}, library.Options{
		RootStore: roots, Events: a.lib.events, Lock: scanLock(a.cfg), Listener: a.lib.catalog, Logger: a.log,
	})
	for _, r := range a.lib.library.Roots() {
		if !r.Available {
			a.log.Warn("library folder is not available", "path", r.Path, "disk", r.Disk, "problem", r.Problem)
		}
	}
	return nil
}

// libraryDelivery adds the library's use cases to the HTTP dependencies.
func (a *App) libraryDelivery(d *deliveryhttp.Deps) {
	d.Catalog, d.Library, d.Events = a.lib.catalog, a.lib.library, a.lib.events
	if a.lib.classify != nil {
		d.Classify = a.lib.classify
	}
}

// closeLibrary stops a running classification and scan and writes the
// queued search history, before the database closes.
func (a *App) closeLibrary() {
	if a.lib.classify != nil {
		a.lib.classify.Close()
	}
	if a.lib.library != nil {
		a.lib.library.Close()
	}
	if a.lib.catalog != nil {
		a.lib.catalog.Close()
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
