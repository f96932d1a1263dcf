package catalog

import (
	"context"
	"fmt"
	"time"
)

// defaultRefreshGap is the least time between two builds of the title
// index when the background rebuilds it. Classification reports a change
// after every entry it fills; rebuilding after each (a third of a second
// of one core at 100 000 records) would keep a core busy for the whole
// job.
const defaultRefreshGap = 2 * time.Second

// refresher rebuilds a stale title index in the background while searches
// go on with the index they have: a search never waits for a rebuild
// once an index exists. Changes that a caller must see in its very next
// search (a person's edit, a finished scan) go through Settle instead.
type refresher struct {
	kick chan struct{} // one pending request to rebuild
	stop chan struct{}
	done chan struct{}
}

// MediaChanged reports that catalogue records were written. The index
// catches up in the background, within the gap (Options.IndexRefreshGap); searches meanwhile use
// the index they have. Without a running service (Start) the next search
// rebuilds it instead.
func (s *Service) MediaChanged() {
	s.changes.Add(1)
	if ix := s.index.Load(); ix != nil {
		ix.cached.clear()
	}
	s.kick()
}

// kick asks the background loop for a rebuild; it reports false when the
// loop does not run.
func (s *Service) kick() bool {
	r := s.refresh.Load()
	if r == nil {
		return false
	}
	select {
	case r.kick <- struct{}{}:
	default:
	}
	return true
}

// Settle brings the title index up to date with every change reported so
// far, rebuilding it now if needed. The scan calls it before it reports
// completion and an edit before it answers, so what they wrote is found
// by the next search, which itself never waits. With no index built yet
// there is nothing to bring up to date: the first search builds it.
func (s *Service) Settle(ctx context.Context) error {
	if s.index.Load() == nil {
		return nil
	}
	_, err := s.rebuild(ctx, s.changes.Load())
	return err
}

// Warm builds the index now if it is missing or stale, so the next search
// does not pay for it.
func (s *Service) Warm(ctx context.Context) error {
	_, err := s.rebuild(ctx, s.changes.Load())
	return err
}

// startRefresher runs the background rebuilds until stopRefresher.
func (s *Service) startRefresher() {
	r := &refresher{kick: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	if !s.refresh.CompareAndSwap(nil, r) {
		return
	}
	go s.refreshLoop(r)
}

// stopRefresher ends the background rebuilds and waits for a running one.
func (s *Service) stopRefresher() {
	r := s.refresh.Swap(nil)
	if r == nil {
		return
	}
	close(r.stop)
	<-r.done
}

// refreshLoop rebuilds the index after each kick, no sooner than the
// service's gap after the last build, until stop. A rebuild that fails is logged and tried again
// at the next change or search.
func (s *Service) refreshLoop(r *refresher) {
	defer close(r.done)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { <-r.stop; cancel() }()
	for {
		select {
		case <-r.stop:
			return
		case <-r.kick:
		}
		if ix := s.index.Load(); ix != nil {
			wait := time.NewTimer(time.Until(ix.builtAt.Add(s.gap)))
			select {
			case <-r.stop:
				wait.Stop()
				return
			case <-wait.C:
			}
		}
		if _, err := s.rebuild(ctx, s.changes.Load()); err != nil && ctx.Err() == nil {
			s.log.Warn("title index rebuild failed", "err", err.Error())
		}
	}
}

// rebuild makes sure the index reflects at least the first want changes,
// building it once (concurrent callers wait for that one build). A change
// is counted after its rows are written, so an index built after reading
// the count holds every change up to it.
func (s *Service) rebuild(ctx context.Context, want uint64) (*titleIndex, error) {
	s.buildMu.Lock()
	defer s.buildMu.Unlock()
	if ix := s.index.Load(); ix != nil && ix.changes >= want {
		return ix, nil
	}
	at := s.changes.Load()
	ix, err := buildIndex(ctx, s.repo, s.now())
	if err != nil {
		return nil, fmt.Errorf("build the title index: %w", err)
	}
	ix.changes, ix.builtAt = at, time.Now()
	s.index.Store(ix)
	return ix, nil
}
