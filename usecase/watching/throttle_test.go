package watching

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
	assert.False(t, th.skip(key{1, 1}, report{position: 1, at: now}, false), "an old write holds nothing back")
	assert.True(t, th.skip(key{49, 99_999}, report{position: 1, at: now}, false), "a recent one does")
}

// TestThrottleDecisions: within the interval a report is dropped unless
// it reaches watched or jumps.
func TestThrottleDecisions(t *testing.T) {
	th := newThrottle(5*time.Second, 10)
	t0 := time.Date(2026, 3, 1, 20, 0, 0, 0, time.UTC)
	k := key{1, 2}
	assert.False(t, th.skip(k, report{position: 100, at: t0}, false), "nothing written yet")
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
		assert.Equal(t, c.skip, th.skip(k, report{position: c.position, at: t0.Add(c.after)}, c.watched), "%+v", c)
	}
	th.wrote(k, 101, true, t0)
	th.wrote(k, 102, false, t0)
	assert.True(t, th.skip(k, report{position: 102, at: t0.Add(time.Second)}, true), "the mark was written; it stays")
	th.forget(k)
	assert.False(t, th.skip(k, report{position: 102, at: t0.Add(time.Second)}, false))
}

// TestThrottleHoldsTheLastDroppedReport: a dropped report is held until a
// write replaces it or it is taken, and a sweep does not lose it.
func TestThrottleHoldsTheLastDroppedReport(t *testing.T) {
	th := newThrottle(5*time.Second, 10)
	t0 := time.Date(2026, 3, 1, 20, 0, 0, 0, time.UTC)
	k := key{1, 2}
	_, ok := th.take(k)
	assert.False(t, ok, "nothing known")
	th.wrote(k, 100, false, t0)
	_, ok = th.take(k)
	assert.False(t, ok, "nothing dropped")
	for sec := 1; sec <= 3; sec++ {
		require.True(t, th.skip(k, report{position: float64(100 + sec), duration: 6000, at: t0.Add(time.Duration(sec) * time.Second)}, false))
	}
	r, ok := th.take(k)
	require.True(t, ok)
	assert.Equal(t, report{position: 103, duration: 6000, at: t0.Add(3 * time.Second)}, r, "the last one dropped")
	_, ok = th.take(k)
	assert.False(t, ok, "taken once")

	require.True(t, th.skip(k, report{position: 104, at: t0.Add(4 * time.Second)}, false))
	th.wrote(k, 105, false, t0.Add(5*time.Second))
	_, ok = th.take(k)
	assert.False(t, ok, "a later write replaces what was held")

	require.True(t, th.skip(k, report{position: 106, at: t0.Add(6 * time.Second)}, false))
	now := t0.Add(time.Hour)
	for i := range 2 * minSweep {
		th.wrote(key{3, int64(i)}, 1, false, now)
	}
	r, ok = th.take(k)
	require.True(t, ok, "a sweep keeps what is held")
	assert.InDelta(t, 106, r.position, 0)
	th.skip(k, report{position: 107, at: t0.Add(7 * time.Second)}, false)
	th.forget(k)
	_, ok = th.take(k)
	assert.False(t, ok, "forget drops what is held")
}
