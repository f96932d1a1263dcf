package playback

import (
	"sync"
	"time"

	"mediateka/domain"
	"mediateka/usecase/catalog"
)

// probeCacheSize is how many files' tracks are kept in memory: a play, the
// player's remux request and each seek ask about the same file within
// seconds, and a probe costs a process.
const probeCacheSize = 256

// fileKey names one version of a file: a file replaced on disk (another
// size or time) is probed and pictured again.
type fileKey struct {
	path string
	size int64
	mod  time.Time
}

func keyOf(f catalog.StreamFile) fileKey { return fileKey{path: f.Path, size: f.Size, mod: f.ModTime} }

// probeCache keeps the last probeCacheSize answers, the oldest dropped
// first.
type probeCache struct {
	mu    sync.Mutex
	max   int
	items map[fileKey]domain.MediaInfo
	order []fileKey
}

func newProbeCache(size int) *probeCache {
	return &probeCache{max: size, items: make(map[fileKey]domain.MediaInfo, size)}
}

func (c *probeCache) get(k fileKey) (domain.MediaInfo, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	info, ok := c.items[k]
	return info, ok
}

func (c *probeCache) put(k fileKey, info domain.MediaInfo) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.items[k]; ok {
		return
	}
	if len(c.order) >= c.max {
		delete(c.items, c.order[0])
		c.order = c.order[1:]
	}
	c.items[k] = info
	c.order = append(c.order, k)
}

// failedThumbs remembers the files no thumbnail could be made of, so a
// page that asks again does not run ffmpeg again; a replaced file (a new
// key) is tried afresh. It forgets everything when full.
type failedThumbs struct {
	mu   sync.Mutex
	keys map[fileKey]struct{}
}

const maxFailedThumbs = 4096

func newFailedThumbs() *failedThumbs { return &failedThumbs{keys: map[fileKey]struct{}{}} }

func (f *failedThumbs) has(k fileKey) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	_, ok := f.keys[k]
	return ok
}

func (f *failedThumbs) add(k fileKey) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.keys) >= maxFailedThumbs {
		clear(f.keys)
	}
	f.keys[k] = struct{}{}
}
