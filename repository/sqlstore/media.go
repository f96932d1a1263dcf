package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"maps"
	"slices"
	"strings"

	"mediateka/domain"
)

// Media is the media repository: catalogue reads, scan batches, edits and
// the duplicate-search views. It keeps media.title_norm, the normalised
// titles title search indexes (read through Keys), in step with every
// title it writes;
// normalize is the catalogue's own normalisation, injected so that the
// database and the in-memory search agree.
type Media struct {
	s         *Store
	normalize func(string) string
	cols      *mediaColumns // read-only after construction
	// counts keeps the answers of Count until anyone writes to the
	// database: every page of the file list carries the total, which is a
	// walk over the whole table in SQLite.
	counts *readCache[string, int64]
	// pages keeps small pages of Each (what a person pages through) the
	// same way.
	pages *readCache[string, []domain.Media]
}

// Bounds of the read caches: the filters whose counts are kept, the pages
// kept, and the largest page kept (so at most pagesCached × pageCacheRows
// records are held).
const (
	countsCached  = 256
	pagesCached   = 16
	pageCacheRows = 128
)

// NewMedia returns the media repository of s.
func NewMedia(s *Store, normalize func(string) string) *Media {
	return &Media{s: s, normalize: normalize, cols: newMediaColumns(),
		counts: newReadCache[string, int64](s.changes, countsCached), pages: newReadCache[string, []domain.Media](s.changes, pagesCached)}
}

// titleNorm is the search key of m: the normalised values of the
// searchable fields (domain.FieldSearchable) in table order, joined with
// "|", which normalised text never contains, so a LIKE never matches
// across two titles. For the fields of the first table (title, title_ru,
// title_orig) it is what it always was, so stored keys stay valid.
func (r *Media) titleNorm(m *domain.Media) string {
	// The display title is usually one of the others: a value met
	// before is not normalised again.
	var rawBuf, normBuf [4]string
	raws, norms := rawBuf[:0], normBuf[:0]
	var b strings.Builder
	for i, f := range r.cols.search {
		if i > 0 {
			b.WriteByte('|')
		}
		raw := *f.Ref(m).(*string)
		j := slices.Index(raws, raw)
		if j < 0 {
			raws, norms = append(raws, raw), append(norms, r.normalize(raw))
			j = len(norms) - 1
		}
		b.WriteString(norms[j])
	}
	return b.String()
}

func (r *Media) readDB() (*sql.DB, error) { return r.s.reader.DB() }

// rowCheck is how many rows a loop handles between cancellation checks.
const rowCheck = 256

// detached returns ctx without its cancellation, for the driver. The
// SQLite driver runs every statement step and every row fetch of a
// cancellable context in a goroutine of its own and waits on a channel; on
// a busy two-core machine each such hand-off waits for the scheduler, which
// made a 100 000-row scan several times slower. Loops check the real
// context themselves every rowCheck rows instead.
func detached(ctx context.Context) context.Context { return context.WithoutCancel(ctx) }

// ByID loads one record; NotFound (media_not_found) when absent.
func (r *Media) ByID(ctx context.Context, id int64) (domain.Media, error) {
	db, err := r.readDB()
	if err != nil {
		return domain.Media{}, err
	}
	m, err := r.cols.reader().read(db.QueryRowContext(ctx, `SELECT `+r.cols.sel+` FROM media WHERE id = ?`, id))
	if err == sql.ErrNoRows {
		return domain.Media{}, domain.ErrMediaNotFound.Wrap(err)
	}
	if err != nil {
		return domain.Media{}, fmt.Errorf("load media %d: %w", id, err)
	}
	return m, nil
}

// ByIDs loads records in the order of ids, skipping ids that do not exist.
func (r *Media) ByIDs(ctx context.Context, ids []int64) ([]domain.Media, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	found := map[int64]domain.Media{}
	err := r.query(ctx, `SELECT `+r.cols.sel+` FROM media WHERE id IN (`+placeholders(len(ids))+`)`, int64Args(ids), func(m domain.Media) error {
		found[m.ID] = m
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := make([]domain.Media, 0, len(ids))
	for _, id := range ids {
		if m, ok := found[id]; ok {
			out = append(out, m)
		}
	}
	return out, nil
}

// Children returns the records whose parent is one of parentIDs, ordered by
// number then path.
func (r *Media) Children(ctx context.Context, parentIDs []int64) ([]domain.Media, error) {
	if len(parentIDs) == 0 {
		return nil, nil
	}
	var out []domain.Media
	err := r.query(ctx, `SELECT `+r.cols.sel+` FROM media WHERE parent_id IN (`+placeholders(len(parentIDs))+`)
		ORDER BY parent_id, number IS NULL, number, path`, int64Args(parentIDs), func(m domain.Media) error {
		out = append(out, m)
		return nil
	})
	return out, err
}

// Each calls fn for every record f selects, ordered by id, reading rows one
// at a time so that the whole catalogue streams at flat memory. An error
// from fn stops the iteration and is returned. A small page that does not
// continue a walk (no AfterID) is kept in memory until the next write to
// the database: the first pages of the file list are asked for again and
// again, and reading a row costs far more than the SQL it answers.
func (r *Media) Each(ctx context.Context, f domain.MediaFilter, fn func(domain.Media) error) error {
	where, args := filterSQL(f)
	q := `SELECT ` + r.cols.sel + ` FROM media` + where + ` ORDER BY id`
	if f.Limit > 0 {
		q += fmt.Sprintf(" LIMIT %d OFFSET %d", f.Limit, max(0, f.Offset))
	} else if f.Offset > 0 {
		q += fmt.Sprintf(" LIMIT -1 OFFSET %d", f.Offset)
	}
	if f.Limit <= 0 || f.Limit > pageCacheRows || f.AfterID > 0 {
		return r.query(ctx, q, args, fn)
	}
	page, err := r.pages.get(countKey(q, args), func() ([]domain.Media, error) {
		var page []domain.Media
		err := r.query(ctx, q, args, func(m domain.Media) error { page = append(page, m); return nil })
		return page, err
	})
	if err != nil {
		return err
	}
	for _, m := range page {
		if err := fn(cloneMedia(m)); err != nil {
			return err
		}
	}
	return nil
}

// cloneMedia copies the lists, maps and numbers m points to, so a caller
// that changes the entry it was given cannot change a cached one.
func cloneMedia(m domain.Media) domain.Media {
	for _, p := range []*[]string{&m.Genres, &m.Directors, &m.Cast, &m.Awards, &m.Facts, &m.Similar, &m.EditedFields} {
		*p = slices.Clone(*p)
	}
	m.NumEpisodesPerSeason = slices.Clone(m.NumEpisodesPerSeason)
	m.Rating = maps.Clone(m.Rating)
	for _, p := range []**int{&m.Year, &m.NumOfSeasons, &m.Number} {
		if *p != nil {
			v := **p
			*p = &v
		}
	}
	return m
}

// Count returns how many records f selects, ignoring its limit and offset.
// The answer is kept in memory until the next write to the database.
func (r *Media) Count(ctx context.Context, f domain.MediaFilter) (int64, error) {
	where, args := filterSQL(f)
	return r.counts.get(countKey(where, args), func() (int64, error) {
		db, err := r.readDB()
		if err != nil {
			return 0, err
		}
		var n int64
		if err := db.QueryRowContext(detached(ctx), `SELECT count(*) FROM media`+where, args...).Scan(&n); err != nil {
			return 0, fmt.Errorf("count media: %w", err)
		}
		return n, nil
	})
}

// countKey names a WHERE clause with its arguments. Arguments are strings
// and numbers; each is written with its type and length, so two different
// lists never give the same key.
func countKey(where string, args []any) string {
	var b strings.Builder
	b.WriteString(where)
	for _, a := range args {
		s := fmt.Sprint(a)
		fmt.Fprintf(&b, "\x00%T:%d:%s", a, len(s), s)
	}
	return b.String()
}

// Version names the state of the media table: the time of its last write.
// It changes whenever any process writes a record, so caches can tell they
// are stale with one indexed lookup.
func (r *Media) Version(ctx context.Context) (string, error) {
	db, err := r.readDB()
	if err != nil {
		return "", err
	}
	var v string
	if err := db.QueryRowContext(ctx, `SELECT coalesce(max(updated_at), '') FROM media`).Scan(&v); err != nil {
		return "", fmt.Errorf("read media version: %w", err)
	}
	return v, nil
}

// CountByType returns the number of records per media type and status.
func (r *Media) CountByType(ctx context.Context) (map[string]map[string]int, error) {
	db, err := r.readDB()
	if err != nil {
		return nil, err
	}
	rows, err := db.QueryContext(ctx, `SELECT coalesce(media_type, ''), coalesce(status, ''), count(*) FROM media GROUP BY 1, 2`)
	if err != nil {
		return nil, fmt.Errorf("count media: %w", err)
	}
	defer rows.Close()
	out := map[string]map[string]int{}
	for rows.Next() {
		var typ, status string
		var n int
		if err := rows.Scan(&typ, &status, &n); err != nil {
			return nil, fmt.Errorf("count media: %w", err)
		}
		if out[typ] == nil {
			out[typ] = map[string]int{}
		}
		out[typ][status] = n
	}
	return out, rows.Err()
}

// Keys calls fn with the light view of every record, ordered by id: what
// the title index and the duplicate search need, without the heavy text.
func (r *Media) Keys(ctx context.Context, fn func(domain.MediaKey) error) error {
	db, err := r.readDB()
	if err != nil {
		return err
	}
	rows, err := db.QueryContext(detached(ctx), `SELECT id, coalesce(parent_id, 0), coalesce(media_type, ''), coalesce(status, ''),
		coalesce(year, 0), coalesce(main_category, ''), coalesce(disk_name, ''), coalesce(title_norm, '') FROM media ORDER BY id`)
	if err != nil {
		return fmt.Errorf("read media keys: %w", err)
	}
	defer rows.Close()
	for n := 1; rows.Next(); n++ {
		if n%rowCheck == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		var k domain.MediaKey
		var norm string
		if err := rows.Scan(&k.ID, &k.ParentID, &k.Type, &k.Status, &k.Year, &k.Category, &k.Disk, &norm); err != nil {
			return fmt.Errorf("read media keys: %w", err)
		}
		k.Titles = strings.SplitN(norm, "|", len(r.cols.search))
		if err := fn(k); err != nil {
			return err
		}
	}
	return rows.Err()
}

// query runs a SELECT of r.cols.sel on the read pool and calls fn
// per row.
func (r *Media) query(ctx context.Context, q string, args []any, fn func(domain.Media) error) error {
	db, err := r.readDB()
	if err != nil {
		return err
	}
	rows, err := db.QueryContext(detached(ctx), q, args...)
	if err != nil {
		return fmt.Errorf("read media: %w", err)
	}
	defer rows.Close()
	rr := r.cols.reader()
	for n := 1; rows.Next(); n++ {
		if n%rowCheck == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		m, err := rr.read(rows)
		if err != nil {
			return fmt.Errorf("read media: %w", err)
		}
		if err := fn(m); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read media: %w", err)
	}
	return nil
}

// filterSQL turns a filter into a WHERE clause and its arguments.
func filterSQL(f domain.MediaFilter) (string, []any) {
	var conds []string
	var args []any
	if f.Type != "" {
		conds, args = append(conds, "media_type = ?"), append(args, f.Type)
	}
	if f.TopLevel {
		conds = append(conds, "media_type IN ('movie', 'series')")
	}
	switch f.Category {
	case "":
	case domain.CategoryUncategorized: // no category of the fixed list
		known := domain.Categories()
		conds = append(conds, "coalesce(main_category, '') NOT IN ("+placeholders(len(known))+")")
		for _, c := range known {
			args = append(args, c.Slug)
		}
	default:
		conds, args = append(conds, "main_category = ?"), append(args, f.Category)
	}
	if f.Disk != "" {
		conds, args = append(conds, "disk_name = ?"), append(args, f.Disk)
	}
	if f.Status != "" {
		conds, args = append(conds, "status = ?"), append(args, f.Status)
	}
	if f.AfterID > 0 {
		conds, args = append(conds, "id > ?"), append(args, f.AfterID)
	}
	if len(conds) == 0 {
		return "", nil
	}
	return " WHERE " + strings.Join(conds, " AND "), args
}

func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?,", n), ",")
}

func int64Args(ids []int64) []any {
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	return args
}
