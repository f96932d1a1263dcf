package library

import (
	"context"
	"errors"
	"io/fs"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"golang.org/x/sync/errgroup"

	"mediateka/domain"
)

// knownRec is what the scan needs of a record as the database had it when
// the scan began, kept small because a library has a hundred thousand of
// them; seen is set when the walk meets its file.
type knownRec struct {
	id      int64
	size    int64
	mtime   int64 // unix nanoseconds
	hasFile bool
	missing bool
	edited  []string
	seen    atomic.Bool
}

// sameFile reports whether the file on disk is the one recorded.
func (k *knownRec) sameFile(f fileEntry) bool {
	return k.hasFile && k.size == f.size && k.mtime == f.mtime.UnixNano()
}

func (k *knownRec) isEdited(col string) bool { return slices.Contains(k.edited, col) }

// scanRun is one scan from begin to finish.
type scanRun struct {
	s       *Service
	ctx     context.Context
	id      string
	targets []target
	p       *scanProgress
	// known holds every record under the roots of the targets, so series
	// and seasons shared with folders outside the targets are found too.
	known map[string]*knownRec

	mu   sync.Mutex
	kept []string // paths the walk could not read: their records stay as they are
}

// scan runs the phases: walk → plan → write as a pipeline, with what the
// database knows loaded while the walk starts (planning waits for it), then
// (only after a complete walk) mark vanished files missing and refresh what
// series and seasons derive from their children.
func (r *scanRun) scan() error {
	listings := make(chan listing, 1024)
	jobs := make(chan []job, 64)
	known := make(chan struct{})
	g, ctx := errgroup.WithContext(r.ctx)
	g.Go(func() error {
		if err := r.loadKnown(ctx); err != nil {
			return err
		}
		close(known)
		return nil
	})
	g.Go(func() error { newWalker(r.s.fs, r.targets, r, listings).walk(ctx, r.s.opt.Walkers); return nil })
	folders := newFolderCache()
	var planners sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		pl := newPlanner(r, folders)
		planners.Go(func() { r.planAll(ctx, known, pl, listings, jobs) })
	}
	g.Go(func() error { planners.Wait(); close(jobs); return nil })
	g.Go(func() error { return newWriter(r).consume(ctx, jobs) })
	if err := g.Wait(); err != nil {
		return err
	}
	if err := r.ctx.Err(); err != nil {
		return err
	}
	if err := r.markMissing(); err != nil {
		return err
	}
	if n, err := r.s.store.Reconcile(r.ctx); err != nil {
		return err
	} else if n > 0 {
		r.s.changed()
	}
	r.s.settle(r.ctx)
	return nil
}

func (r *scanRun) planAll(ctx context.Context, known <-chan struct{}, pl *planner, in <-chan listing, out chan<- []job) {
	select {
	case <-known:
	case <-ctx.Done():
	}
	for l := range in {
		if ctx.Err() != nil {
			continue // drain: the walker closes the channel when it stops
		}
		r.p.Update(func(c *scanCounts) { c.FilesSeen += len(l.files) })
		if js := pl.plan(l); len(js) > 0 {
			select {
			case out <- js:
			case <-ctx.Done():
			}
		}
	}
}

func (r *scanRun) loadKnown(ctx context.Context) error {
	roots := map[string]bool{}
	var prefixes []string
	for _, t := range r.targets {
		if !roots[t.root.Path] {
			roots[t.root.Path] = true
			prefixes = append(prefixes, t.root.Path)
		}
	}
	r.known = map[string]*knownRec{}
	// Records are allocated a slab at a time: a library has a hundred
	// thousand of them, and one allocation each is garbage work for every
	// scan.
	var slab []knownRec
	return r.s.store.ScanState(ctx, prefixes, func(m domain.Media) error {
		if len(slab) == 0 {
			slab = make([]knownRec, 1024)
		}
		k := &slab[0]
		slab = slab[1:]
		k.id, k.size, k.hasFile, k.missing, k.edited = m.ID, m.Size, m.HasFile(), m.Status == domain.StatusMissing, m.EditedFields
		if k.hasFile {
			k.mtime = m.ModTime.UnixNano()
		}
		r.known[m.Path] = k
		return nil
	})
}

// markMissing marks the files under the targets that the walk did not
// meet, except under folders it could not read.
func (r *scanRun) markMissing() error {
	var ids []int64
	for p, k := range r.known {
		if !k.hasFile || k.seen.Load() || k.missing || r.isKept(p) || !r.inTargets(p) {
			continue
		}
		ids = append(ids, k.id)
	}
	n, err := r.s.store.MarkMissing(r.ctx, ids)
	r.p.Update(func(c *scanCounts) { c.Missing += n })
	if n > 0 {
		r.s.changed()
	}
	return err
}

func (r *scanRun) inTargets(p string) bool {
	for _, t := range r.targets {
		if domain.PathWithin(t.path, p) {
			return true
		}
	}
	return false
}

// fail records a path the walk could not read. A path that no longer
// exists (a deleted folder, an unplugged disk) is simply gone: its files
// will be marked missing. Any other failure (permission denied, an I/O
// error) keeps the records under it as they are, since the scan cannot
// tell whether those files are still there.
func (r *scanRun) fail(path string, err error) {
	r.problem(path, describeFSError(err))
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	r.mu.Lock()
	r.kept = append(r.kept, path)
	r.mu.Unlock()
}

// problem records a folder or file the scan could not read.
func (r *scanRun) problem(path, what string) { r.p.Error(ScanError{Path: path, Error: what}) }

func (r *scanRun) reading(path string) { r.p.Update(func(c *scanCounts) { c.CurrentPath = path }) }

func (r *scanRun) isKept(p string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, k := range r.kept {
		if domain.PathWithin(k, p) {
			return true
		}
	}
	return false
}
