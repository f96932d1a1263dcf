package sqlstore

import "gorm.io/gorm"

// migrateClassify adds media.classified_at: when the AI model last answered
// for the entry with a valid answer. Classification after every scan asks
// only about entries without it, so an entry the model knows little about
// is not asked again and again; asking for its id explicitly still does.
func migrateClassify(tx *gorm.DB) error {
	return execAll(tx, `ALTER TABLE media ADD COLUMN classified_at DATETIME`)
}
