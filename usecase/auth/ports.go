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

// TelegramUsers is what Telegram sign-in needs from the users repository.
type TelegramUsers interface {
	// ByTelegramID loads the account linked to a Telegram user (NotFound
	// when none is).
	ByTelegramID(ctx context.Context, tgID int64) (domain.User, error)
	// LinkTelegram sets userID's telegram_id to tgID in one step, taking
	// it from the account that had it, and returns the updated account.
	LinkTelegram(ctx context.Context, userID, tgID int64) (domain.User, error)
	// TelegramLinked lists every account linked to a Telegram user.
	TelegramLinked(ctx context.Context) ([]domain.User, error)
}
