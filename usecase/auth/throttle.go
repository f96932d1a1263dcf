package auth

import (
	"sync"
	"time"
)

// throttle counts failed logins per remote address in a sliding window. It
// lives in memory: a restart forgets it, which only helps a person who locked
// themselves out.
type throttle struct {
	mu     sync.Mutex
	limit  int
	window time.Duration
	now    func() time.Time
	fails  map[string][]time.Time
}

func newThrottle(limit int, window time.Duration, now func() time.Time) *throttle {
	return &throttle{limit: limit, window: window, now: now, fails: map[string][]time.Time{}}
}

// blocked reports whether remote has used up its failures in the window.
func (t *throttle) blocked(remote string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.recent(remote)) >= t.limit
}

// fail records one failed attempt.
func (t *throttle) fail(remote string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.fails[remote] = append(t.recent(remote), t.now())
	if len(t.fails) > 10000 {
		t.sweep()
	}
}

// recent drops attempts older than the window; call with mu held.
func (t *throttle) recent(remote string) []time.Time {
	cut := t.now().Add(-t.window)
	list := t.fails[remote]
	i := 0
	for i < len(list) && !list[i].After(cut) {
		i++
	}
	if i == len(list) {
		delete(t.fails, remote)
		return nil
	}
	t.fails[remote] = list[i:]
	return list[i:]
}

// sweep forgets every address with no recent failure, bounding memory under
// a spray of addresses; call with mu held.
func (t *throttle) sweep() {
	for remote := range t.fails {
		t.recent(remote)
	}
}
