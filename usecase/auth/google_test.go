package auth

import (
	"context"
	"crypto/sha256"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
)

func TestExpiringCapsAndSweepsWithTheInjectedClock(t *testing.T) {
	clock := &testClock{now: time.Date(2026, 3, 1, 8, 0, 0, 0, time.UTC)}
	e := newExpiring[int](100, 10*time.Minute, clock.Now)
	for i := range 1000 {
		e.put(fmt.Sprint(i), i)
	}
	assert.Equal(t, 100, e.len(), "never more than the cap")
	assert.LessOrEqual(t, len(e.order), 100)
	_, ok := e.take("0")
	assert.False(t, ok, "the oldest was pushed out")
	v, ok := e.take("999")
	assert.True(t, ok)
	assert.Equal(t, 999, v)
	_, ok = e.take("999")
	assert.False(t, ok, "single use")

	clock.Add(10*time.Minute + time.Second)
	_, ok = e.take("998")
	assert.False(t, ok, "expired")
	e.put("fresh", 1)
	assert.Equal(t, 1, e.len(), "the next put sweeps every expired entry")
	assert.Len(t, e.order, 1)
}

func TestGoogleStatesAreCappedAndExpire(t *testing.T) {
	clock := &testClock{now: time.Date(2026, 3, 1, 8, 0, 0, 0, time.UTC)}
	s, users := newTestService(t, Options{Now: clock.Now})
	g := NewGoogle(s, users, GoogleConfig{ClientID: "id", ClientSecret: "secret", AuthURL: "https://p/auth",
		TokenURL: "https://p/token", StateTTL: time.Minute, MaxPending: 50})
	_, first, err := g.Begin("192.0.2.1")
	require.NoError(t, err)
	var last string
	for i := range 5000 {
		_, last, err = g.Begin(fmt.Sprintf("10.0.%d.%d", i/200, i%200))
		require.NoError(t, err)
	}
	assert.Equal(t, 50, g.states.len())
	assert.False(t, g.takeState(first, first), "pushed out by the flood")
	assert.False(t, g.takeState(last, "another cookie"), "bound to the browser's cookie")
	_, last, _ = g.Begin("192.0.2.2")
	clock.Add(time.Minute + time.Second)
	assert.False(t, g.takeState(last, last), "expired")
	_, _, _ = g.Begin("192.0.2.3")
	assert.Equal(t, 1, g.states.len(), "expired states are swept")
}

// withCodes builds the Google flow over the test service and pends the
// one-time codes of bindings (code → binding) for Anna, the way Complete
// does.
func withCodes(t *testing.T, opt Options, bindings map[string]string) (*Service, *Google, int64) {
	s, users := newTestService(t, opt)
	g := NewGoogle(s, users, GoogleConfig{ClientID: "id", ClientSecret: "secret"})
	anna, err := users.ByEmail(context.Background(), "anna@example.org")
	require.NoError(t, err)
	for code, binding := range bindings {
		g.codes.put(code, pendingCode{userID: anna.ID, binding: sha256.Sum256([]byte(binding))})
	}
	return s, g, anna.ID
}

func TestOneTimeCodeIsSingleUseAndExpires(t *testing.T) {
	clock := &testClock{now: time.Date(2026, 3, 1, 8, 0, 0, 0, time.UTC)}
	s, g, anna := withCodes(t, Options{Now: clock.Now}, map[string]string{"code-1": "b1", "code-2": "b2"})
	ctx := context.Background()
	l, err := g.Exchange(ctx, "code-1", "b1", "1.1.1.1")
	require.NoError(t, err)
	assert.Equal(t, anna, l.User.ID)
	_, err = s.VerifyToken(ctx, l.Token)
	assert.NoError(t, err)
	_, err = g.Exchange(ctx, "code-1", "b1", "1.1.1.1")
	assert.ErrorIs(t, err, ErrBadCode, "reused")
	clock.Add(CodeTTL + time.Second)
	_, err = g.Exchange(ctx, "code-2", "b2", "1.1.1.1")
	assert.ErrorIs(t, err, ErrBadCode, "expired")
	_, err = g.Exchange(ctx, "", "", "1.1.1.1")
	assert.ErrorIs(t, err, ErrBadCode)
}

func TestOneTimeCodeNeedsItsBindingAndAWrongOneBurnsIt(t *testing.T) {
	_, g, anna := withCodes(t, Options{}, map[string]string{"code-1": "binding-1", "code-2": "binding-2",
		"code-3": "binding-3", "code-4": "binding-4"})
	ctx := context.Background()
	for code, wrong := range map[string]string{"code-1": "", "code-2": "binding-1", "code-3": "binding-3x"} {
		_, err := g.Exchange(ctx, code, wrong, "1.1.1.1")
		assert.ErrorIs(t, err, ErrBadCode, "%s with %q", code, wrong)
		_, err = g.Exchange(ctx, code, strings.Replace(code, "code", "binding", 1), "1.1.1.1")
		assert.ErrorIs(t, err, ErrBadCode, "%s was burnt by the wrong binding", code)
	}
	l, err := g.Exchange(ctx, "code-4", "binding-4", "1.1.1.1")
	require.NoError(t, err, "the right binding signs in")
	assert.Equal(t, anna, l.User.ID)
}

func TestOnlyHTTPSPicturesAreKept(t *testing.T) {
	for pic, want := range map[string]bool{"https://lh3.googleusercontent.com/a/x": true, "http://pics/a.png": false,
		"javascript:alert(1)": false, "data:image/png;base64,AAAA": false, "//evil/x.png": false, "": false, "https:///x": false} {
		assert.Equal(t, want, isHTTPS(pic), pic)
	}
}

// TestOneAddressCannotFloodOutOtherSignIns: the starts of one address are
// bounded, so its flood cannot push someone else's sign-in in progress out
// of the capped state map; after a state's lifetime it may start again.
func TestOneAddressCannotFloodOutOtherSignIns(t *testing.T) {
	clock := &testClock{now: time.Date(2026, 3, 1, 8, 0, 0, 0, time.UTC)}
	s, users := newTestService(t, Options{Now: clock.Now})
	g := NewGoogle(s, users, GoogleConfig{ClientID: "id", ClientSecret: "secret", AuthURL: "https://p/auth",
		TokenURL: "https://p/token", StateTTL: time.Minute, MaxPending: 50})
	_, victim, err := g.Begin("198.51.100.7")
	require.NoError(t, err)
	refused := 0
	for range 5000 {
		if _, _, err := g.Begin("203.0.113.9"); err != nil {
			require.ErrorIs(t, err, domain.ErrTooManyAttempts)
			refused++
		}
	}
	assert.Equal(t, 5000-maxStartsPerAddress, refused)
	assert.True(t, g.takeState(victim, victim), "the other person's sign-in survived the flood")
	clock.Add(time.Minute + time.Second)
	_, _, err = g.Begin("203.0.113.9")
	assert.NoError(t, err, "the window has passed")
}
