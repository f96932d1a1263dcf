package telegram

import (
	"sync"
	"time"
)

// DefaultRatePerMinute is how many messages one Telegram user may send
// the bot a minute unless rate_per_minute says otherwise. With
// allowed_users empty anyone can write to the bot, and each message may
// cost the AI key or the indexers' quota.
const DefaultRatePerMinute = 20

// maxRatePerMinute bounds rate_per_minute.
const maxRatePerMinute = 600

// maxBuckets bounds the users the limiter remembers; full buckets (users
// quiet for a minute) are forgotten first, then the one unused longest.
const maxBuckets = maxChats * 10

// limiter is a token bucket per Telegram user: rate messages a minute,
// refilled continuously, up to a burst of rate.
type limiter struct {
	rate float64 // tokens a minute, also the burst
	now  func() time.Time

	mu      sync.Mutex
	buckets map[int64]*bucket
}

// bucket is one user's tokens at a moment, and whether they were told to
// slow down since they last got through.
type bucket struct {
	tokens  float64
	at      time.Time
	refused bool
}

func newLimiter(perMinute int, now func() time.Time) *limiter {
	if now == nil {
		now = time.Now
	}
	return &limiter{rate: float64(perMinute), now: now, buckets: map[int64]*bucket{}}
}

// allow takes a token for user. When none is left it reports false, and
// tell is true for the first refusal since the user last got through, so
// they hear "slow down" once a window and then nothing.
func (l *limiter) allow(user int64) (ok, tell bool) {
	if l == nil { // Setup did not run: no limit
		return true, false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	b := l.buckets[user]
	if b == nil {
		if len(l.buckets) >= maxBuckets {
			l.forget(now)
		}
		b = &bucket{tokens: l.rate, at: now}
		l.buckets[user] = b
	}
	b.tokens = l.level(b, now)
	b.at = now
	if b.tokens >= 1 {
		b.tokens--
		b.refused = false
		return true, false
	}
	tell = !b.refused
	b.refused = true
	return false, tell
}

// level is b's tokens at now.
func (l *limiter) level(b *bucket, now time.Time) float64 {
	return min(l.rate, b.tokens+now.Sub(b.at).Minutes()*l.rate)
}

// forget makes room: the full buckets go (their users are as new), else
// the one unused longest. The caller holds mu.
func (l *limiter) forget(now time.Time) {
	var oldest int64
	var at time.Time
	for id, b := range l.buckets {
		if l.level(b, now) >= l.rate {
			delete(l.buckets, id)
			continue
		}
		if at.IsZero() || b.at.Before(at) {
			oldest, at = id, b.at
		}
	}
	if len(l.buckets) >= maxBuckets {
		delete(l.buckets, oldest)
	}
}
