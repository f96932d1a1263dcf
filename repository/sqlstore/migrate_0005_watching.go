package sqlstore

import "gorm.io/gorm"

// migrateWatching adds each account's watching state: one row per account
// and movie or episode it started or marked. Rows go with their account
// and with their media record (ON DELETE CASCADE; the media_id index makes
// the cascade a look-up, not a walk). The partial index serves "continue
// watching": an account's started, unwatched rows, newest first.
func migrateWatching(tx *gorm.DB) error {
	return execAll(tx,
		`CREATE TABLE watch_state (
			user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
			media_id INTEGER NOT NULL REFERENCES media(id) ON DELETE CASCADE,
			position REAL NOT NULL DEFAULT 0 CHECK (position >= 0),
			duration REAL NOT NULL DEFAULT 0 CHECK (duration >= 0),
			watched INTEGER NOT NULL DEFAULT 0 CHECK (watched IN (0, 1)),
			updated_at DATETIME NOT NULL,
			PRIMARY KEY (user_id, media_id)) WITHOUT ROWID`,
		`CREATE INDEX idx_watch_state_media ON watch_state(media_id)`,
		`CREATE INDEX idx_watch_state_continue ON watch_state(user_id, updated_at)
			WHERE watched = 0 AND position > 0`,
	)
}
