package watching

import (
	"sync"
	"time"
)

// throttle decides which progress reports are written. A player reports
// every second; writing each would cost a write a second per viewer and
// empty every read cache of the store as often. A report is written when
// nothing was written for its account and entry within every, when it
// newly reaches watched, or when its position jumped (a seek): moved back
// by more than slack seconds, or ahead by more than the time since the
// last write plus slack. Otherwise it is dropped: the stored position is
// then at most every behind.
type throttle struct {
	every time.Duration
	slack float64

	mu   sync.Mutex
	last map[key]written
	// sweepAt is the size of last at which outdated entries are dropped.
	sweepAt int
}

// key is one account's state of one entry.
type key struct{ user, media int64 }

// written is what was last written for a key, and when.
type written struct {
	position float64
	watched  bool
	at       time.Time
}

// minSweep is the least size of the throttle's memory that is swept.
const minSweep = 1024

func newThrottle(every time.Duration, slack float64) *throttle {
	return &throttle{every: every, slack: slack, last: map[key]written{}, sweepAt: minSweep}
}

// skip reports whether a report of position (watched: reaching the mark)
// at now may be dropped.
func (t *throttle) skip(k key, position float64, watched bool, now time.Time) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	w, ok := t.last[k]
	if !ok || now.Sub(w.at) >= t.every || watched && !w.watched {
		return false
	}
	elapsed := max(now.Sub(w.at).Seconds(), 0)
	return position >= w.position-t.slack && position <= w.position+elapsed+t.slack
}

// wrote records a written report. The memory is swept of entries older
// than every (they no longer hold anything back) whenever it has doubled,
// so it stays the size of the reports of the last few seconds.
func (t *throttle) wrote(k key, position float64, watched bool, now time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	prev := t.last[k]
	t.last[k] = written{position: position, watched: watched || prev.watched, at: now}
	if len(t.last) < t.sweepAt {
		return
	}
	for k, w := range t.last {
		if now.Sub(w.at) >= t.every {
			delete(t.last, k)
		}
	}
	t.sweepAt = max(minSweep, 2*len(t.last))
}

// forget drops what was written for k, so its next report is written: the
// watched mark was changed by other means.
func (t *throttle) forget(k key) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.last, k)
}
