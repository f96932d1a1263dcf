package sqlstore

import "gorm.io/gorm"

// migrateAccounts prepares the users table for case-insensitive e-mails and
// revocable tokens:
//   - token_version is carried in every token; raising it (a password
//     change) invalidates every older token of that user at once;
//   - e-mails are folded to their stored form (trimmed, lower case) so the
//     column's UNIQUE constraint refuses U@x.org next to u@x.org. Of rows that
//     collide once folded, only the oldest is folded, and only when no row
//     already has the folded form: both accounts are kept (none is ever lost)
//     and Users.DuplicateEmails reports them for the start-up log.
func migrateAccounts(tx *gorm.DB) error {
	return execAll(tx,
		`ALTER TABLE users ADD COLUMN token_version INTEGER NOT NULL DEFAULT 0`,
		`UPDATE users SET email = lower(trim(email))
		 WHERE email <> lower(trim(email))
		   AND id = (SELECT min(o.id) FROM users o WHERE lower(trim(o.email)) = lower(trim(users.email)))
		   AND NOT EXISTS (SELECT 1 FROM users o WHERE o.email = lower(trim(users.email)))`,
	)
}
