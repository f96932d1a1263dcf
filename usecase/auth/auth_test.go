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

func TestThrottleWindowSlides(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	th := newThrottle(3, time.Minute, func() time.Time { return now })
	for range 3 {
		assert.False(t, th.blocked("1.2.3.4"))
		th.fail("1.2.3.4")
		now = now.Add(10 * time.Second)
	}
	assert.True(t, th.blocked("1.2.3.4"))
	assert.False(t, th.blocked("5.6.7.8"), "other addresses are not affected")
	now = now.Add(31 * time.Second) // the first failure is now over a minute old
	assert.False(t, th.blocked("1.2.3.4"))
	now = now.Add(time.Hour)
	th.sweep()
	assert.Empty(t, th.fails, "old entries are forgotten")
}
