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
// server. It opens the same database the server uses (WAL lets both run).
func AddUser(ctx context.Context, cfg config.Config, n auth.NewUser) (domain.User, error) {
	store, err := sqlstore.Open(ctx, cfg.DBPath())
	if err != nil {
		return domain.User{}, err
	}
	defer store.Close()
	secret := cfg.JWTSecret
	if secret == "" {
		secret = "unused-for-user-creation-only" // no token is issued here
	}
	svc, err := auth.New(sqlstore.NewUsers(store), sqlstore.NewActivity(store), auth.Options{
		Secret: []byte(secret)})
	if err != nil {
		return domain.User{}, err
	}
	if n.Password == "" {
		return domain.User{}, domain.ErrInvalid("a password is required", map[string]string{"password": "must not be empty"})
	}
	u, err := svc.CreateUser(ctx, n)
	if err != nil {
		return domain.User{}, fmt.Errorf("add user %s: %w", n.Email, err)
	}
	return u, nil
}
