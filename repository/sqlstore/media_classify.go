package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"slices"

	"mediateka/domain"
)

// Unclassified calls fn for every movie and series on disk (status not
// missing) that the AI model has not yet answered for, ordered by id.
// Classification after a scan works through exactly these.
func (r *Media) Unclassified(ctx context.Context, fn func(domain.Media) error) error {
	return r.query(ctx, `SELECT `+r.cols.sel+` FROM media
		WHERE media_type IN ('movie', 'series') AND classified_at IS NULL AND coalesce(status, '') <> ?
		ORDER BY id`, []any{domain.StatusMissing}, fn)
}

// FillMissing writes the named columns of values into record id, but only
// those that are still empty and that no person edited, reading the row in
// the same write transaction: an edit or a scan that lands while the model
// is thinking is never overwritten. It stamps classified_at and returns
// the columns it wrote.
func (r *Media) FillMissing(ctx context.Context, id int64, values domain.Media, columns []string) ([]string, error) {
	var written []string
	_, err := r.inTx(ctx, func(w *batchWriter) error {
		dctx := detached(ctx)
		cur, err := r.cols.reader().read(w.tx.QueryRowContext(dctx, `SELECT `+r.cols.sel+` FROM media WHERE id = ?`, id))
		if err == sql.ErrNoRows {
			return domain.ErrMediaNotFound.Wrap(err)
		}
		if err != nil {
			return fmt.Errorf("load media %d: %w", id, err)
		}
		for _, c := range columns {
			if r.cols.value(&cur, c) == nil && !cur.Edited(c) && r.cols.value(&values, c) != nil {
				written = append(written, c)
			}
		}
		values.ID = id
		if err := w.update(dctx, &values, slices.Clone(written)); err != nil {
			return err
		}
		_, err = w.tx.ExecContext(dctx, `UPDATE media SET classified_at = ? WHERE id = ?`, w.now, id)
		if err != nil {
			return fmt.Errorf("mark media %d classified: %w", id, err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return written, nil
}
