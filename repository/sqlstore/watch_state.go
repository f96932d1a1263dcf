package sqlstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/mattn/go-sqlite3"

	"mediateka/domain"
)

// WatchStates is the watching-state repository: each account's position,
// duration and watched mark per movie or episode (table watch_state).
type WatchStates struct {
	s *Store
	// byUser keeps each account's whole state, which every list of
	// entries an account asks for reads once, until anyone writes to the
	// database (the shared rule of readCache).
	byUser *readCache[int64, map[int64]domain.WatchState]
}

// statesCached bounds the accounts whose states are kept in memory.
const statesCached = 256

// NewWatchStates returns the watching-state repository of s.
func NewWatchStates(s *Store) *WatchStates {
	return &WatchStates{s: s, byUser: newReadCache[int64, map[int64]domain.WatchState](s.changes, statesCached)}
}

// continueWhere selects an account's rows that continue watching lists:
// begun, not watched, short of domain.WatchedShare. Its first two terms
// are the condition of the partial index idx_watch_state_continue, so
// SQLite reads the index.
const continueWhere = `user_id = ? AND watched = 0 AND position > 0 AND (duration = 0 OR position < ? * duration)`

// States returns every state of userID by media id. The map is shared by
// every caller until the database changes: read it, never change it.
func (r *WatchStates) States(ctx context.Context, userID int64) (map[int64]domain.WatchState, error) {
	return r.byUser.get(userID, func() (map[int64]domain.WatchState, error) {
		out := map[int64]domain.WatchState{}
		err := r.read(ctx, `SELECT media_id, position, duration, watched, updated_at FROM watch_state WHERE user_id = ?`,
			[]any{userID}, func(w domain.WatchState) { out[w.MediaID] = w })
		return out, err
	})
}

// Continue returns a page of userID's started entries (see continueWhere),
// most recently updated first, and how many there are in all.
func (r *WatchStates) Continue(ctx context.Context, userID int64, limit, offset int) ([]domain.WatchState, int64, error) {
	db, err := r.s.reader.DB()
	if err != nil {
		return nil, 0, err
	}
	var total int64
	if err := db.QueryRowContext(detached(ctx), `SELECT count(*) FROM watch_state WHERE `+continueWhere,
		userID, domain.WatchedShare).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count continue watching: %w", err)
	}
	out := []domain.WatchState{}
	if limit == 0 || int64(offset) >= total {
		return out, total, nil
	}
	err = r.read(ctx, `SELECT media_id, position, duration, watched, updated_at FROM watch_state WHERE `+continueWhere+`
		ORDER BY updated_at DESC, media_id DESC LIMIT ? OFFSET ?`,
		[]any{userID, domain.WatchedShare, limit, offset}, func(w domain.WatchState) { out = append(out, w) })
	return out, total, err
}

// read calls fn for each state row q selects.
func (r *WatchStates) read(ctx context.Context, q string, args []any, fn func(domain.WatchState)) error {
	db, err := r.s.reader.DB()
	if err != nil {
		return err
	}
	rows, err := db.QueryContext(detached(ctx), q, args...)
	if err != nil {
		return fmt.Errorf("read watching state: %w", err)
	}
	defer rows.Close()
	for n := 1; rows.Next(); n++ {
		if n%rowCheck == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		var w domain.WatchState
		if err := rows.Scan(&w.MediaID, &w.Position, &w.Duration, &w.Watched, &w.UpdatedAt); err != nil {
			return fmt.Errorf("read watching state: %w", err)
		}
		w.UpdatedAt = w.UpdatedAt.UTC()
		fn(w)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read watching state: %w", err)
	}
	return nil
}

// SaveProgress stores a reported position and duration of w.MediaID for
// userID. The watched mark only ever goes on here: a report with
// w.Watched sets it, one without keeps what is stored (a second viewing
// of a watched film leaves it watched). An entry that no longer exists
// is media_not_found.
func (r *WatchStates) SaveProgress(ctx context.Context, userID int64, w domain.WatchState) error {
	_, err := r.upsert(ctx, `INSERT INTO watch_state (user_id, media_id, position, duration, watched, updated_at)
		VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (user_id, media_id) DO UPDATE SET position = excluded.position, duration = excluded.duration,
			watched = max(watched, excluded.watched), updated_at = excluded.updated_at
		RETURNING media_id, position, duration, watched, updated_at`,
		userID, w.MediaID, w.Position, w.Duration, w.Watched, w.UpdatedAt.UTC())
	return err
}

// SetWatched marks mediaID watched or not for userID at at and returns
// the state it leaves: marking watched keeps the position, unmarking
// clears it (the entry starts over and leaves continue watching).
func (r *WatchStates) SetWatched(ctx context.Context, userID, mediaID int64, watched bool, at time.Time) (domain.WatchState, error) {
	return r.upsert(ctx, `INSERT INTO watch_state (user_id, media_id, position, duration, watched, updated_at)
		VALUES (?, ?, 0, 0, ?, ?)
		ON CONFLICT (user_id, media_id) DO UPDATE SET watched = excluded.watched,
			position = CASE WHEN excluded.watched = 1 THEN position ELSE 0 END, updated_at = excluded.updated_at
		RETURNING media_id, position, duration, watched, updated_at`,
		userID, mediaID, watched, at.UTC())
}

// upsert runs one INSERT … RETURNING on the writer and reads the row it
// leaves.
func (r *WatchStates) upsert(ctx context.Context, q string, args ...any) (domain.WatchState, error) {
	db, err := r.s.writer.DB()
	if err != nil {
		return domain.WatchState{}, err
	}
	var w domain.WatchState
	err = db.QueryRowContext(ctx, q, args...).Scan(&w.MediaID, &w.Position, &w.Duration, &w.Watched, &w.UpdatedAt)
	var se sqlite3.Error
	if errors.As(err, &se) && se.ExtendedCode == sqlite3.ErrConstraintForeignKey {
		return domain.WatchState{}, domain.ErrMediaNotFound.Wrap(err)
	}
	if err != nil {
		return domain.WatchState{}, fmt.Errorf("write watching state: %w", err)
	}
	w.UpdatedAt = w.UpdatedAt.UTC()
	return w, nil
}
