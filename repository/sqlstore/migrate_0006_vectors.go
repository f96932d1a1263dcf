package sqlstore

import "gorm.io/gorm"

// migrateVectors replaces the base schema's media_vector (a bare blob per
// row, never written) with the semantic-search index: SPEC.md's columns
// (id, media_id deleted with its media record, embedding) with one row per
// movie or series (media_id UNIQUE), recording the embedder, model and
// dimensions that made it and a digest of the document text it was made
// from, so that an update re-embeds only what changed and a change of
// embedder is noticed.
func migrateVectors(tx *gorm.DB) error {
	return execAll(tx,
		`DROP TABLE IF EXISTS media_vector`,
		`CREATE TABLE media_vector (
			id INTEGER PRIMARY KEY,
			media_id INTEGER NOT NULL UNIQUE REFERENCES media(id) ON DELETE CASCADE,
			embedder TEXT NOT NULL,
			model TEXT NOT NULL DEFAULT '',
			dimensions INTEGER NOT NULL CHECK (dimensions > 0),
			content_hash TEXT NOT NULL,
			embedding BLOB NOT NULL,
			updated_at DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP)`,
	)
}
