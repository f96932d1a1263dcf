package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"mediateka/domain"
)

// ScanState calls fn with what a scan compares (id, path, status, size,
// mtime and edited fields; nothing else is set) for every record whose path
// lies under one of prefixes: the folder itself, anything below it, and
// the "<folder>#…" paths of series and seasons without a folder of their
// own. No prefixes means every record. It reads the bare minimum because a
// rescan of an unchanged library is mostly this query.
//
// The query is one pass over the table whatever the prefixes, and the
// prefixes are matched here: one condition per prefix would make SQLite
// refuse a library of a thousand folders ("expression tree is too large"),
// and a pass over the table is three times faster than an index walk that
// fetches every row by id, since a scan reads most of the table anyway.
//
// Each row comes as one text, its columns joined by NUL (which no path,
// status or JSON text holds): read column by column, the driver's cgo
// calls cost more than SQLite's reading of the row.
func (r *Media) ScanState(ctx context.Context, prefixes []string, fn func(domain.Media) error) error {
	db, err := r.readDB()
	if err != nil {
		return err
	}
	under := newPrefixSet(prefixes)
	rows, err := db.QueryContext(detached(ctx), `SELECT id || char(0) || path || char(0) || coalesce(status, '') || char(0) ||
		coalesce(size, 0) || char(0) || coalesce(mtime, '') || char(0) || coalesce(edited_fields, '') FROM media`)
	if err != nil {
		return fmt.Errorf("read scan state: %w", err)
	}
	defer rows.Close()
	var row string
	for n := 1; rows.Next(); n++ {
		if n%rowCheck == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		if err := rows.Scan(&row); err != nil {
			return fmt.Errorf("read scan state: %w", err)
		}
		m, err := scanStateRow(row)
		if err != nil {
			return fmt.Errorf("read scan state: %w", err)
		}
		if !under.covers(m.Path) {
			continue
		}
		if err := fn(m); err != nil {
			return err
		}
	}
	return rows.Err()
}

// scanStateRow reads "id NUL path NUL status NUL size NUL mtime NUL
// edited_fields"; an empty mtime is NULL (a folder's record).
func scanStateRow(row string) (domain.Media, error) {
	var cols [6]string
	for i := range 5 {
		var ok bool
		if cols[i], row, ok = strings.Cut(row, "\x00"); !ok {
			return domain.Media{}, fmt.Errorf("a row of %d columns", i+1)
		}
	}
	cols[5] = row
	m := domain.Media{Path: cols[1], Status: cols[2]}
	var err error
	if m.ID, err = wholeNumber(cols[0]); err != nil {
		return m, fmt.Errorf("id: %w", err)
	}
	if m.Size, err = wholeNumber(cols[3]); err != nil {
		return m, fmt.Errorf("size of %s: %w", m.Path, err)
	}
	if cols[4] != "" {
		mtime, err := wholeNumber(cols[4])
		if err != nil {
			return m, fmt.Errorf("mtime of %s: %w", m.Path, err)
		}
		m.ModTime = time.Unix(0, mtime).UTC()
	}
	if cols[5] != "" {
		decodeJSON(sql.NullString{String: cols[5], Valid: true}, &m.EditedFields)
	}
	return m, nil
}

// wholeNumber reads a number column as database/sql would into an int64:
// a whole number, also when SQLite stored it as a real ("5.0").
func wholeNumber(s string) (int64, error) {
	n, err := strconv.ParseInt(s, 10, 64)
	if err == nil {
		return n, nil
	}
	f, ferr := strconv.ParseFloat(s, 64)
	if ferr != nil || f != float64(int64(f)) {
		return 0, err
	}
	return int64(f), nil
}

// prefixSet matches paths against folders: "/a" covers "/a", "/a/…" and
// "/a#…". An empty set covers every path.
type prefixSet map[string]bool

func newPrefixSet(prefixes []string) prefixSet {
	set := make(prefixSet, len(prefixes))
	for _, p := range prefixes {
		if len(p) > 1 {
			p = strings.TrimRight(p, "/")
		}
		set[p] = true
	}
	return set
}

// covers looks up the path and each of its ancestors: cost grows with the
// path's depth, not with the number of prefixes.
func (s prefixSet) covers(path string) bool {
	if len(s) == 0 || s[path] {
		return true
	}
	for i := len(path) - 1; i >= 0; i-- {
		switch {
		case path[i] == '/' && i == 0:
			return s["/"]
		case (path[i] == '/' || path[i] == '#') && s[path[:i]]:
			return true
		}
	}
	return false
}

// prefixRanges is the JSON parameter of CountUnder and UsageUnder: per
// prefix the path itself, the range of paths under it as a directory
// ("p/" up to "p0", '0' being the byte after '/'), and the range of
// paths that continue it with '#' (the series the scanner keys by folder
// and title, "dir#title"), so that each test runs over the path index.
func prefixRanges(prefixes []string) ([]byte, error) {
	ranges := make([][5]string, len(prefixes))
	for i, p := range prefixes {
		if len(p) > 1 {
			p = strings.TrimRight(p, "/")
		}
		dir := strings.TrimSuffix(p, "/") + "/"
		ranges[i] = [5]string{p, dir, dir[:len(dir)-1] + "0", p + "#", p + "$"}
	}
	return json.Marshal(ranges)
}

// CountUnder counts the records under each prefix (as ScanState selects
// them), in the order of prefixes. It is one statement whatever the number
// of prefixes: they travel as one JSON parameter, and each is counted over
// the path index.
func (r *Media) CountUnder(ctx context.Context, prefixes []string) ([]int, error) {
	out := make([]int, len(prefixes))
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
	rows, err := db.QueryContext(ctx, `SELECT r.key,
		(SELECT count(*) FROM media WHERE path = r.value ->> 0)
		+ (SELECT count(*) FROM media WHERE path >= r.value ->> 1 AND path < r.value ->> 2)
		+ (SELECT count(*) FROM media WHERE path >= r.value ->> 3 AND path < r.value ->> 4)
		FROM json_each(?) r`, string(param))
	if err != nil {
		return nil, fmt.Errorf("count media under the library folders: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var i, n int
		if err := rows.Scan(&i, &n); err != nil {
			return nil, fmt.Errorf("count media under the library folders: %w", err)
		}
		out[i] = n
	}
	return out, rows.Err()
}

// Reconcile refreshes what records derive from their children, writing only
// rows whose value changes (so a scan of an unchanged library writes
// nothing): a series or season without a file of its own is "ok" while one
// of its children is, else "missing"; a series' num_of_seasons counts its
// seasons numbered 1 and up (season 0 holds specials) and
// num_episodes_per_season lists their episode counts in season order,
// unless a person edited those fields. It returns how many rows changed.
func (r *Media) Reconcile(ctx context.Context) (int, error) {
	changed := 0
	_, err := r.inTx(ctx, func(w *batchWriter) error {
		ctx := detached(ctx)
		for _, typ := range []string{domain.MediaSeason, domain.MediaSeries} {
			n, err := w.refreshStatus(ctx, typ)
			if err != nil {
				return err
			}
			changed += n
		}
		n, err := w.refreshSeasonCounts(ctx)
		changed += n
		return err
	})
	return changed, err
}

func (w *batchWriter) refreshStatus(ctx context.Context, typ string) (int, error) {
	const derived = `CASE WHEN EXISTS (SELECT 1 FROM media c WHERE c.parent_id = media.id AND c.status = 'ok') THEN 'ok' ELSE 'missing' END`
	res, err := w.tx.ExecContext(ctx, `UPDATE media SET status = `+derived+`, updated_at = ?
		WHERE media_type = ? AND mtime IS NULL AND status IS NOT `+derived, w.now, typ)
	if err != nil {
		return 0, fmt.Errorf("refresh %s status: %w", typ, err)
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}

// seriesCounts is what a series' derived columns are and should be.
type seriesCounts struct {
	stored    sql.NullInt64
	perSeason []int
	storedPer sql.NullString
	edited    []string
}

func (w *batchWriter) refreshSeasonCounts(ctx context.Context) (int, error) {
	series, err := w.loadSeriesCounts(ctx)
	if err != nil {
		return 0, err
	}
	changed := 0
	for id, s := range series {
		want := sql.NullInt64{Int64: int64(len(s.perSeason)), Valid: true}
		wantPer := jsonList(s.perSeason)
		if (slices.Contains(s.edited, "num_of_seasons") || s.stored == want) &&
			(slices.Contains(s.edited, "num_episodes_per_season") || sameJSON(s.storedPer, wantPer)) {
			continue
		}
		sets, args := []string{}, []any{}
		if !slices.Contains(s.edited, "num_of_seasons") {
			sets, args = append(sets, "num_of_seasons = ?"), append(args, want.Int64)
		}
		if !slices.Contains(s.edited, "num_episodes_per_season") {
			sets, args = append(sets, "num_episodes_per_season = ?"), append(args, wantPer)
		}
		args = append(args, w.now, id)
		if _, err := w.tx.ExecContext(ctx, `UPDATE media SET `+strings.Join(sets, ", ")+`, updated_at = ? WHERE id = ?`, args...); err != nil {
			return changed, fmt.Errorf("update season counts of media %d: %w", id, err)
		}
		changed++
	}
	return changed, nil
}

func (w *batchWriter) loadSeriesCounts(ctx context.Context) (map[int64]*seriesCounts, error) {
	series := map[int64]*seriesCounts{}
	rows, err := w.tx.QueryContext(ctx, `SELECT id, num_of_seasons, num_episodes_per_season, edited_fields FROM media WHERE media_type = 'series'`)
	if err != nil {
		return nil, fmt.Errorf("read series: %w", err)
	}
	for rows.Next() {
		s := &seriesCounts{}
		var id int64
		var edited sql.NullString
		if err := rows.Scan(&id, &s.stored, &s.storedPer, &edited); err != nil {
			rows.Close()
			return nil, fmt.Errorf("read series: %w", err)
		}
		decodeJSON(edited, &s.edited)
		series[id] = s
	}
	rows.Close()
	rows, err = w.tx.QueryContext(ctx, `SELECT s.parent_id, s.number,
		(SELECT count(*) FROM media e WHERE e.parent_id = s.id AND e.media_type = 'episode')
		FROM media s WHERE s.media_type = 'season' AND s.number > 0 ORDER BY s.parent_id, s.number`)
	if err != nil {
		return nil, fmt.Errorf("read seasons: %w", err)
	}
	defer rows.Close()
	last := map[int64]int{}
	for rows.Next() {
		var parent int64
		var number, episodes int
		if err := rows.Scan(&parent, &number, &episodes); err != nil {
			return nil, fmt.Errorf("read seasons: %w", err)
		}
		s, ok := series[parent]
		if !ok {
			continue
		}
		if n, seen := last[parent]; seen && n == number {
			s.perSeason[len(s.perSeason)-1] += episodes
			continue
		}
		last[parent] = number
		s.perSeason = append(s.perSeason, episodes)
	}
	return series, rows.Err()
}

// sameJSON compares a stored JSON column with a value jsonText produced.
func sameJSON(stored sql.NullString, want any) bool {
	if want == nil {
		return !stored.Valid || stored.String == "" || stored.String == "[]"
	}
	if !stored.Valid {
		return false
	}
	var a, b any
	if json.Unmarshal([]byte(stored.String), &a) != nil || json.Unmarshal([]byte(want.(string)), &b) != nil {
		return false
	}
	ra, _ := json.Marshal(a)
	rb, _ := json.Marshal(b)
	return string(ra) == string(rb)
}
