// Package watching is each account's watching state: how far it got with
// every movie and episode, which it watched, and what it may continue.
// Players report positions (PUT /api/media/{id}/progress, or a room's
// status_update); an entry counts as watched from domain.WatchedShare of
// its duration, or when marked. Reports are throttled (see throttle): a
// player reports every second, the store is written every few seconds.
package watching

import (
	"context"
	"fmt"
	"time"

	"mediateka/domain"
)

// Defaults of Options.
const (
	DefaultMinInterval = 5 * time.Second
	DefaultJumpSlack   = 10.0
)

// Options configure the service; zero values take the defaults.
type Options struct {
	// Now is the clock of updated_at and of the throttle.
	Now func() time.Time
	// MinInterval is the least time between two writes of one account's
	// position in one entry, unless it reaches watched or jumps.
	MinInterval time.Duration
	// JumpSlack is, in seconds, how far a position may stray from where
	// playback since the last write would have taken it before it counts
	// as a jump (a seek), which is written at once.
	JumpSlack float64
}

// Service is the watching-state use case.
type Service struct {
	store Store
	cat   Catalog
	now   func() time.Time
	th    *throttle
}

// New builds the service over the store of states and the catalogue the
// states are about.
func New(store Store, cat Catalog, opt Options) *Service {
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.MinInterval <= 0 {
		opt.MinInterval = DefaultMinInterval
	}
	if opt.JumpSlack <= 0 {
		opt.JumpSlack = DefaultJumpSlack
	}
	return &Service{store: store, cat: cat, now: opt.Now, th: newThrottle(opt.MinInterval, opt.JumpSlack)}
}

// Report keeps userID's position in mediaID, a movie or an episode (or a
// season that is one file):
// position and duration in seconds, 0 or more (duration 0: unknown), the
// position not past a known duration (a second of slack is taken as the
// end). From domain.WatchedShare of the duration the entry is marked
// watched; the mark then stays (a second viewing leaves it). Frequent
// reports are throttled: one that is dropped returns nil.
func (s *Service) Report(ctx context.Context, userID, mediaID int64, position, duration float64) error {
	position, err := domain.CheckProgress(position, duration)
	if err != nil {
		return err
	}
	now, k := s.now().UTC(), key{userID, mediaID}
	watched := domain.ReachesWatched(position, duration)
	if s.th.skip(k, position, watched, now) {
		return nil
	}
	if err := s.playable(ctx, mediaID); err != nil {
		return err
	}
	w := domain.WatchState{MediaID: mediaID, Position: position, Duration: duration, Watched: watched, UpdatedAt: now}
	if err := s.store.SaveProgress(ctx, userID, w); err != nil {
		return fmt.Errorf("save the position in %d: %w", mediaID, err)
	}
	s.th.wrote(k, position, watched, now)
	return nil
}

// SetWatched marks mediaID watched or not for userID and returns the
// state it leaves. Marking keeps the position; unmarking clears it, so
// the entry starts over and is not continued.
func (s *Service) SetWatched(ctx context.Context, userID, mediaID int64, watched bool) (domain.WatchState, error) {
	if err := s.playable(ctx, mediaID); err != nil {
		return domain.WatchState{}, err
	}
	w, err := s.store.SetWatched(ctx, userID, mediaID, watched, s.now().UTC())
	if err != nil {
		return domain.WatchState{}, fmt.Errorf("mark %d watched: %w", mediaID, err)
	}
	s.th.forget(key{userID, mediaID})
	return w, nil
}

// States is every state of userID by media id, for the entries an
// answer shows. The map may be shared: read it, never change it.
func (s *Service) States(ctx context.Context, userID int64) (map[int64]domain.WatchState, error) {
	st, err := s.store.States(ctx, userID)
	if err != nil {
		return nil, fmt.Errorf("read the watching state: %w", err)
	}
	return st, nil
}

// Position is where userID should resume mediaID: the stored position,
// or 0 when nothing is stored or the entry was watched.
func (s *Service) Position(ctx context.Context, userID, mediaID int64) (float64, error) {
	st, err := s.States(ctx, userID)
	if err != nil {
		return 0, err
	}
	return st[mediaID].ResumeAt(), nil
}

// Seen tells the offline assistant which of ids userID finished (watched)
// or started (see domain.WatchState.Started); the others are left out.
// Only an entry's own state counts: a series is not started by its
// episodes.
func (s *Service) Seen(ctx context.Context, userID int64, ids []int64) (map[int64]domain.Seen, error) {
	st, err := s.States(ctx, userID)
	if err != nil {
		return nil, err
	}
	out := map[int64]domain.Seen{}
	for _, id := range ids {
		switch w, ok := st[id]; {
		case ok && w.Watched:
			out[id] = domain.SeenFinished
		case ok && w.Started():
			out[id] = domain.SeenStarted
		}
	}
	return out, nil
}

// playable checks that id is what /play plays — a movie, an episode or a
// season that is one file — so whatever plays can be resumed:
// media_not_found or not_playable (a series or season folder) otherwise.
func (s *Service) playable(ctx context.Context, id int64) error {
	found, err := s.cat.Entries(ctx, []int64{id})
	if err != nil {
		return fmt.Errorf("load entry %d: %w", id, err)
	}
	if len(found) == 0 {
		return domain.ErrMediaNotFound
	}
	if !found[0].HasFile() {
		return domain.ErrNotPlayable
	}
	return nil
}
