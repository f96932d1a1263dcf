package sqlstore

import (
	"context"
	"fmt"
	"time"

	"mediateka/domain"
)

// PruneSearches keeps search_history bounded: rows written before cutoff
// go, then the oldest rows beyond the newest keep. It runs after every
// batch of searches, so it must not scan the table: ids follow writing
// time and rows only ever go from the oldest end, so both deletes are id
// ranges found through the primary key — the first row not older than
// cutoff, and max(id) - keep — costing what they delete, not the table.
func (r *Media) PruneSearches(ctx context.Context, keep int, cutoff time.Time) error {
	_, err := r.inTx(ctx, func(w *batchWriter) error {
		ctx := detached(ctx)
		_, err := w.tx.ExecContext(ctx, `DELETE FROM search_history WHERE id < coalesce(
			(SELECT id FROM search_history WHERE timestamp >= ? ORDER BY id LIMIT 1),
			(SELECT max(id) + 1 FROM search_history))`, cutoff.UTC())
		if err != nil {
			return fmt.Errorf("prune search history by age: %w", err)
		}
		_, err = w.tx.ExecContext(ctx, `DELETE FROM search_history WHERE id <=
			(SELECT max(id) FROM search_history) - ?`, keep)
		if err != nil {
			return fmt.Errorf("prune search history by size: %w", err)
		}
		return nil
	})
	return err
}

// Searches returns the search history, oldest first.
func (r *Media) Searches(ctx context.Context) ([]domain.SearchRecord, error) {
	db, err := r.readDB()
	if err != nil {
		return nil, err
	}
	rows, err := db.QueryContext(ctx, `SELECT query, coalesce(results_count, 0), timestamp FROM search_history ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("read search history: %w", err)
	}
	defer rows.Close()
	var out []domain.SearchRecord
	for rows.Next() {
		var rec domain.SearchRecord
		if err := rows.Scan(&rec.Query, &rec.ResultsCount, &rec.At); err != nil {
			return nil, fmt.Errorf("read search history: %w", err)
		}
		out = append(out, rec)
	}
	return out, rows.Err()
}
