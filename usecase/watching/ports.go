package watching

import (
	"context"
	"time"

	"mediateka/domain"
)

// Store keeps each account's watching state (repository/sqlstore's
// WatchStates implements it).
type Store interface {
	// States is every state of userID by media id; the map may be shared
	// with other callers: read it, never change it.
	States(ctx context.Context, userID int64) (map[int64]domain.WatchState, error)
	// SaveProgress stores a position and duration; w.Watched sets the
	// watched mark, a report without it keeps the stored mark.
	SaveProgress(ctx context.Context, userID int64, w domain.WatchState) error
	// SetWatched sets or clears the mark (clearing it clears the position)
	// and returns the state left.
	SetWatched(ctx context.Context, userID, mediaID int64, watched bool, at time.Time) (domain.WatchState, error)
	// Continue is a page of userID's started entries, most recently
	// updated first, and how many there are.
	Continue(ctx context.Context, userID int64, limit, offset int) ([]domain.WatchState, int64, error)
}

// Catalog loads the entries states are about (usecase/catalog's Service
// implements it).
type Catalog interface {
	// Entries returns the entries of ids in that order, leaving out ids
	// that do not exist.
	Entries(ctx context.Context, ids []int64) ([]domain.Media, error)
}
