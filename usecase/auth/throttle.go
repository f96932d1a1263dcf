package auth

import (
	"slices"
	"sync"
	"time"
)

// throttle counts login attempts per key (a client address, an e-mail) in a
// sliding window. An attempt is counted when it starts, so attempts still in
// flight count against the limit; one that succeeds (or was never judged) is
// released again, so the window holds failures and attempts in flight. It
// lives in memory: a restart forgets it, which only helps a person who
// locked themselves out.
type throttle struct {
	mu     sync.Mutex
	limit  int
	window time.Duration
	now    func() time.Time
	hits   map[string][]time.Time
}

// maxThrottleKeys is the map size above which a reservation first forgets
// every key with nothing in the window, bounding memory under a spray of
// addresses or e-mails.
const maxThrottleKeys = 10000

func newThrottle(limit int, window time.Duration, now func() time.Time) *throttle {
	return &throttle{limit: limit, window: window, now: now, hits: map[string][]time.Time{}}
}

// reserve counts one attempt against every key at once, or none when any
// key has used up the window (ok false).
func (t *throttle) reserve(keys ...string) (stamp time.Time, ok bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.hits) > maxThrottleKeys {
		t.sweep()
	}
	for _, k := range keys {
		if len(t.recent(k)) >= t.limit {
			return time.Time{}, false
		}
	}
	stamp = t.now()
	for _, k := range keys {
		t.hits[k] = append(t.hits[k], stamp)
	}
	return stamp, true
}

// release forgets the attempt reserve counted at stamp.
func (t *throttle) release(stamp time.Time, keys ...string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, k := range keys {
		list := t.hits[k]
		if i := slices.IndexFunc(list, stamp.Equal); i >= 0 {
			t.hits[k] = slices.Delete(list, i, i+1)
		}
		if len(t.hits[k]) == 0 {
			delete(t.hits, k)
		}
	}
}

// recent drops attempts older than the window; call with mu held.
func (t *throttle) recent(key string) []time.Time {
	cut := t.now().Add(-t.window)
	list := t.hits[key]
	i := 0
	for i < len(list) && !list[i].After(cut) {
		i++
	}
	if i == len(list) {
		delete(t.hits, key)
		return nil
	}
	t.hits[key] = list[i:]
	return list[i:]
}

// sweep forgets every key with nothing in the window; call with mu held.
func (t *throttle) sweep() {
	for k := range t.hits {
		t.recent(k)
	}
}
