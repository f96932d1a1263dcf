package sqlstore

import (
	"context"
	"database/sql"
	"fmt"

	"mediateka/domain"
)

// ByPath loads the record stored under path, compared exactly as written
// (the column is unique); NotFound (media_not_found) when none is. It reads
// the database only: no path is ever resolved on disk.
func (r *Media) ByPath(ctx context.Context, path string) (domain.Media, error) {
	db, err := r.readDB()
	if err != nil {
		return domain.Media{}, err
	}
	m, err := r.cols.reader().read(db.QueryRowContext(ctx, `SELECT `+r.cols.sel+` FROM media WHERE path = ?`, path))
	if err == sql.ErrNoRows {
		return domain.Media{}, domain.ErrMediaNotFound.Wrap(err)
	}
	if err != nil {
		return domain.Media{}, fmt.Errorf("load media at %q: %w", path, err)
	}
	return m, nil
}
