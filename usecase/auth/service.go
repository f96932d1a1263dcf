// Package auth signs people in: passwords, tokens, login throttling, the first
// administrator, and Google sign-in. Delivery verifies tokens on each request
// with the same secret and asks this service for the user behind them.
package auth

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"net/mail"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/golang-jwt/jwt/v5"

	"mediateka/domain"
)

// Options tune the service; zero values get safe defaults.
type Options struct {
	Secret             []byte        // HS256 signing key
	TokenTTL           time.Duration // default 24h
	MaxFailedPerMinute int           // default 10
	Now                func() time.Time
	Logger             *slog.Logger
}

// Service is the authentication use case.
type Service struct {
	users    UserStore
	activity ActivityLog
	opt      Options
	throttle *throttle
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

// Claims are the JWT claims mediateka issues.
type Claims struct {
	Email string `json:"email"`
	Role  string `json:"role"`
	jwt.RegisteredClaims
}

// MinPasswordChars is the shortest password accepted for new accounts.
const MinPasswordChars = 8

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
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.Logger == nil {
		opt.Logger = slog.New(slog.DiscardHandler)
	}
	return &Service{users: users, activity: activity, opt: opt,
		throttle: newThrottle(opt.MaxFailedPerMinute, time.Minute, opt.Now)}, nil
}

// Login checks an e-mail and password. Unknown e-mail and wrong password give
// the same error; more than MaxFailedPerMinute failures from one address in a
// minute give ErrTooManyAttempts until the minute has passed.
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
	if s.throttle.blocked(remote) {
		return Login{}, domain.ErrTooManyAttempts
	}
	u, err := s.users.ByEmail(ctx, strings.TrimSpace(email))
	if err != nil && !domain.IsKind(err, domain.KindNotFound) {
		return Login{}, fmt.Errorf("login: %w", err)
	}
	hash := u.PasswordHash
	if err != nil || hash == "" {
		hash = s.dummy()
	}
	if !checkPassword(hash, password) || err != nil || u.PasswordHash == "" {
		s.throttle.fail(remote)
		s.opt.Logger.InfoContext(ctx, "login failed", "remote", remote)
		return Login{}, domain.ErrInvalidCredentials
	}
	return s.signIn(ctx, u, "password", remote)
}

// dummy returns a hash of a random password, made once.
func (s *Service) dummy() string {
	s.dummyOnce.Do(func() {
		s.dummyHash, _ = hashPassword(rand.Text())
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

// IssueToken signs an HS256 token for u with sub, email, role, iat and exp.
func (s *Service) IssueToken(u domain.User) (string, error) {
	now := s.opt.Now()
	claims := Claims{Email: u.Email, Role: u.EffectiveRole(), RegisteredClaims: jwt.RegisteredClaims{
		Subject:   strconv.FormatInt(u.ID, 10),
		IssuedAt:  jwt.NewNumericDate(now),
		ExpiresAt: jwt.NewNumericDate(now.Add(s.opt.TokenTTL)),
	}}
	tok, err := jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(s.opt.Secret)
	if err != nil {
		return "", fmt.Errorf("sign token: %w", err)
	}
	return tok, nil
}

// UserForSubject loads the user a verified token's sub names, so a deleted
// user loses access at once and a demoted one loses admin rights at once.
func (s *Service) UserForSubject(ctx context.Context, sub string) (domain.User, error) {
	id, err := strconv.ParseInt(sub, 10, 64)
	if err != nil || id <= 0 {
		return domain.User{}, domain.ErrUnauthorized
	}
	u, err := s.users.ByID(ctx, id)
	if domain.IsKind(err, domain.KindNotFound) {
		return domain.User{}, domain.ErrUnauthorized
	}
	if err != nil {
		return domain.User{}, fmt.Errorf("load user %d: %w", id, err)
	}
	return u, nil
}

// VerifyToken checks a token string (signature, HS256 only, expiry) and
// returns its user. Delivery uses it where a token arrives outside the
// Authorization header (WebSocket, SSE, media URLs).
func (s *Service) VerifyToken(ctx context.Context, token string) (domain.User, error) {
	var claims Claims
	_, err := jwt.ParseWithClaims(token, &claims, func(*jwt.Token) (any, error) { return s.opt.Secret, nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}), jwt.WithTimeFunc(s.opt.Now), jwt.WithExpirationRequired())
	if errors.Is(err, jwt.ErrTokenExpired) {
		return domain.User{}, domain.ErrTokenExpired
	}
	if err != nil {
		return domain.User{}, domain.ErrUnauthorized
	}
	return s.UserForSubject(ctx, claims.Subject)
}

// NewUser describes an account to create.
type NewUser struct {
	Email    string
	Name     string
	Password string
	Admin    bool
}

// CreateUser validates and stores a new account with a hashed password.
func (s *Service) CreateUser(ctx context.Context, n NewUser) (domain.User, error) {
	email := strings.TrimSpace(n.Email)
	fields := map[string]string{}
	if addr, err := mail.ParseAddress(email); err != nil || addr.Address != email {
		fields["email"] = "must be an e-mail address"
	}
	if n.Password != "" && utf8.RuneCountInString(n.Password) < MinPasswordChars {
		fields["password"] = fmt.Sprintf("must be at least %d characters", MinPasswordChars)
	}
	if len(n.Password) > maxPasswordBytes {
		fields["password"] = fmt.Sprintf("must be at most %d bytes", maxPasswordBytes)
	}
	if len(fields) > 0 {
		return domain.User{}, domain.ErrInvalid("the new user is not valid", fields)
	}
	u := domain.User{Email: email, Name: strings.TrimSpace(n.Name), Role: domain.RoleUser, CreatedAt: s.opt.Now().UTC()}
	if u.Name == "" {
		u.Name = domain.DefaultName(email)
	}
	if n.Admin {
		u.Role, u.IsAdmin = domain.RoleAdmin, true
	}
	if n.Password != "" {
		hash, err := hashPassword(n.Password)
		if err != nil {
			return domain.User{}, err
		}
		u.PasswordHash = hash
	}
	return s.users.Create(ctx, u)
}
