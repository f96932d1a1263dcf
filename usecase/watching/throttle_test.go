package watching

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestThrottleMemoryStaysSmall: the throttle remembers the writes of the
// last few seconds only, however many accounts and entries report over
// time.
func TestThrottleMemoryStaysSmall(t *testing.T) {
	th := newThrottle(5*time.Second, 10)
	now := time.Date(2026, 3, 1, 20, 0, 0, 0, time.UTC)
	for i := range 100_000 {
		th.wrote(key{int64(i % 50), int64(i)}, 1, false, now)
		now = now.Add(time.Millisecond) // 1 000 writes a second
	}
	assert.LessOrEqual(t, len(th.last), 2*(minSweep+5_000), "at most twice the last five seconds' writes")
	assert.False(t, th.skip(key{1, 1}, 1, false, now), "an old write holds nothing back")
	assert.True(t, th.skip(key{49, 99_999}, 1, false, now), "a recent one does")
}

// TestThrottleDecisions: within the interval a report is dropped unless
// it reaches watched or jumps.
func TestThrottleDecisions(t *testing.T) {
	th := newThrottle(5*time.Second, 10)
	t0 := time.Date(2026, 3, 1, 20, 0, 0, 0, time.UTC)
	k := key{1, 2}
	assert.False(t, th.skip(k, 100, false, t0), "nothing written yet")
	th.wrote(k, 100, false, t0)
	for _, c := range []struct {
		after    time.Duration
		position float64
		watched  bool
		skip     bool
	}{
		{time.Second, 101, false, true},
		{4 * time.Second, 100, false, true},          // paused
		{4 * time.Second, 113.9, false, true},        // 4 s played, under the slack
		{4 * time.Second, 114.5, false, false},       // jumped ahead
		{time.Second, 89, false, false},              // jumped back
		{time.Second, 101, true, false},              // reaches watched
		{5 * time.Second, 105, false, false},         // the interval passed
		{-time.Hour, 100, false, true},               // a clock that went back
		{4999 * time.Millisecond, 104, false, true},  // just inside
		{5000 * time.Millisecond, 105, false, false}, // just outside
	} {
		assert.Equal(t, c.skip, th.skip(k, c.position, c.watched, t0.Add(c.after)), "%+v", c)
	}
	th.wrote(k, 101, true, t0)
	th.wrote(k, 102, false, t0)
	assert.True(t, th.skip(k, 102, true, t0.Add(time.Second)), "the mark was written; it stays")
	th.forget(k)
	assert.False(t, th.skip(k, 102, false, t0.Add(time.Second)))
}
