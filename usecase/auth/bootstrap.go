package auth

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"

	"mediateka/domain"
)

// InitialAdminEmail is the account a first start creates when no user exists
// and ADMIN_EMAIL is unset.
const InitialAdminEmail = "admin@localhost"

// InitialPasswordFile is where that account's generated password is written,
// inside the data folder, readable by the owner only.
const InitialPasswordFile = "initial_admin_password"

// Bootstrap makes sure an administrator can sign in:
//   - with adminEmail/adminPassword set and no user of that e-mail, it creates
//     that admin (an existing user is never overwritten);
//   - otherwise, on a database with no user at all, it creates admin@localhost
//     with a random password written to <dataDir>/initial_admin_password.
//
// The log names the file, never the password.
func (a *Accounts) Bootstrap(ctx context.Context, adminEmail, adminPassword, dataDir string) error {
	a.warnDuplicates(ctx)
	if adminEmail != "" {
		_, err := a.users.ByEmail(ctx, adminEmail)
		if err == nil {
			return nil
		}
		if !domain.IsKind(err, domain.KindNotFound) {
			return fmt.Errorf("bootstrap admin: %w", err)
		}
		if adminPassword == "" {
			return fmt.Errorf("bootstrap admin: ADMIN_EMAIL is set but ADMIN_PASSWORD is empty")
		}
		if _, err := a.CreateUser(ctx, NewUser{Email: adminEmail, Password: adminPassword, Admin: true}); err != nil {
			return fmt.Errorf("bootstrap admin %s: %w", adminEmail, err)
		}
		a.log.InfoContext(ctx, "created the administrator from ADMIN_EMAIL", "email", adminEmail)
		return nil
	}
	n, err := a.users.Count(ctx)
	if err != nil || n > 0 {
		return err
	}
	password, err := randomPassword()
	if err != nil {
		return err
	}
	path := filepath.Join(dataDir, InitialPasswordFile)
	if err := os.WriteFile(path, []byte(password+"\n"), 0o600); err != nil {
		return fmt.Errorf("write initial admin password: %w", err)
	}
	if _, err := a.CreateUser(ctx, NewUser{Email: InitialAdminEmail, Name: "admin", Password: password, Admin: true}); err != nil {
		_ = os.Remove(path)
		return fmt.Errorf("create initial admin: %w", err)
	}
	a.log.WarnContext(ctx, "created the first administrator; its password is in the file named here",
		"email", InitialAdminEmail, "password_file", path)
	return nil
}

// warnDuplicates logs the e-mails that older accounts share in different
// cases (kept by migration 0004 rather than losing an account).
func (a *Accounts) warnDuplicates(ctx context.Context) {
	dups, err := a.users.DuplicateEmails(ctx)
	if err != nil {
		a.log.WarnContext(ctx, "could not look for duplicate e-mails", "err", err)
		return
	}
	for _, e := range dups {
		a.log.WarnContext(ctx, "several accounts share this e-mail in different cases; only the oldest can sign in with a password: merge or delete the others",
			"email", e)
	}
}

// randomPassword returns 18 random bytes in URL-safe base64 (24 characters).
func randomPassword() (string, error) {
	b := make([]byte, 18)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("generate password: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}
