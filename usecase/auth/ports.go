package auth

import (
	"context"

	"mediateka/domain"
)

// UserStore is what the auth service needs from the users repository.
type UserStore interface {
	Create(ctx context.Context, u domain.User) (domain.User, error)
	Update(ctx context.Context, u domain.User) (domain.User, error)
	ByID(ctx context.Context, id int64) (domain.User, error)
	ByEmail(ctx context.Context, email string) (domain.User, error)
	Count(ctx context.Context) (int64, error)
	// DuplicateEmails lists e-mails that several older accounts share in
	// different cases.
	DuplicateEmails(ctx context.Context) ([]string, error)
}

// ActivityLog records logins in the user's activity log.
type ActivityLog interface {
	Add(ctx context.Context, a domain.Activity) error
}
