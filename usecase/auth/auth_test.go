package auth

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPasswordHashRoundTrip(t *testing.T) {
	h, err := hashPassword("пароль-с-кириллицей")
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(h, "$argon2id$v=19$m=19456,t=2,p=1$"), h)
	assert.True(t, checkPassword(h, "пароль-с-кириллицей"))
	assert.False(t, checkPassword(h, "пароль-с-кириллицеи"))
	assert.False(t, checkPassword(h, ""))
	h2, _ := hashPassword("пароль-с-кириллицей")
	assert.NotEqual(t, h, h2, "every hash has its own salt")

	for _, bad := range []string{"", "plain", "$2a$10$abcdefghijklmnopqrstuu", strings.Replace(h, "m=19456", "m=99999999", 1),
		strings.Replace(h, "argon2id", "argon2i", 1), h[:len(h)-3] + "!!!"} {
		assert.False(t, checkPassword(bad, "пароль-с-кириллицей"), bad)
	}
}

func TestThrottleCountsAtStartAndReleasesSuccesses(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	th := newThrottle(3, time.Minute, func() time.Time { return now })
	var stamps []time.Time
	for range 3 { // three attempts in flight, none finished yet
		st, ok := th.reserve("addr:1.2.3.4", "email:a@b.c")
		require.True(t, ok)
		stamps = append(stamps, st)
		now = now.Add(10 * time.Second)
	}
	_, ok := th.reserve("addr:1.2.3.4", "email:other@b.c")
	assert.False(t, ok, "attempts in flight count against the address")
	_, ok = th.reserve("addr:5.6.7.8", "email:a@b.c")
	assert.False(t, ok, "and against the e-mail")
	_, ok = th.reserve("addr:5.6.7.8", "email:other@b.c")
	assert.True(t, ok, "other addresses and e-mails are not affected")

	th.release(stamps[1], "addr:1.2.3.4", "email:a@b.c") // that one succeeded
	assert.False(t, blocked(th, "addr:1.2.3.4"))
	_, ok = th.reserve("addr:1.2.3.4", "email:a@b.c")
	assert.True(t, ok)
	assert.True(t, blocked(th, "email:a@b.c"))

	now = now.Add(time.Minute) // every attempt is now over a minute old
	assert.False(t, blocked(th, "email:a@b.c"))
	now = now.Add(time.Hour)
	th.sweep()
	assert.Empty(t, th.hits, "old entries are forgotten")
}

// blocked reports whether key has used up th's window, without counting
// an attempt.
func blocked(th *throttle, key string) bool {
	th.mu.Lock()
	defer th.mu.Unlock()
	return len(th.recent(key)) >= th.limit
}
