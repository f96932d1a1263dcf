package watching

import (
	"sync"
	"time"
)

// throttle decides which progress reports of a playing player are
// written. A player reports every second; writing each would cost a write
// a second per viewer and empty every read cache of the store as often. A
// report is written when nothing was written for its account and entry
// within every, when it newly reaches watched, or when its position jumped
// (a seek): moved back by more than slack seconds, or ahead by more than
// the time since the last write plus slack. Otherwise it is dropped, and
// held: the last dropped report of each account and entry is kept until a
// later write replaces it or Flush writes it (the player paused, stopped,
// moved on or left), so the stored position is at most every behind while
// playing and exact once playback ends.
type throttle struct {
	every time.Duration
	slack float64

	mu   sync.Mutex
	last map[key]entry
	// sweepAt is the size of last at which outdated entries are dropped.
	sweepAt int
}

// key is one account's state of one entry.
type key struct{ user, media int64 }

// entry is what the throttle knows of a key: the last write, and the last
// report dropped since, if any.
type entry struct {
	written
	held *report
}

// written is what was last written for a key, and when.
type written struct {
	position float64
	watched  bool
	at       time.Time
}

// report is a dropped report, as it would have been written.
type report struct {
	position, duration float64
	at                 time.Time
}

// minSweep is the least size of the throttle's memory that is swept.
const minSweep = 1024

func newThrottle(every time.Duration, slack float64) *throttle {
	return &throttle{every: every, slack: slack, last: map[key]entry{}, sweepAt: minSweep}
}

// skip reports whether r (watched: reaching the mark) may be dropped; a
// dropped report is held in place of the one held before.
func (t *throttle) skip(k key, r report, watched bool) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	e, ok := t.last[k]
	if !ok || r.at.Sub(e.at) >= t.every || watched && !e.watched {
		return false
	}
	elapsed := max(r.at.Sub(e.at).Seconds(), 0)
	if r.position < e.position-t.slack || r.position > e.position+elapsed+t.slack {
		return false
	}
	e.held = &r
	t.last[k] = e
	return true
}

// wrote records a written report, which replaces any held one. The memory
// is swept of entries older than every that hold nothing (they no longer
// hold anything back) whenever it has doubled, so it stays the size of
// the reports of the last few seconds and of the players still playing.
func (t *throttle) wrote(k key, position float64, watched bool, now time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	prev := t.last[k]
	t.last[k] = entry{written: written{position: position, watched: watched || prev.watched, at: now}}
	if len(t.last) < t.sweepAt {
		return
	}
	for k, e := range t.last {
		if e.held == nil && now.Sub(e.at) >= t.every {
			delete(t.last, k)
		}
	}
	t.sweepAt = max(minSweep, 2*len(t.last))
}

// take removes and returns the report held for k, if any.
func (t *throttle) take(k key) (report, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	e, ok := t.last[k]
	if !ok || e.held == nil {
		return report{}, false
	}
	r := *e.held
	e.held = nil
	t.last[k] = e
	return r, true
}

// restore holds r for k again after its write failed, unless a newer
// report came meanwhile.
func (t *throttle) restore(k key, r report) {
	t.mu.Lock()
	defer t.mu.Unlock()
	e := t.last[k]
	if e.held == nil {
		e.held = &r
		t.last[k] = e
	}
}

// forget drops what was written and held for k, so its next report is
// written: the watched mark was changed by other means.
func (t *throttle) forget(k key) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.last, k)
}
