package app

import (
	"context"
	"fmt"

	"mediateka/config"
	"mediateka/domain"
	"mediateka/repository/sqlstore"
	"mediateka/usecase/auth"
)

// AddUser creates an account from the command line, without starting the
// server. It opens the same database the server uses (WAL lets both run) and
// needs no token secret: account management issues no token.
func AddUser(ctx context.Context, cfg config.Config, n auth.NewUser) (domain.User, error) {
	if n.Password == "" {
		return domain.User{}, domain.ErrInvalid("a password is required", map[string]string{"password": "must not be empty"})
	}
	var u domain.User
	err := withAccounts(ctx, cfg, func(a *auth.Accounts) (err error) {
		u, err = a.CreateUser(ctx, n)
		return err
	})
	if err != nil {
		return domain.User{}, fmt.Errorf("add user %s: %w", n.Email, err)
	}
	return u, nil
}

// SetPassword replaces an account's password from the command line (the
// generated first password, a forgotten one); every token of that account
// issued before stops working.
func SetPassword(ctx context.Context, cfg config.Config, email, password string) (domain.User, error) {
	var u domain.User
	err := withAccounts(ctx, cfg, func(a *auth.Accounts) (err error) {
		u, err = a.SetPassword(ctx, email, password)
		return err
	})
	return u, err
}

// withAccounts runs fn on account management over the configured database.
func withAccounts(ctx context.Context, cfg config.Config, fn func(*auth.Accounts) error) error {
	store, err := sqlstore.Open(ctx, cfg.DBPath())
	if err != nil {
		return err
	}
	defer store.Close()
	return fn(auth.NewAccounts(sqlstore.NewUsers(store), auth.AccountOptions{}))
}
