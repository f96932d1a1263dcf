// Package watching is each account's watching state: how far it got with
// every movie and episode, which it watched, and what it may continue.
// Players report positions (a room's status_update) and pages save them
// (PUT /api/media/{id}/progress); an entry counts as watched from
// domain.WatchedShare of its duration, or when marked. A playing player's
// reports are throttled (see throttle): it reports every second, the
// store is written every few seconds, and the last dropped report is
// written when playback pauses, stops, moves on or leaves (Save, Flush).
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
// season that is one file), as a playing player reports it every second:
// position and duration in seconds, 0 or more (duration 0: unknown), the
// position not past a known duration (a second of slack is taken as the
// end). From domain.WatchedShare of the duration the entry is marked
// watched; the mark then stays (a second viewing leaves it). Frequent
// reports are throttled: one that is dropped returns nil and is held
// until Flush (or a later write) so the last position is never lost.
func (s *Service) Report(ctx context.Context, userID, mediaID int64, position, duration float64) error {
	position, err := domain.CheckProgress(position, duration)
	if err != nil {
		return err
	}
	k, r := key{userID, mediaID}, report{position: position, duration: duration, at: s.now().UTC()}
	if s.th.skip(k, r, domain.ReachesWatched(position, duration)) {
		return nil
	}
	return s.write(ctx, k, r)
}

// Save keeps userID's position in mediaID at once, whatever the throttle:
// what a page saves itself (PUT /progress, every few seconds and when the
// viewer pauses or leaves) and what a player reports when it pauses. The
// rules of Report apply otherwise; a report held for the entry is
// replaced.
func (s *Service) Save(ctx context.Context, userID, mediaID int64, position, duration float64) error {
	position, err := domain.CheckProgress(position, duration)
	if err != nil {
		return err
	}
	return s.write(ctx, key{userID, mediaID}, report{position: position, duration: duration, at: s.now().UTC()})
}

// Flush writes the last report of userID in mediaID that the throttle
// dropped, if there is one: the player stopped, moved on to another entry
// or left, and its last position must not stay behind.
func (s *Service) Flush(ctx context.Context, userID, mediaID int64) error {
	k := key{userID, mediaID}
	r, ok := s.th.take(k)
	if !ok {
		return nil
	}
	if err := s.write(ctx, k, r); err != nil {
		s.th.restore(k, r) // held again, so a later flush can still write it
		return err
	}
	return nil
}

// write stores a checked report of k as of r.at.
func (s *Service) write(ctx context.Context, k key, r report) error {
	if err := s.playable(ctx, k.media); err != nil {
		return err
	}
	watched := domain.ReachesWatched(r.position, r.duration)
	w := domain.WatchState{MediaID: k.media, Position: r.position, Duration: r.duration, Watched: watched, UpdatedAt: r.at}
	if err := s.store.SaveProgress(ctx, k.user, w); err != nil {
		return fmt.Errorf("save the position in %d: %w", k.media, err)
	}
	s.th.wrote(k, r.position, watched, r.at)
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
