package auth

import (
	"sync"
	"time"
)

// expiring is a bounded map of single-use values that expire: the OAuth
// states of sign-ins in progress and the one-time codes that end them.
// Entries are kept in insertion order, so expired ones are swept from the
// front in amortised constant time and, at the cap, the oldest is dropped:
// a flood of sign-in starts costs O(1) each and can never grow memory past
// the cap (it can only push out the oldest sign-ins in progress).
type expiring[V any] struct {
	mu    sync.Mutex
	cap   int
	ttl   time.Duration
	now   func() time.Time
	items map[string]expiringItem[V]
	order []string // keys in insertion order; may name keys already taken
}

type expiringItem[V any] struct {
	value V
	exp   time.Time
}

func newExpiring[V any](capacity int, ttl time.Duration, now func() time.Time) *expiring[V] {
	return &expiring[V]{cap: capacity, ttl: ttl, now: now, items: map[string]expiringItem[V]{}}
}

// put stores value under key until the TTL ends.
func (e *expiring[V]) put(key string, value V) {
	e.mu.Lock()
	defer e.mu.Unlock()
	now := e.now()
	e.sweep(now)
	for len(e.order) >= e.cap {
		e.dropOldest()
	}
	e.items[key] = expiringItem[V]{value: value, exp: now.Add(e.ttl)}
	e.order = append(e.order, key)
}

// take returns key's value and forgets it; ok is false when the key is
// unknown, was already taken, was pushed out, or has expired.
func (e *expiring[V]) take(key string) (value V, ok bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	it, found := e.items[key]
	delete(e.items, key)
	if !found || e.now().After(it.exp) {
		return value, false
	}
	return it.value, true
}

// len is the number of entries held (taken ones excluded).
func (e *expiring[V]) len() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.items)
}

// sweep drops expired entries from the front; call with mu held.
func (e *expiring[V]) sweep(now time.Time) {
	for len(e.order) > 0 {
		it, found := e.items[e.order[0]]
		if found && !now.After(it.exp) {
			return
		}
		e.dropOldest()
	}
}

// dropOldest forgets the first key in insertion order; call with mu held.
func (e *expiring[V]) dropOldest() {
	delete(e.items, e.order[0])
	e.order[0] = ""
	e.order = e.order[1:]
}
