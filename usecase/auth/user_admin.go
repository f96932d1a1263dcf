package auth

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"mediateka/domain"
)

// Refusals of user administration. Both are conflicts with the current
// state (409): the request is well formed, the server just must not be
// left without a way in.
var (
	ErrCannotDeleteSelf = domain.NewError(domain.KindConflict, "cannot_delete_self",
		"you cannot delete your own account; another administrator can")
	ErrLastAdmin = domain.NewError(domain.KindConflict, "last_admin",
		"this is the last administrator: make another account an administrator first")
)

// Paging of the account list (API.md §0: limit default 100, at most 1000).
const (
	DefaultUsersLimit = 100
	MaxUsersLimit     = 1000
	// maxNameChars bounds a display name: it is shown in lists and headers.
	maxNameChars = 200
)

// UserAdmin is what administrators do with accounts (API.md §7): list,
// create, change the name, role or password, delete, and Telegram link
// codes and unlinks. Its rules keep the server reachable: nobody deletes
// their own account, and the last administrator is neither deleted nor
// demoted, judged in the same transaction as the change.
type UserAdmin struct {
	accounts *Accounts
	users    ManagedUsers
	codes    LinkCoder
}

// NewUserAdmin builds user administration over account management (the
// hasher and CreateUser's rules), the users repository and the one maker
// of Telegram link codes.
func NewUserAdmin(accounts *Accounts, users ManagedUsers, codes LinkCoder) *UserAdmin {
	return &UserAdmin{accounts: accounts, users: users, codes: codes}
}

// UserPage is one page of accounts, by id, and how many there are in all.
type UserPage struct {
	Items []domain.User
	Total int64
}

// List returns a page of accounts ordered by id; limit nil means
// DefaultUsersLimit, else 0..MaxUsersLimit (0: the total alone).
func (a *UserAdmin) List(ctx context.Context, limit *int, offset int) (UserPage, error) {
	n := DefaultUsersLimit
	if limit != nil {
		n = *limit
	}
	fields := map[string]string{}
	if n < 0 || n > MaxUsersLimit {
		fields["limit"] = fmt.Sprintf("must be between 0 and %d", MaxUsersLimit)
	}
	if offset < 0 {
		fields["offset"] = "must be 0 or more"
	}
	if len(fields) > 0 {
		return UserPage{}, domain.ErrInvalid("invalid list parameters", fields)
	}
	total, err := a.users.Count(ctx)
	if err != nil {
		return UserPage{}, fmt.Errorf("count accounts: %w", err)
	}
	items := []domain.User{}
	if n > 0 {
		if items, err = a.users.List(ctx, n, offset); err != nil {
			return UserPage{}, fmt.Errorf("list accounts: %w", err)
		}
	}
	return UserPage{Items: items, Total: total}, nil
}

// AccountRequest is an account an administrator creates. Role is "user"
// (also when empty) or "admin"; the password is required.
type AccountRequest struct {
	Email    string
	Name     string
	Password string
	Role     string
}

// Create validates and stores a new account. Every invalid field is named
// at once; an e-mail already taken (in any case) is 409 already_exists.
func (a *UserAdmin) Create(ctx context.Context, actor domain.User, r AccountRequest) (domain.User, error) {
	fields := map[string]string{}
	if why := emailProblem(domain.NormalizeEmail(r.Email)); why != "" {
		fields["email"] = why
	}
	if why := passwordProblem(r.Password); why != "" {
		fields["password"] = why
	}
	if utf8.RuneCountInString(strings.TrimSpace(r.Name)) > maxNameChars {
		fields["name"] = fmt.Sprintf("must have at most %d characters", maxNameChars)
	}
	if r.Role == "" {
		r.Role = domain.RoleUser
	}
	if r.Role != domain.RoleUser && r.Role != domain.RoleAdmin {
		fields["role"] = `must be "user" or "admin"`
	}
	if len(fields) > 0 {
		return domain.User{}, domain.ErrInvalid("the new account is not valid", fields)
	}
	u, err := a.accounts.CreateUser(ctx, NewUser{Email: r.Email, Name: r.Name, Password: r.Password, Admin: r.Role == domain.RoleAdmin})
	if err != nil {
		return domain.User{}, fmt.Errorf("create account %s: %w", domain.NormalizeEmail(r.Email), err)
	}
	a.accounts.log.InfoContext(ctx, "account created by an administrator", "user_id", u.ID, "role", u.EffectiveRole(), "by", actor.ID)
	return u, nil
}

// AccountChange is what an administrator changes in an account; nil
// fields stay as they are. Role and IsAdmin say the same thing (an
// administrator or not) and must agree when both are given.
type AccountChange struct {
	Name     *string
	Role     *string
	IsAdmin  *bool
	Password *string
}

// Update applies ch to account id. A new password or a change of the
// administrator role raises the account's token version, so every token
// issued before is refused at once (the person signs in again). Demoting
// the last administrator is ErrLastAdmin and changes nothing.
func (a *UserAdmin) Update(ctx context.Context, actor domain.User, id int64, ch AccountChange) (domain.User, error) {
	name, admin, err := ch.validate()
	if err != nil {
		return domain.User{}, err
	}
	var hash string
	if ch.Password != nil {
		if hash, err = a.accounts.hasher.Hash(*ch.Password); err != nil {
			return domain.User{}, fmt.Errorf("hash the new password of account %d: %w", id, err)
		}
	}
	u, err := a.users.Change(ctx, id, func(u domain.User, otherAdmins int64) (domain.User, error) {
		bump := hash != ""
		if name != nil {
			u.Name = *name
		}
		if admin != nil && *admin != u.Admin() {
			if !*admin && otherAdmins == 0 {
				return u, ErrLastAdmin
			}
			bump = true
		}
		if admin != nil {
			u.Role, u.IsAdmin = domain.RoleUser, false
			if *admin {
				u.Role, u.IsAdmin = domain.RoleAdmin, true
			}
		}
		if hash != "" {
			u.PasswordHash = hash
		}
		if bump {
			u.TokenVersion++
		}
		return u, nil
	})
	if err != nil {
		return domain.User{}, fmt.Errorf("change account %d: %w", id, err)
	}
	a.accounts.log.InfoContext(ctx, "account changed by an administrator", "user_id", id, "by", actor.ID,
		"role", u.EffectiveRole(), "password_changed", hash != "")
	return u, nil
}

// validate checks ch and returns the trimmed name and whether the account
// is to be an administrator (nil: unchanged).
func (ch AccountChange) validate() (name *string, admin *bool, err error) {
	fields := map[string]string{}
	if ch.Name != nil {
		n := strings.TrimSpace(*ch.Name)
		switch {
		case n == "":
			fields["name"] = "must not be empty"
		case utf8.RuneCountInString(n) > maxNameChars:
			fields["name"] = fmt.Sprintf("must have at most %d characters", maxNameChars)
		}
		name = &n
	}
	if ch.Role != nil {
		r := *ch.Role
		if r != domain.RoleUser && r != domain.RoleAdmin {
			fields["role"] = `must be "user" or "admin"`
		}
		is := r == domain.RoleAdmin
		admin = &is
	}
	if ch.IsAdmin != nil {
		if admin != nil && *admin != *ch.IsAdmin {
			fields["is_admin"] = "must agree with role"
		}
		is := *ch.IsAdmin
		admin = &is
	}
	if ch.Password != nil {
		if why := passwordProblem(*ch.Password); why != "" {
			fields["password"] = why
		}
	}
	if len(fields) > 0 {
		return nil, nil, domain.ErrInvalid("the account change is not valid", fields)
	}
	return name, admin, nil
}

// Delete removes account id with its activity and watching state. Nobody
// deletes their own account (ErrCannotDeleteSelf), and the last
// administrator stays (ErrLastAdmin). The account's tokens stop at once:
// every request reloads its user.
func (a *UserAdmin) Delete(ctx context.Context, actor domain.User, id int64) error {
	if actor.ID == id {
		return ErrCannotDeleteSelf
	}
	err := a.users.Remove(ctx, id, func(u domain.User, otherAdmins int64) error {
		if u.Admin() && otherAdmins == 0 {
			return ErrLastAdmin
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("delete account %d: %w", id, err)
	}
	a.accounts.log.InfoContext(ctx, "account deleted by an administrator", "user_id", id, "by", actor.ID)
	return nil
}

// LinkCode gives account id a Telegram link code, made by the same code
// maker as the account's own request (same lifetime, same limit per
// account), for an administrator to hand over: the person sends
// /link <code> to the bot from their Telegram.
func (a *UserAdmin) LinkCode(ctx context.Context, actor domain.User, id int64) (LinkCode, error) {
	u, err := a.users.ByID(ctx, id)
	if err != nil {
		return LinkCode{}, fmt.Errorf("link code for account %d: %w", id, err)
	}
	code, err := a.codes.NewLinkCode(ctx, u)
	if err != nil {
		return LinkCode{}, err
	}
	a.accounts.log.InfoContext(ctx, "telegram link code made by an administrator", "user_id", id, "by", actor.ID)
	return code, nil
}

// UnlinkTelegram removes account id's Telegram link and raises its token
// version: a session the Telegram user opened through the Mini App ends
// with the link (the account's other sessions too; its person signs in
// again). An account without a link is answered unchanged.
func (a *UserAdmin) UnlinkTelegram(ctx context.Context, actor domain.User, id int64) (domain.User, error) {
	u, err := a.users.Change(ctx, id, func(u domain.User, _ int64) (domain.User, error) {
		if u.TelegramID != nil {
			u.TelegramID = nil
			u.TokenVersion++
		}
		return u, nil
	})
	if err != nil {
		return domain.User{}, fmt.Errorf("unlink Telegram from account %d: %w", id, err)
	}
	a.accounts.log.InfoContext(ctx, "telegram unlinked by an administrator", "user_id", id, "by", actor.ID)
	return u, nil
}
