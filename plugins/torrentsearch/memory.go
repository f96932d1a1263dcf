package torrentsearch

import (
	"sync"
	"time"

	"mediateka/usecase/torrent"
)

// memory keeps each caller's last shown results: at most max callers (the
// longest unused is dropped first), each for ttl.
type memory struct {
	mu    sync.Mutex
	max   int
	ttl   time.Duration
	now   func() time.Time
	items map[int64]remembered
}

type remembered struct {
	found []torrent.Found
	at    time.Time
}

func newMemory(maxCallers int, ttl time.Duration, now func() time.Time) *memory {
	if now == nil {
		now = time.Now
	}
	return &memory{max: maxCallers, ttl: ttl, now: now, items: map[int64]remembered{}}
}

// put remembers found for the caller, dropping expired entries and, when
// full, the oldest.
func (m *memory) put(user int64, found []torrent.Found) {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	for id, r := range m.items {
		if now.Sub(r.at) > m.ttl {
			delete(m.items, id)
		}
	}
	if _, ok := m.items[user]; !ok && len(m.items) >= m.max {
		var oldest int64
		first := true
		for id, r := range m.items {
			if first || r.at.Before(m.items[oldest].at) {
				oldest, first = id, false
			}
		}
		delete(m.items, oldest)
	}
	m.items[user] = remembered{found: found, at: now}
}

// get returns the caller's results if they have not expired.
func (m *memory) get(user int64) []torrent.Found {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, ok := m.items[user]
	if !ok || m.now().Sub(r.at) > m.ttl {
		delete(m.items, user)
		return nil
	}
	return r.found
}
