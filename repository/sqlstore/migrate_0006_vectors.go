package sqlstore

import "gorm.io/gorm"

// migrateVectors replaces the base schema's media_vector (a bare blob per
// row, never written) with the semantic-search index: one vector per
// movie or series, keyed by its media id and deleted with it (ON DELETE
// CASCADE), recording the embedder, model and dimensions that made it and
// a digest of the document text it was made from, so that an update
// re-embeds only what changed and a change of embedder is noticed.
func migrateVectors(tx *gorm.DB) error {
	return execAll(tx,
		`DROP TABLE IF EXISTS media_vector`,
		`CREATE TABLE media_vector (
			media_id INTEGER PRIMARY KEY REFERENCES media(id) ON DELETE CASCADE,
			embedder TEXT NOT NULL,
			model TEXT NOT NULL DEFAULT '',
			dimensions INTEGER NOT NULL CHECK (dimensions > 0),
			content_hash TEXT NOT NULL,
			vector BLOB NOT NULL,
			updated_at DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP)`,
	)
}
