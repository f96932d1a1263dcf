package domain

import (
	"strings"
	"time"
)

// Role names. The stored role is a plain string so that later roles need no
// migration; admins carry both Role "admin" and IsAdmin.
const (
	RoleUser  = "user"
	RoleAdmin = "admin"
)

// User is a person who may sign in. PasswordHash is empty for accounts that
// only sign in through Google or Telegram.
type User struct {
	ID           int64
	Email        string
	Name         string
	Picture      string
	Role         string
	IsAdmin      bool
	PasswordHash string
	TelegramID   *int64
	CreatedAt    time.Time
	// TokenVersion is carried in every token issued for the user; raising it
	// (a password change) makes every older token invalid at once.
	TokenVersion int64
}

// Admin reports whether the user has administrator rights: either flag counts,
// because older records may carry only one of them.
func (u User) Admin() bool { return u.Role == RoleAdmin || u.IsAdmin }

// EffectiveRole is the role put into tokens and shown to clients.
func (u User) EffectiveRole() string {
	if u.Admin() {
		return RoleAdmin
	}
	if u.Role == "" {
		return RoleUser
	}
	return u.Role
}

// NormalizeEmail is the stored form of an e-mail address: trimmed and in
// lower case, so that U@x.org and u@x.org are one account.
func NormalizeEmail(email string) string { return strings.ToLower(strings.TrimSpace(email)) }

// DefaultName is the name given to a user created without one: the local part
// of the e-mail address.
func DefaultName(email string) string {
	local, _, _ := strings.Cut(email, "@")
	return local
}

// Activity is one row of a user's activity log (logins, chat exchanges…).
// Details never carry secrets or message texts.
type Activity struct {
	ID        int64
	UserID    int64
	Action    string
	Details   string
	Timestamp time.Time
}
