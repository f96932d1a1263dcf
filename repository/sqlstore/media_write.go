package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mattn/go-sqlite3"

	"mediateka/domain"
)

// batchWriter applies writes inside one transaction of the writer
// connection, with prepared statements reused across the batch: a scan
// writes thousands of rows per transaction, and GORM's reflection would
// cost more than SQLite itself.
type batchWriter struct {
	r        *Media
	tx       *sql.Tx
	now      time.Time
	nowText  string
	stmts    map[string]*sql.Stmt
	inserts  map[uint64]*sql.Stmt // by the set of columns an insert names
	inserted map[string]int64
	// norms memoises title_norm by the raw titles for the transaction:
	// the episodes of a series share theirs.
	norms map[string]string
}

// inTx runs fn in one write transaction; a failure rolls everything back.
func (r *Media) inTx(ctx context.Context, fn func(w *batchWriter) error) (map[string]int64, error) {
	db, err := r.s.writer.DB()
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// The transaction runs on a detached context (see detached); fn checks
	// ctx between rows, and a cancelled batch is rolled back whole.
	tx, err := db.BeginTx(detached(ctx), nil)
	if err != nil {
		return nil, fmt.Errorf("begin media write: %w", err)
	}
	w := &batchWriter{r: r, tx: tx, now: time.Now().UTC(), stmts: map[string]*sql.Stmt{},
		inserts: map[uint64]*sql.Stmt{}, inserted: map[string]int64{}, norms: map[string]string{}}
	defer func() {
		for _, st := range w.stmts {
			_ = st.Close()
		}
	}()
	if err := fn(w); err != nil {
		_ = tx.Rollback()
		return nil, err
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("commit media write: %w", err)
	}
	return w.inserted, nil
}

// ApplyScan writes one scan batch in a single transaction, so a crash or a
// cancelled scan leaves either the whole batch or none of it. Inserts
// resolve ParentPath against rows inserted earlier in the batch. It returns
// the ids of the inserted rows by path.
func (r *Media) ApplyScan(ctx context.Context, changes []domain.MediaChange) (map[string]int64, error) {
	return r.inTx(ctx, func(w *batchWriter) error {
		for i := range changes {
			if i%rowCheck == 0 && ctx.Err() != nil {
				return ctx.Err()
			}
			if err := w.apply(detached(ctx), &changes[i]); err != nil {
				return err
			}
		}
		return nil
	})
}

// Update writes the named columns of m (an edit) and returns the record.
func (r *Media) Update(ctx context.Context, m domain.Media, columns []string) (domain.Media, error) {
	_, err := r.inTx(ctx, func(w *batchWriter) error {
		return w.update(detached(ctx), &m, columns)
	})
	if err != nil {
		return domain.Media{}, err
	}
	return r.ByID(ctx, m.ID)
}

func (w *batchWriter) apply(ctx context.Context, c *domain.MediaChange) error {
	if c.ParentPath != "" {
		id, ok := w.inserted[c.ParentPath]
		if !ok {
			return fmt.Errorf("media write: parent %q is not in the batch", c.ParentPath)
		}
		c.Media.ParentID = id
	}
	if c.Media.ID == 0 {
		return w.insert(ctx, &c.Media)
	}
	return w.update(ctx, &c.Media, c.Columns)
}

// stamp is the batch's time as the driver writes a time.Time, formatted
// once per batch rather than twice per row.
func (w *batchWriter) stamp() string {
	if w.nowText == "" {
		w.nowText = w.now.Format(sqlite3.SQLiteTimestampFormats[0])
	}
	return w.nowText
}

func (w *batchWriter) stmt(ctx context.Context, q string) (*sql.Stmt, error) {
	if st, ok := w.stmts[q]; ok {
		return st, nil
	}
	st, err := w.tx.PrepareContext(ctx, q)
	if err != nil {
		return nil, fmt.Errorf("prepare media write: %w", err)
	}
	w.stmts[q] = st
	return st, nil
}

// insert writes a new row. Only the columns that hold a value are named:
// a scanned file has a dozen of the thirty, and binding the rest as NULL
// one by one costs more than the insert itself. Statements are prepared
// once per set of columns.
func (w *batchWriter) insert(ctx context.Context, m *domain.Media) error {
	cols := w.r.cols.insert
	args := make([]any, 0, len(cols)+3)
	var set uint64
	for i, c := range cols {
		if v := w.r.cols.valueAt(i, c, m); v != nil {
			set |= 1 << i
			args = append(args, v)
		}
	}
	stamp := w.stamp()
	args = append(args, w.titleNorm(m), stamp, stamp)
	st, ok := w.inserts[set]
	if !ok {
		named := make([]string, 0, len(args))
		for i, c := range cols {
			if set&(1<<i) != 0 {
				named = append(named, quoteColumn(c))
			}
		}
		named = append(named, "title_norm", "created_at", "updated_at")
		var err error
		if st, err = w.stmt(ctx, `INSERT INTO media (`+strings.Join(named, ", ")+`) VALUES (`+placeholders(len(named))+`)`); err != nil {
			return err
		}
		w.inserts[set] = st
	}
	res, err := st.ExecContext(ctx, args...)
	if err != nil {
		return mapSQLErr(err, "media "+m.Path)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return fmt.Errorf("insert media %s: %w", m.Path, err)
	}
	m.ID = id
	w.inserted[m.Path] = id
	return nil
}

// titleNorm is Media.titleNorm, memoised for the transaction by the raw
// titles.
func (w *batchWriter) titleNorm(m *domain.Media) string {
	var key strings.Builder
	for _, f := range w.r.cols.search {
		key.WriteString(*f.Ref(m).(*string))
		key.WriteByte(0)
	}
	if norm, ok := w.norms[key.String()]; ok {
		return norm
	}
	norm := w.r.titleNorm(m)
	w.norms[key.String()] = norm
	return norm
}

// update sets columns of record m.ID. A new size or mtime clears the
// content hash (the file changed); a new title recomputes title_norm.
func (w *batchWriter) update(ctx context.Context, m *domain.Media, columns []string) error {
	if len(columns) == 0 {
		return nil
	}
	sets := make([]string, 0, len(columns)+2)
	args := make([]any, 0, len(columns)+2)
	for _, c := range columns {
		sets = append(sets, quoteColumn(c)+" = ?")
		args = append(args, w.r.cols.value(m, c))
	}
	if slices.Contains(columns, "size") || slices.Contains(columns, "mtime") {
		sets = append(sets, "content_hash = NULL")
	}
	sets = append(sets, "updated_at = ?")
	args = append(args, w.now, m.ID)
	st, err := w.stmt(ctx, `UPDATE media SET `+strings.Join(sets, ", ")+` WHERE id = ?`)
	if err != nil {
		return err
	}
	res, err := st.ExecContext(ctx, args...)
	if err != nil {
		return mapSQLErr(err, "media")
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return domain.ErrMediaNotFound
	}
	if slices.ContainsFunc(columns, w.r.cols.searchable) {
		return w.refreshTitleNorm(ctx, m.ID)
	}
	return nil
}

// refreshTitleNorm recomputes title_norm from the stored searchable
// fields, some of which the update may have left alone (a person's edits).
func (w *batchWriter) refreshTitleNorm(ctx context.Context, id int64) error {
	search := w.r.cols.search
	vals := make([]sql.NullString, len(search))
	dest := make([]any, len(search))
	for i := range vals {
		dest[i] = &vals[i]
	}
	err := w.tx.QueryRowContext(ctx, `SELECT `+w.r.cols.searchSel+` FROM media WHERE id = ?`, id).Scan(dest...)
	if err != nil {
		return fmt.Errorf("read titles of media %d: %w", id, err)
	}
	var m domain.Media
	for i, f := range search {
		*f.Ref(&m).(*string) = vals[i].String
	}
	_, err = w.tx.ExecContext(ctx, `UPDATE media SET title_norm = ? WHERE id = ?`, w.titleNorm(&m), id)
	if err != nil {
		return fmt.Errorf("update titles of media %d: %w", id, err)
	}
	return nil
}

// mapSQLErr is mapErr for statements run outside GORM, whose driver errors
// GORM has not translated: a unique violation is a Conflict.
func mapSQLErr(err error, what string) error {
	var se sqlite3.Error
	if errors.As(err, &se) && (se.ExtendedCode == sqlite3.ErrConstraintUnique || se.ExtendedCode == sqlite3.ErrConstraintPrimaryKey) {
		return domain.ErrConflict(what + " already exists").Wrap(err)
	}
	return mapErr(err, what)
}

// MarkMissing sets status "missing" on the given records that are not
// missing yet and returns how many changed. Rows are never deleted.
func (r *Media) MarkMissing(ctx context.Context, ids []int64) (int, error) {
	changed := 0
	for start := 0; start < len(ids); start += 500 {
		chunk := ids[start:min(start+500, len(ids))]
		_, err := r.inTx(ctx, func(w *batchWriter) error {
			res, err := w.tx.ExecContext(detached(ctx), `UPDATE media SET status = ?, updated_at = ?
				WHERE status IS NOT ? AND id IN (`+placeholders(len(chunk))+`)`,
				append([]any{domain.StatusMissing, w.now, domain.StatusMissing}, int64Args(chunk)...)...)
			if err != nil {
				return fmt.Errorf("mark media missing: %w", err)
			}
			n, _ := res.RowsAffected()
			changed += int(n)
			return nil
		})
		if err != nil {
			return changed, err
		}
	}
	return changed, nil
}

// SetContentHashes stores partial content hashes, each only if the file
// still has the size it was hashed at.
func (r *Media) SetContentHashes(ctx context.Context, hashes []domain.FileHash) error {
	_, err := r.inTx(ctx, func(w *batchWriter) error {
		ctx := detached(ctx)
		st, err := w.stmt(ctx, `UPDATE media SET content_hash = ? WHERE id = ? AND size = ?`)
		if err != nil {
			return err
		}
		for _, h := range hashes {
			if _, err := st.ExecContext(ctx, h.Hash, h.ID, h.Size); err != nil {
				return fmt.Errorf("store content hash: %w", err)
			}
		}
		return nil
	})
	return err
}

// SharedSizeFiles returns the present video files whose size at least one
// other present file has, ordered by size: the only candidates for
// same-content duplicates.
func (r *Media) SharedSizeFiles(ctx context.Context) ([]domain.FileHash, error) {
	db, err := r.readDB()
	if err != nil {
		return nil, err
	}
	const files = `mtime IS NOT NULL AND status = 'ok' AND size > 0`
	rows, err := db.QueryContext(detached(ctx), `SELECT id, path, size, coalesce(content_hash, '') FROM media WHERE `+files+`
		AND size IN (SELECT size FROM media WHERE `+files+` GROUP BY size HAVING count(*) > 1) ORDER BY size, id`)
	if err != nil {
		return nil, fmt.Errorf("read file sizes: %w", err)
	}
	defer rows.Close()
	var out []domain.FileHash
	for rows.Next() {
		var h domain.FileHash
		if err := rows.Scan(&h.ID, &h.Path, &h.Size, &h.Hash); err != nil {
			return nil, fmt.Errorf("read file sizes: %w", err)
		}
		out = append(out, h)
	}
	return out, rows.Err()
}

// LogSearches appends rows to search_history in one transaction.
func (r *Media) LogSearches(ctx context.Context, recs []domain.SearchRecord) error {
	if len(recs) == 0 {
		return nil
	}
	_, err := r.inTx(ctx, func(w *batchWriter) error {
		ctx := detached(ctx)
		st, err := w.stmt(ctx, `INSERT INTO search_history (query, timestamp, results_count) VALUES (?, ?, ?)`)
		if err != nil {
			return err
		}
		for _, rec := range recs {
			at := rec.At
			if at.IsZero() {
				at = w.now
			}
			if _, err := st.ExecContext(ctx, rec.Query, at.UTC(), rec.ResultsCount); err != nil {
				return fmt.Errorf("log search: %w", err)
			}
		}
		return nil
	})
	return err
}
