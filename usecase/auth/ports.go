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

// ManagedUsers is what user administration needs from the users
// repository: pages of accounts, and changes whose rules about the other
// administrators are judged inside the same write transaction as the
// change, so two administrators demoting each other at once cannot leave
// the server without one.
type ManagedUsers interface {
	ByID(ctx context.Context, id int64) (domain.User, error)
	List(ctx context.Context, limit, offset int) ([]domain.User, error)
	Count(ctx context.Context) (int64, error)
	// Change loads account id and counts the administrators other than
	// it, then stores what fn returns, all in one write transaction; an
	// error of fn is returned and nothing is written. Unknown id: NotFound.
	Change(ctx context.Context, id int64, fn func(u domain.User, otherAdmins int64) (domain.User, error)) (domain.User, error)
	// Remove deletes account id if check, called in the same write
	// transaction with the account and the count of the other
	// administrators, agrees. Unknown id: NotFound.
	Remove(ctx context.Context, id int64, check func(u domain.User, otherAdmins int64) error) error
}

// LinkCoder issues the codes a person sends to the bot as /link <code>
// (Telegram.NewLinkCode: the one place codes are made).
type LinkCoder interface {
	NewLinkCode(ctx context.Context, u domain.User) (LinkCode, error)
}
