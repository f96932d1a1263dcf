package catalog

import (
	"context"
	"sync"

	"mediateka/domain"
)

// maxCachedEntries bounds an index's entry cache (a few MiB at most).
const maxCachedEntries = 512

// entryCache keeps the entries title search answered with, for as long as
// the index they were found with. People searching as they type get the
// same few entries keystroke after keystroke, and loading eleven whole
// records from SQLite was the largest cost of a by-title request. The
// cache lives and dies with its index and is emptied at every change
// reported in this process (changes by another process are seen within a
// second), so the entries found are read fresh even while a stale index
// is served during its background rebuild.
// When full it is emptied, which is cheap and keeps no bookkeeping on the
// hot path.
type entryCache struct {
	mu sync.RWMutex
	m  map[int64]domain.Media
}

// load returns the entries of ids in that order, skipping ids that no
// longer exist, reading from repo only those not cached. The entries are
// shared by every search that finds them: callers read them, never change
// their slices or maps.
func (c *entryCache) load(ctx context.Context, repo Repository, ids []int64) ([]domain.Media, error) {
	found := make([]domain.Media, len(ids))
	have := make([]bool, len(ids))
	var missing []int64
	c.mu.RLock()
	for i, id := range ids {
		if found[i], have[i] = c.m[id]; !have[i] {
			missing = append(missing, id)
		}
	}
	c.mu.RUnlock()
	if len(missing) > 0 {
		read, err := repo.ByIDs(ctx, missing)
		if err != nil {
			return nil, err
		}
		c.keep(read)
		for _, m := range read {
			for i, id := range ids {
				if id == m.ID && !have[i] {
					found[i], have[i] = m, true
				}
			}
		}
	}
	out := found[:0]
	for i, m := range found {
		if have[i] {
			out = append(out, m)
		}
	}
	return out, nil
}

// clear forgets every entry: the records changed, and a search served by
// a stale index still reads them fresh.
func (c *entryCache) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m = nil
}

// keep caches entries, emptying the cache first when they would not fit.
func (c *entryCache) keep(entries []domain.Media) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m)+len(entries) > maxCachedEntries {
		c.m = make(map[int64]domain.Media, maxCachedEntries)
	}
	for _, m := range entries {
		c.m[m.ID] = m
	}
}
