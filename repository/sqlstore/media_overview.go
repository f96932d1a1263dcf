package sqlstore

import (
	"context"
	"fmt"

	"mediateka/domain"
)

// CountWorks counts the movies and series by main_category and decade in
// one GROUP BY pass, so the admin overview costs one statement however big
// the catalogue is. Seasons and episodes are not works of their own.
func (r *Media) CountWorks(ctx context.Context) ([]domain.WorkCount, error) {
	db, err := r.readDB()
	if err != nil {
		return nil, err
	}
	rows, err := db.QueryContext(ctx, `SELECT coalesce(main_category, ''),
		CASE WHEN year > 0 THEN year / 10 * 10 ELSE 0 END, count(*)
		FROM media WHERE media_type IN ('movie', 'series') GROUP BY 1, 2`)
	if err != nil {
		return nil, fmt.Errorf("count works: %w", err)
	}
	defer rows.Close()
	var out []domain.WorkCount
	for rows.Next() {
		var w domain.WorkCount
		if err := rows.Scan(&w.Category, &w.Decade, &w.Count); err != nil {
			return nil, fmt.Errorf("count works: %w", err)
		}
		out = append(out, w)
	}
	return out, rows.Err()
}

// UsageUnder is CountUnder with the bytes of the files under each prefix
// (files marked missing left out: they take no room). One statement
// whatever the number of prefixes; each is read over the path index.
func (r *Media) UsageUnder(ctx context.Context, prefixes []string) ([]domain.FolderUsage, error) {
	out := make([]domain.FolderUsage, len(prefixes))
	if len(prefixes) == 0 {
		return out, nil
	}
	db, err := r.readDB()
	if err != nil {
		return nil, err
	}
	param, err := prefixRanges(prefixes)
	if err != nil {
		return nil, err
	}
	rows, err := db.QueryContext(ctx, `SELECT r.key, count(m.id),
		coalesce(sum(CASE WHEN m.status = 'missing' THEN 0 ELSE m.size END), 0)
		FROM json_each(?) r LEFT JOIN media m ON m.path = r.value ->> 0
			OR (m.path >= r.value ->> 1 AND m.path < r.value ->> 2)
			OR (m.path >= r.value ->> 3 AND m.path < r.value ->> 4)
		GROUP BY r.key`, string(param))
	if err != nil {
		return nil, fmt.Errorf("measure the library folders: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var i int
		var u domain.FolderUsage
		if err := rows.Scan(&i, &u.Entries, &u.Bytes); err != nil {
			return nil, fmt.Errorf("measure the library folders: %w", err)
		}
		out[i] = u
	}
	return out, rows.Err()
}
