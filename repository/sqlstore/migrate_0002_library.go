package sqlstore

import "gorm.io/gorm"

// migrateLibrary adds what the scanner and the catalogue need to the media
// table: the file's size and modification time (nanoseconds since the epoch)
// for incremental scans, a partial content hash for duplicate detection, the
// fields a person edited (a JSON array) so scans never overwrite them, the
// normalised titles the files filter searches, and timestamps. The indexes
// serve the catalogue filters, the duplicate search by size, and the cheap
// "what changed last" question caches ask (another process, such as
// `mediateka scan`, may have written).
func migrateLibrary(tx *gorm.DB) error {
	return execAll(tx,
		`ALTER TABLE media ADD COLUMN size INTEGER`,
		`ALTER TABLE media ADD COLUMN mtime INTEGER`,
		`ALTER TABLE media ADD COLUMN content_hash TEXT`,
		`ALTER TABLE media ADD COLUMN edited_fields TEXT`,
		`ALTER TABLE media ADD COLUMN title_norm TEXT`,
		`ALTER TABLE media ADD COLUMN created_at DATETIME`,
		`ALTER TABLE media ADD COLUMN updated_at DATETIME`,
		`CREATE INDEX idx_media_type ON media(media_type, parent_id)`,
		`CREATE INDEX idx_media_category ON media(main_category)`,
		`CREATE INDEX idx_media_disk ON media(disk_name)`,
		`CREATE INDEX idx_media_size ON media(size) WHERE size IS NOT NULL`,
		`CREATE INDEX idx_media_updated ON media(updated_at)`,
	)
}
