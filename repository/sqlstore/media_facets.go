package sqlstore

import (
	"context"
	"encoding/json"
	"fmt"

	"mediateka/domain"
)

// maxGenreLists bounds the decoded genre lists one Facets call reuses: a
// catalogue repeats a few hundred lists many thousand times.
const maxGenreLists = 1024

// Facets calls fn with the light view of every record f selects (its limit
// and offset ignored), reading eleven narrow columns instead of whole rows
// (see domain.MediaFacet). The order is the index's (by type, parent and
// id), not sorted: sorting would hold every row before the first.
func (r *Media) Facets(ctx context.Context, f domain.MediaFilter, fn func(domain.MediaFacet) error) error {
	db, err := r.readDB()
	if err != nil {
		return err
	}
	f.Limit, f.Offset = 0, 0
	where, args := filterSQL(f)
	rows, err := db.QueryContext(detached(ctx), `SELECT id, coalesce(media_type, ''), coalesce(title, ''),
		coalesce(title_ru, ''), coalesce(title_orig, ''), coalesce(year, 0),
		coalesce(main_category, ''), coalesce(status, ''), coalesce(genres, ''), coalesce(rating, ''),
		coalesce(why_watch, '') != '' OR coalesce(plot, '') != '' FROM media`+where, args...)
	if err != nil {
		return fmt.Errorf("read media facets: %w", err)
	}
	defer rows.Close()
	genres := map[string][]string{}
	for n := 1; rows.Next(); n++ {
		if n%rowCheck == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		var m domain.MediaFacet
		var rawGenres, rawRating string
		if err := rows.Scan(&m.ID, &m.Type, &m.Title, &m.TitleRu, &m.TitleOrig, &m.Year, &m.MainCategory, &m.Status,
			&rawGenres, &rawRating, &m.Described); err != nil {
			return fmt.Errorf("read media facets: %w", err)
		}
		m.Genres = decodeGenres(genres, rawGenres)
		if rawRating != "" && rawRating != "{}" && rawRating != "null" {
			_ = json.Unmarshal([]byte(rawRating), &m.Rating) // a malformed value reads as none, as in whole records
		}
		if err := fn(m); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read media facets: %w", err)
	}
	return nil
}

// decodeGenres decodes a stored genre list, reusing the lists already
// decoded in seen.
func decodeGenres(seen map[string][]string, raw string) []string {
	if raw == "" || raw == "[]" || raw == "null" {
		return nil
	}
	if g, ok := seen[raw]; ok {
		return g
	}
	var g []string
	if json.Unmarshal([]byte(raw), &g) != nil {
		g = []string{raw} // not a JSON list: the text itself, as whole records read it
	}
	if len(seen) < maxGenreLists {
		seen[raw] = g
	}
	return g
}
