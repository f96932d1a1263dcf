package library_test

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/repository/localfs"
	"mediateka/repository/sqlstore"
	"mediateka/repository/sqlstore/sqlstoretest"
	"mediateka/usecase/library"
	"mediateka/usecase/textmatch"
)

// fixedNow keeps parsed years stable whatever the test machine's clock.
func fixedNow() time.Time { return time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC) }

// env is a library on a temporary folder tree with a real SQLite file.
type env struct {
	t      *testing.T
	root   string
	db     *sqlstoretest.DB
	media  *sqlstore.Media
	svc    *library.Service
	events *recorder
	lock   string
}

// recorder is a Publisher that keeps what it is told.
type recorder struct {
	mu     sync.Mutex
	events []domain.Event
}

func (r *recorder) Publish(e domain.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, e)
}

// names lists the wire names of the events but scan_progress, whose
// number depends on timing.
func (r *recorder) names() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, e := range r.events {
		if _, progress := e.(domain.ScanProgress); !progress {
			out = append(out, e.EventName())
		}
	}
	return out
}

// last returns the latest event.
func (r *recorder) last() domain.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.events) == 0 {
		return nil
	}
	return r.events[len(r.events)-1]
}

type envOption func(*library.Options, *envDeps)

type envDeps struct {
	fs    library.FileSystem
	store func(library.Store) library.Store
}

func withFS(fs library.FileSystem) envOption {
	return func(_ *library.Options, d *envDeps) { d.fs = fs }
}

func withStore(wrap func(library.Store) library.Store) envOption {
	return func(_ *library.Options, d *envDeps) { d.store = wrap }
}

func withOptions(fn func(*library.Options)) envOption {
	return func(o *library.Options, _ *envDeps) { fn(o) }
}

func newEnv(t *testing.T, opts ...envOption) *env {
	t.Helper()
	dir := t.TempDir()
	root := filepath.Join(dir, "lib")
	require.NoError(t, os.MkdirAll(root, 0o755))
	db := sqlstoretest.New(t, textmatch.Normalize)
	media := db.Media
	e := &env{t: t, root: root, db: db, media: media, events: &recorder{}, lock: filepath.Join(dir, "scan.lock")}
	o := library.Options{Roots: []domain.Root{{Path: root, Disk: "Disk 1"}}, NewParser: library.ReleaseParsers(fixedNow),
		Events: e.events, Lock: localfs.NewLock(e.lock), BatchSize: 50}
	d := envDeps{fs: localfs.FS{}, store: func(s library.Store) library.Store { return s }}
	for _, opt := range opts {
		opt(&o, &d)
	}
	e.svc = library.New(d.store(media), d.fs, o)
	t.Cleanup(e.svc.Close)
	return e
}

// touch creates files (with distinct contents) under the root.
func (e *env) touch(rel ...string) {
	e.t.Helper()
	for _, r := range rel {
		p := filepath.Join(e.root, r)
		require.NoError(e.t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(e.t, os.WriteFile(p, []byte("video:"+r), 0o644))
	}
}

// scan runs a full scan and requires it to complete.
func (e *env) scan(req library.ScanRequest) library.Status {
	e.t.Helper()
	st, err := e.svc.Scan(context.Background(), req, nil)
	require.NoError(e.t, err)
	require.Equal(e.t, library.StateCompleted, st.State, "%+v", st)
	return st
}

// all returns every record by path.
func (e *env) all() map[string]domain.Media {
	e.t.Helper()
	out := map[string]domain.Media{}
	require.NoError(e.t, e.media.Each(context.Background(), domain.MediaFilter{}, func(m domain.Media) error {
		out[m.Path] = m
		return nil
	}))
	return out
}

// at returns the record of a path relative to the root ("#…" suffixes
// allowed), failing when absent.
func (e *env) at(rel string) domain.Media {
	e.t.Helper()
	p := e.root
	if rel != "" && rel[0] != '#' {
		p = filepath.Join(e.root, rel)
	} else {
		p += rel
	}
	m, ok := e.all()[p]
	require.True(e.t, ok, "no record at %s", p)
	return m
}

// writes changes whenever the store commits a write.
func (e *env) writes() int64 { return e.db.DataVersion() }

// consistent checks the tree invariants a crash or cancel must not break:
// every parent exists, episodes hang under seasons and seasons under series.
func (e *env) consistent() {
	e.t.Helper()
	all := e.all()
	byID := map[int64]domain.Media{}
	for _, m := range all {
		byID[m.ID] = m
	}
	for _, m := range all {
		if m.ParentID == 0 {
			require.Contains(e.t, []string{domain.MediaMovie, domain.MediaSeries}, m.MediaType, m.Path)
			continue
		}
		p, ok := byID[m.ParentID]
		require.True(e.t, ok, "orphan %s", m.Path)
		want := map[string]string{domain.MediaEpisode: domain.MediaSeason, domain.MediaSeason: domain.MediaSeries}[m.MediaType]
		require.Equal(e.t, want, p.MediaType, "parent of %s", m.Path)
	}
}

func ptr(n int) *int { return &n }

// lockOf is the scan lock as another process would take it.
func lockOf(e *env) *localfs.Lock { return localfs.NewLock(e.lock) }

// gatedFS holds every folder read until gate closes.
type gatedFS struct {
	localfs.FS
	gate chan struct{}
}

func (g *gatedFS) ReadDirStat(path string, stat func(string) bool) ([]fs.DirEntry, error) {
	<-g.gate
	return g.FS.ReadDirStat(path, stat)
}

func stringsReader(s string) *strings.Reader { return strings.NewReader(s) }
