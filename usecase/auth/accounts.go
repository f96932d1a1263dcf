package auth

import (
	"context"
	"fmt"
	"log/slog"
	"net/mail"
	"strings"
	"time"
	"unicode/utf8"

	"mediateka/domain"
)

// MinPasswordChars is the shortest password accepted for new accounts.
const MinPasswordChars = 8

// AccountOptions tune account management; zero values get safe defaults.
type AccountOptions struct {
	Now    func() time.Time
	Logger *slog.Logger
	Hasher Hasher // default &Argon2{}
}

// Accounts creates accounts and sets passwords. It needs no signing key, so
// the command line (`mediateka user add`, `user passwd`) can manage accounts
// without the server's token secret; Service adds sign-in and tokens on top.
type Accounts struct {
	users  UserStore
	now    func() time.Time
	log    *slog.Logger
	hasher Hasher
}

// NewAccounts builds account management over the users repository.
func NewAccounts(users UserStore, opt AccountOptions) *Accounts {
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.Logger == nil {
		opt.Logger = slog.New(slog.DiscardHandler)
	}
	if opt.Hasher == nil {
		opt.Hasher = &Argon2{}
	}
	return &Accounts{users: users, now: opt.Now, log: opt.Logger, hasher: opt.Hasher}
}

// NewUser describes an account to create.
type NewUser struct {
	Email    string
	Name     string
	Password string
	Admin    bool
}

// CreateUser validates and stores a new account with a hashed password. The
// e-mail is stored normalised (trimmed, lower case): an address that differs
// from an existing one only in case is a Conflict.
func (a *Accounts) CreateUser(ctx context.Context, n NewUser) (domain.User, error) {
	email := domain.NormalizeEmail(n.Email)
	fields := map[string]string{}
	if why := emailProblem(email); why != "" {
		fields["email"] = why
	}
	if n.Password != "" {
		if why := passwordProblem(n.Password); why != "" {
			fields["password"] = why
		}
	}
	if len(fields) > 0 {
		return domain.User{}, domain.ErrInvalid("the new user is not valid", fields)
	}
	u := domain.User{Email: email, Name: strings.TrimSpace(n.Name), Role: domain.RoleUser, CreatedAt: a.now().UTC()}
	if u.Name == "" {
		u.Name = domain.DefaultName(email)
	}
	if n.Admin {
		u.Role, u.IsAdmin = domain.RoleAdmin, true
	}
	if n.Password != "" {
		hash, err := a.hasher.Hash(n.Password)
		if err != nil {
			return domain.User{}, err
		}
		u.PasswordHash = hash
	}
	return a.users.Create(ctx, u)
}

// SetPassword replaces the password of the account with that e-mail (the
// command line's `user passwd`) and raises its token version, so every token
// issued before is refused at once.
func (a *Accounts) SetPassword(ctx context.Context, email, password string) (domain.User, error) {
	if why := passwordProblem(password); why != "" {
		return domain.User{}, domain.ErrInvalid("the new password is not valid", map[string]string{"password": why})
	}
	u, err := a.users.ByEmail(ctx, domain.NormalizeEmail(email))
	if err != nil {
		return domain.User{}, fmt.Errorf("set password of %s: %w", email, err)
	}
	return a.storePassword(ctx, u, password)
}

// storePassword hashes password into u and bumps its token version.
func (a *Accounts) storePassword(ctx context.Context, u domain.User, password string) (domain.User, error) {
	hash, err := a.hasher.Hash(password)
	if err != nil {
		return domain.User{}, err
	}
	u.PasswordHash = hash
	u.TokenVersion++
	return a.users.Update(ctx, u)
}

// emailProblem says what is wrong with a normalised e-mail address, or "".
func emailProblem(email string) string {
	if addr, err := mail.ParseAddress(email); err != nil || addr.Address != email {
		return "must be an e-mail address"
	}
	return ""
}

// passwordProblem says what is wrong with a new password, or "".
func passwordProblem(password string) string {
	switch {
	case utf8.RuneCountInString(password) < MinPasswordChars:
		return fmt.Sprintf("must be at least %d characters", MinPasswordChars)
	case len(password) > maxPasswordBytes:
		return fmt.Sprintf("must be at most %d bytes", maxPasswordBytes)
	}
	return ""
}
