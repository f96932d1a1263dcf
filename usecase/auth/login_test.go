package auth

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/repository/sqlstore"
	"mediateka/repository/sqlstore/sqlstoretest"
)

// countingHasher is the real argon2 hasher that records how many checks run
// at once.
type countingHasher struct {
	Argon2
	inFlight, peak, checks atomic.Int32
}

func (h *countingHasher) Check(encoded, password string) bool {
	n := h.inFlight.Add(1)
	defer h.inFlight.Add(-1)
	h.checks.Add(1)
	for p := h.peak.Load(); n > p && !h.peak.CompareAndSwap(p, n); p = h.peak.Load() {
	}
	return h.Argon2.Check(encoded, password)
}

// testClock is an injected clock tests move by hand.
type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *testClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *testClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// newTestService builds the service over a real SQLite store with one user,
// anna@example.org / "anna-password".
func newTestService(t *testing.T, opt Options) (*Service, *sqlstore.Users) {
	t.Helper()
	db := sqlstoretest.New(t, nil)
	opt.Secret = []byte("a-test-secret-of-enough-length")
	s, err := New(db.Users, sqlstore.NewActivity(db.Store), opt)
	require.NoError(t, err)
	_, err = s.CreateUser(context.Background(), NewUser{Email: "Anna@Example.org", Password: "anna-password"})
	require.NoError(t, err)
	return s, db.Users
}

// flood fires n concurrent logins; remote and email give each one's
// address and e-mail. It returns the count of answers per outcome.
func flood(s *Service, n int, remote, email func(i int) string) map[string]int {
	var mu sync.Mutex
	out := map[string]int{}
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := s.Login(context.Background(), email(i), "wrong-password", remote(i))
			code := "ok"
			var de *domain.Error
			if errors.As(err, &de) {
				code = de.Code
			}
			mu.Lock()
			out[code]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	return out
}

func TestConcurrentBadLoginsFromOneAddressStayWithinTheLimit(t *testing.T) {
	h := &countingHasher{}
	s, _ := newTestService(t, Options{Hasher: h, MaxConcurrentChecks: 2})
	h.checks.Store(0)
	got := flood(s, 50, func(int) string { return "203.0.113.9" }, func(int) string { return "anna@example.org" })
	assert.Equal(t, 50, got["invalid_credentials"]+got["too_many_attempts"], "%v", got)
	assert.LessOrEqual(t, got["invalid_credentials"], 10, "never more than 10 failures a minute: %v", got)
	assert.LessOrEqual(t, int(h.peak.Load()), 2, "password checks in flight stay bounded")
	assert.LessOrEqual(t, int(h.checks.Load()), 10, "no hash work beyond the limit")
}

func TestConcurrentLoginsFromManyAddressesRunFewChecksAtOnce(t *testing.T) {
	h := &countingHasher{}
	s, _ := newTestService(t, Options{Hasher: h, MaxConcurrentChecks: 3})
	got := flood(s, 50, func(i int) string { return fmt.Sprintf("198.51.100.%d", i) },
		func(i int) string { return fmt.Sprintf("user%d@example.org", i) })
	assert.Equal(t, 50, got["invalid_credentials"]+got["too_many_attempts"], "%v", got)
	assert.Positive(t, got["too_many_attempts"], "the rest are refused at once, not queued: %v", got)
	assert.LessOrEqual(t, int(h.peak.Load()), 3)
	assert.Positive(t, h.peak.Load())
}

func TestUnknownEmailTakesTheSamePathAndAnyCaseSignsIn(t *testing.T) {
	h := &countingHasher{}
	s, _ := newTestService(t, Options{Hasher: h})
	h.checks.Store(0)
	_, err := s.Login(context.Background(), "ghost@example.org", "wrong-password", "1.1.1.1")
	assert.ErrorIs(t, err, domain.ErrInvalidCredentials)
	assert.EqualValues(t, 1, h.checks.Load(), "an unknown e-mail costs one password check too")
	l, err := s.Login(context.Background(), "  ANNA@example.ORG ", "anna-password", "1.1.1.1")
	require.NoError(t, err)
	assert.Equal(t, "anna@example.org", l.User.Email)
	for range 20 { // successes do not count towards the limit
		_, err = s.Login(context.Background(), "anna@example.org", "anna-password", "1.1.1.1")
		require.NoError(t, err)
	}
}

func TestVerifyTokenUsesTheInjectedClockAndTheTokenVersion(t *testing.T) {
	clock := &testClock{now: time.Date(2026, 3, 1, 8, 0, 0, 0, time.UTC)}
	s, users := newTestService(t, Options{Now: clock.Now, TokenTTL: time.Hour})
	ctx := context.Background()
	l, err := s.Login(ctx, "anna@example.org", "anna-password", "1.1.1.1")
	require.NoError(t, err)
	u, err := s.VerifyToken(ctx, l.Token)
	require.NoError(t, err)
	assert.Equal(t, l.User.ID, u.ID)

	clock.Add(time.Hour + time.Second)
	_, err = s.VerifyToken(ctx, l.Token)
	assert.ErrorIs(t, err, domain.ErrTokenExpired, "expiry follows the injected clock, not the wall clock")
	clock.Add(-time.Hour)

	_, err = s.VerifyToken(ctx, "")
	assert.ErrorIs(t, err, domain.ErrUnauthorized)
	err = s.ChangePassword(ctx, u, "not-the-password", "brand-new-password")
	assert.ErrorIs(t, err, ErrWrongPassword)
	err = s.ChangePassword(ctx, u, "anna-password", "short")
	assert.True(t, domain.IsKind(err, domain.KindInvalid), "%v", err)
	require.NoError(t, s.ChangePassword(ctx, u, "anna-password", "brand-new-password"))
	_, err = s.VerifyToken(ctx, l.Token)
	assert.ErrorIs(t, err, domain.ErrUnauthorized, "tokens issued before the change are refused at once")
	l2, err := s.Login(ctx, "anna@example.org", "brand-new-password", "1.1.1.1")
	require.NoError(t, err)
	_, err = s.VerifyToken(ctx, l2.Token)
	assert.NoError(t, err)
	stored, err := users.ByID(ctx, u.ID)
	require.NoError(t, err)
	assert.EqualValues(t, 1, stored.TokenVersion)
}

func TestAccountsNeedNoSecretAndRefuseAnEmailInAnotherCase(t *testing.T) {
	a := NewAccounts(sqlstoretest.New(t, nil).Users, AccountOptions{})
	ctx := context.Background()
	_, err := a.CreateUser(ctx, NewUser{Email: "u@x.org", Password: "first-password"})
	require.NoError(t, err)
	_, err = a.CreateUser(ctx, NewUser{Email: "U@x.org", Password: "second-password"})
	assert.True(t, domain.IsKind(err, domain.KindConflict), "%v", err)
	u, err := a.SetPassword(ctx, "U@X.ORG", "replaced-password")
	require.NoError(t, err)
	assert.EqualValues(t, 1, u.TokenVersion)
	assert.True(t, checkPassword(u.PasswordHash, "replaced-password"))
	_, err = a.SetPassword(ctx, "nobody@x.org", "replaced-password")
	assert.True(t, domain.IsKind(err, domain.KindNotFound), "%v", err)
}
