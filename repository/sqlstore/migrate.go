package sqlstore

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm"
)

// migration is one versioned schema step. Steps are append-only: a released
// step is never edited, a later capability adds a new one. Each runs in its
// own transaction together with its schema_migrations row, so a crash leaves
// either the whole step or none of it.
type migration struct {
	version int
	name    string
	up      func(tx *gorm.DB) error
}

// migrations lists every step in order.
func migrations() []migration {
	return []migration{
		{1, "base schema", migrateBase},
		{2, "media library: file state, edits, search keys", migrateLibrary},
		{3, "media classification: classified_at", migrateClassify},
		{4, "accounts: case-insensitive e-mails, token version", migrateAccounts},
		{5, "watching state per account", migrateWatching},
		{6, "semantic search vectors", migrateVectors},
	}
}

// migrate applies the steps not yet recorded in schema_migrations; running it
// again on an up-to-date database changes nothing.
func migrate(ctx context.Context, db *gorm.DB, steps []migration) error {
	db = db.WithContext(ctx)
	if err := db.Exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
		version INTEGER PRIMARY KEY,
		name TEXT NOT NULL,
		applied_at DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP)`).Error; err != nil {
		return fmt.Errorf("create schema_migrations: %w", err)
	}
	var applied []int
	if err := db.Raw(`SELECT version FROM schema_migrations`).Scan(&applied).Error; err != nil {
		return fmt.Errorf("read schema_migrations: %w", err)
	}
	done := map[int]bool{}
	for _, v := range applied {
		done[v] = true
	}
	for _, m := range steps {
		if done[m.version] {
			continue
		}
		err := db.Transaction(func(tx *gorm.DB) error {
			if err := m.up(tx); err != nil {
				return err
			}
			return tx.Exec(`INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)`,
				m.version, m.name, time.Now().UTC()).Error
		})
		if err != nil {
			return fmt.Errorf("migration %d (%s): %w", m.version, m.name, err)
		}
	}
	return nil
}

// execAll runs statements in order, stopping at the first error.
func execAll(tx *gorm.DB, stmts ...string) error {
	for _, s := range stmts {
		if err := tx.Exec(s).Error; err != nil {
			return err
		}
	}
	return nil
}

// migrateBase creates the records of SPEC.md with their exact columns,
// defaults and cascades, plus the columns API.md adds (password_hash,
// telegram_id, provider, daily_quota, used_today).
func migrateBase(tx *gorm.DB) error {
	return execAll(tx,
		`CREATE TABLE media (
			id INTEGER PRIMARY KEY AUTOINCREMENT,
			disk_name TEXT NOT NULL,
			path TEXT NOT NULL UNIQUE,
			title TEXT, title_ru TEXT, title_orig TEXT,
			year INTEGER,
			main_category TEXT, country TEXT, status TEXT,
			genres TEXT, directors TEXT, "cast" TEXT, awards TEXT, facts TEXT, similar TEXT,
			num_episodes_per_season TEXT,
			rating TEXT,
			num_of_seasons INTEGER, number INTEGER,
			plot TEXT, atmosphere TEXT, why_watch TEXT, mood TEXT, final_verdict TEXT, can_stop_at TEXT, quote TEXT,
			parent_id INTEGER DEFAULT 0,
			episode_scan_skipped INTEGER DEFAULT 0,
			media_type TEXT CHECK (media_type IN ('movie', 'series', 'season', 'episode')))`,
		`CREATE INDEX idx_media_parent ON media(parent_id)`,
		`CREATE TABLE media_vector (
			id INTEGER PRIMARY KEY AUTOINCREMENT,
			media_id INTEGER NOT NULL REFERENCES media(id) ON DELETE CASCADE,
			embedding BLOB NOT NULL)`,
		`CREATE INDEX idx_media_vector_media ON media_vector(media_id)`,
		`CREATE TABLE search_history (
			id INTEGER PRIMARY KEY AUTOINCREMENT,
			query TEXT NOT NULL,
			timestamp DATETIME DEFAULT CURRENT_TIMESTAMP,
			results_count INTEGER)`,
		`CREATE TABLE users (
			id INTEGER PRIMARY KEY AUTOINCREMENT,
			email TEXT NOT NULL UNIQUE,
			name TEXT NOT NULL,
			picture TEXT,
			role TEXT DEFAULT 'user',
			is_admin BOOLEAN DEFAULT 0,
			created_at DATETIME DEFAULT CURRENT_TIMESTAMP,
			password_hash TEXT,
			telegram_id INTEGER UNIQUE)`,
		`CREATE TABLE user_activity (
			id INTEGER PRIMARY KEY AUTOINCREMENT,
			user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
			action TEXT NOT NULL,
			details TEXT,
			timestamp DATETIME DEFAULT CURRENT_TIMESTAMP)`,
		`CREATE INDEX idx_user_activity_user ON user_activity(user_id, timestamp)`,
		`CREATE TABLE api_keys (
			key_name TEXT PRIMARY KEY,
			api_key BLOB NOT NULL,
			provider TEXT NOT NULL DEFAULT 'gemini',
			status TEXT NOT NULL DEFAULT 'active',
			last_run DATETIME,
			exhausted_at DATETIME,
			daily_quota INTEGER,
			used_today INTEGER NOT NULL DEFAULT 0,
			used_day TEXT,
			created_at DATETIME DEFAULT CURRENT_TIMESTAMP)`,
		`CREATE TABLE settings (
			key TEXT PRIMARY KEY,
			value TEXT NOT NULL,
			updated_at DATETIME DEFAULT CURRENT_TIMESTAMP)`,
	)
}
