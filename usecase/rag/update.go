package rag

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Start loads the stored index, when there is one of the configured
// embedder, and runs the loop that updates it after changes. Vectors of
// another embedder are not loaded: searches answer index_not_built until
// a build re-embeds everything with the new one.
func (s *Service) Start(ctx context.Context) error {
	if err := s.load(ctx); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stop != nil {
		return nil
	}
	s.stop, s.done = make(chan struct{}), make(chan struct{})
	go s.updateLoop(s.stop, s.done)
	return nil
}

// load reads the stored vectors of the configured embedder into memory.
func (s *Service) load(ctx context.Context) error {
	if s.emb == nil {
		return nil
	}
	want := identityOf(s.emb)
	cur, _, err := s.current(ctx, want)
	if err != nil || len(cur) == 0 {
		return err
	}
	docs, err := documents(ctx, s.media)
	if err != nil {
		return err
	}
	// An entry whose text changed while the server was down keeps its old
	// vector until the update asked for below replaces it: a slightly
	// stale vector finds more than none.
	var keep []entry
	for _, d := range docs {
		if e, ok := cur[d.id]; ok {
			e.kind, want.dims = d.kind, len(e.vec)
			keep = append(keep, e)
		}
	}
	if len(keep) == 0 {
		return nil
	}
	s.index.Store(newIndex(want, keep, s.opt.Now().UTC()))
	s.MediaChanged()
	return nil
}

// Stop ends the update loop, then cancels a running build and waits for
// it (at most until ctx ends), so the database can close under it. Later
// builds are refused.
func (s *Service) Stop(ctx context.Context) error {
	s.mu.Lock()
	stop, done := s.stop, s.done
	s.stop = nil
	s.mu.Unlock()
	if stop != nil {
		close(stop)
		select {
		case <-done:
		case <-ctx.Done():
			return fmt.Errorf("stop the RAG updates: %w", ctx.Err())
		}
	}
	return s.jobs.Stop(ctx)
}

// MediaChanged reports that catalogue records were written (a scan, an
// edit, a classification). Once an index is built, it is updated in the
// background within the update gap; before, nothing happens: the first
// build is someone's choice (a remote embedder costs money).
func (s *Service) MediaChanged() {
	if s.index.Load() == nil {
		return
	}
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

// updateLoop runs an update after each kick, no sooner than the gap after
// it, so a burst of changes costs one update. A build already running may
// have read the catalogue before the change: the update waits for it and
// runs after.
func (s *Service) updateLoop(stop, done chan struct{}) {
	defer close(done)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { <-stop; cancel() }()
	for {
		select {
		case <-stop:
			return
		case <-s.kick:
		}
		t := time.NewTimer(s.opt.UpdateGap)
		select {
		case <-stop:
			t.Stop()
			return
		case <-t.C:
		}
		s.update(ctx)
	}
}

// update runs one update, after the running build if there is one.
func (s *Service) update(ctx context.Context) {
	for ctx.Err() == nil && s.emb != nil {
		_, err := s.jobs.Run(ctx, s.buildJob(s.emb, false), nil)
		if !errors.Is(err, ErrRunning) {
			if err != nil {
				s.log.Warn("RAG index update did not start", "err", err.Error())
			}
			return
		}
		if s.jobs.Running() {
			s.jobs.Wait()
			continue
		}
		// `mediateka rag build` holds the lock: try again a gap later.
		sleep(ctx, s.opt.UpdateGap)
	}
}

// sleep waits d or until ctx ends, and reports whether d passed.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
