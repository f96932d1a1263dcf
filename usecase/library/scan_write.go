package library

import (
	"context"
	"slices"
	"strings"
	"time"

	"mediateka/domain"
)

// scanColumns are the columns a scan owns on a file record: the fields the
// table marks as scanned, plus the file's size and mtime. A column a person
// edited is left out of every update.
func scanColumns() []string {
	return append(domain.MediaFieldNames(domain.FieldScanned), "size", "mtime")
}

// writer is the scan's single writing goroutine: it turns jobs into
// batches of inserts and updates, creating series and seasons on first
// need, and commits each batch in one transaction.
type writer struct {
	run      *scanRun
	columns  []string         // scanColumns
	inserted map[string]int64 // containers inserted by this scan
	pending  map[string]bool  // containers inserted in the open batch
	batch    []domain.MediaChange
	added    int
	updated  int
}

func newWriter(run *scanRun) *writer {
	return &writer{run: run, columns: scanColumns(), inserted: map[string]int64{}, pending: map[string]bool{}}
}

// consume writes jobs until in closes, flushing full batches and, so that
// progress shows on a slow disk, whatever is open every half second.
func (w *writer) consume(ctx context.Context, in <-chan []job) error {
	tick := time.NewTicker(500 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case jobs, ok := <-in:
			if !ok {
				return w.flush(ctx)
			}
			for _, j := range jobs {
				w.add(j)
			}
			if len(w.batch) >= w.run.s.opt.BatchSize {
				if err := w.flush(ctx); err != nil {
					return err
				}
			}
		case <-tick.C:
			if err := w.flush(ctx); err != nil {
				return err
			}
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

func (w *writer) add(j job) {
	if j.revive {
		m := domain.Media{ID: j.known.id, Status: domain.StatusOK}
		w.batch = append(w.batch, domain.MediaChange{Media: m, Columns: []string{"status"}})
		w.updated++
		return
	}
	m := j.media
	var parentPath string
	if j.parent != nil && (j.known == nil || !j.known.isEdited("parent_id")) {
		m.ParentID, parentPath = w.ensure(j.parent)
	}
	if j.known == nil {
		w.batch = append(w.batch, domain.MediaChange{Media: m, ParentPath: parentPath})
		w.added++
		return
	}
	m.ID = j.known.id
	var cols []string
	for _, c := range w.columns {
		if !j.known.isEdited(c) {
			cols = append(cols, c)
		}
	}
	w.batch = append(w.batch, domain.MediaChange{Media: m, Columns: cols, ParentPath: parentPath})
	w.updated++
}

// ensure returns the id of container c, or the path to resolve it by when
// it is inserted in the open batch (queuing the insert, and its parent's,
// on first need).
func (w *writer) ensure(c *container) (int64, string) {
	if k := w.run.known[c.path]; k != nil {
		return k.id, ""
	}
	if id, ok := w.inserted[c.path]; ok {
		return id, ""
	}
	if w.pending[c.path] {
		return 0, c.path
	}
	m := c.media
	var parentPath string
	if c.parent != nil {
		m.ParentID, parentPath = w.ensure(c.parent)
	}
	w.batch = append(w.batch, domain.MediaChange{Media: m, ParentPath: parentPath})
	w.pending[c.path] = true
	return 0, c.path
}

// sortBatch orders a batch as series, then seasons, then everything else,
// each by path. Parents then come before their children (the repository
// resolves ParentPath against rows inserted earlier in the batch), and
// rows reach the path index in order, which makes a first scan's inserts
// markedly faster than in walk order.
func sortBatch(b []domain.MediaChange) {
	rank := func(c *domain.MediaChange) int {
		switch {
		case c.Media.ID != 0 || c.Media.HasFile():
			return 2
		case c.Media.MediaType == domain.MediaSeries:
			return 0
		}
		return 1
	}
	// Sort keys, not the changes themselves (a whole record each), and
	// rank each change once rather than at every comparison.
	type key struct {
		rank int
		path string
		i    int
	}
	keys := make([]key, len(b))
	for i := range b {
		keys[i] = key{rank(&b[i]), b[i].Media.Path, i}
	}
	slices.SortFunc(keys, func(x, y key) int {
		if x.rank != y.rank {
			return x.rank - y.rank
		}
		if c := strings.Compare(x.path, y.path); c != 0 {
			return c
		}
		return x.i - y.i // stable
	})
	sorted := make([]domain.MediaChange, len(b))
	for i, k := range keys {
		sorted[i] = b[k.i]
	}
	copy(b, sorted)
}

// flush commits the open batch; the counts move to the status only once
// the batch is in the database.
func (w *writer) flush(ctx context.Context) error {
	if len(w.batch) == 0 {
		return nil
	}
	sortBatch(w.batch)
	ids, err := w.run.s.store.ApplyScan(ctx, w.batch)
	if err != nil {
		return err
	}
	for p, id := range ids {
		if w.pending[p] {
			w.inserted[p] = id
		}
	}
	clear(w.pending)
	w.batch = w.batch[:0]
	added, updated := w.added, w.updated
	w.added, w.updated = 0, 0
	w.run.p.Update(func(c *scanCounts) { c.Added += added; c.Updated += updated })
	w.run.s.changed()
	return nil
}
