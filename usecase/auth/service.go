// Package auth signs people in: accounts and passwords, tokens, login
// throttling, the first administrator, and Google sign-in. Every token that
// reaches the server, whatever its transport, is checked by
// Service.VerifyToken: there is one verifier.
package auth

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"mediateka/domain"
)

// Options tune the service; zero values get safe defaults.
type Options struct {
	Secret             []byte        // HS256 signing key
	TokenTTL           time.Duration // default 24h
	MaxFailedPerMinute int           // default 10
	// MaxConcurrentChecks bounds the password checks running at once (each
	// argon2 check holds ~19 MiB); attempts beyond it get 429 at once.
	// Default 4.
	MaxConcurrentChecks int
	Now                 func() time.Time
	Logger              *slog.Logger
	Hasher              Hasher // default &Argon2{}
}

// Service is the authentication use case: Accounts plus sign-in and tokens.
type Service struct {
	*Accounts
	activity ActivityLog
	opt      Options
	throttle *throttle
	// checks is a semaphore of password checks in flight.
	checks chan struct{}
	// dummyHash is compared against when the e-mail is unknown, so a wrong
	// e-mail costs as much time as a wrong password (no user enumeration).
	// It is made on first need, not at start.
	dummyOnce sync.Once
	dummyHash string
}

// Login is a successful sign-in: the token and the user it belongs to.
type Login struct {
	Token     string
	ExpiresIn time.Duration
	User      domain.User
}

// errBusy answers a login that found every password-check slot taken: it is
// refused at once rather than queued, so a flood cannot pile up work.
var errBusy = domain.NewError(domain.KindTooMany, "too_many_attempts", "too many sign-ins at once, try again in a moment")

// New builds the service.
func New(users UserStore, activity ActivityLog, opt Options) (*Service, error) {
	if len(opt.Secret) < 16 {
		return nil, errors.New("auth: the token secret must be at least 16 bytes")
	}
	if opt.TokenTTL <= 0 {
		opt.TokenTTL = 24 * time.Hour
	}
	if opt.MaxFailedPerMinute <= 0 {
		opt.MaxFailedPerMinute = 10
	}
	if opt.MaxConcurrentChecks <= 0 {
		opt.MaxConcurrentChecks = 4
	}
	accounts := NewAccounts(users, AccountOptions{Now: opt.Now, Logger: opt.Logger, Hasher: opt.Hasher})
	opt.Now, opt.Logger = accounts.now, accounts.log
	return &Service{Accounts: accounts, activity: activity, opt: opt,
		throttle: newThrottle(opt.MaxFailedPerMinute, time.Minute, opt.Now),
		checks:   make(chan struct{}, opt.MaxConcurrentChecks)}, nil
}

// Login checks an e-mail and password. Unknown e-mail and wrong password give
// the same error. The attempt counts against the client address and the
// e-mail from the moment it starts, so attempts in flight count: with
// MaxFailedPerMinute used up by either, ErrTooManyAttempts until the minute
// has passed. A successful attempt is not counted.
func (s *Service) Login(ctx context.Context, email, password, remote string) (Login, error) {
	fields := map[string]string{}
	if strings.TrimSpace(email) == "" {
		fields["email"] = "must not be empty"
	}
	if password == "" {
		fields["password"] = "must not be empty"
	}
	if len(fields) > 0 {
		return Login{}, domain.ErrInvalid("e-mail and password are required", fields)
	}
	email = domain.NormalizeEmail(email)
	keys := []string{"addr:" + remote, "email:" + email}
	stamp, ok := s.throttle.reserve(keys...)
	if !ok {
		return Login{}, domain.ErrTooManyAttempts
	}
	u, err := s.checkCredentials(ctx, email, password)
	if err != nil {
		if errors.Is(err, domain.ErrInvalidCredentials) {
			s.opt.Logger.InfoContext(ctx, "login failed", "remote", remote)
		} else {
			s.throttle.release(stamp, keys...) // no password was judged
		}
		return Login{}, err
	}
	s.throttle.release(stamp, keys...)
	return s.signIn(ctx, u, "password", remote)
}

// checkCredentials runs one password check inside the semaphore. An unknown
// e-mail is checked against a dummy hash: the same cost as a wrong password.
func (s *Service) checkCredentials(ctx context.Context, email, password string) (domain.User, error) {
	release, ok := s.acquireCheck()
	if !ok {
		return domain.User{}, errBusy
	}
	defer release()
	u, err := s.users.ByEmail(ctx, email)
	if err != nil && !domain.IsKind(err, domain.KindNotFound) {
		return domain.User{}, fmt.Errorf("login: %w", err)
	}
	hash := u.PasswordHash
	if err != nil || hash == "" {
		hash = s.dummy()
	}
	if !s.hasher.Check(hash, password) || err != nil || u.PasswordHash == "" {
		return domain.User{}, domain.ErrInvalidCredentials
	}
	return u, nil
}

// acquireCheck takes a password-check slot without waiting.
func (s *Service) acquireCheck() (release func(), ok bool) {
	select {
	case s.checks <- struct{}{}:
		return func() { <-s.checks }, true
	default:
		return nil, false
	}
}

// dummy returns a hash of a random password, made once.
func (s *Service) dummy() string {
	s.dummyOnce.Do(func() {
		s.dummyHash, _ = s.hasher.Hash(rand.Text())
	})
	return s.dummyHash
}

// signIn issues a token for u and records the login in the activity log.
func (s *Service) signIn(ctx context.Context, u domain.User, method, remote string) (Login, error) {
	tok, err := s.IssueToken(u)
	if err != nil {
		return Login{}, err
	}
	details := "method=" + method
	if remote != "" {
		details += " remote=" + remote
	}
	if err := s.activity.Add(ctx, domain.Activity{UserID: u.ID, Action: "login", Details: details, Timestamp: s.opt.Now().UTC()}); err != nil {
		s.opt.Logger.WarnContext(ctx, "could not record login", "user_id", u.ID, "err", err)
	}
	s.opt.Logger.InfoContext(ctx, "login", "user_id", u.ID, "method", method)
	return Login{Token: tok, ExpiresIn: s.opt.TokenTTL, User: u}, nil
}
