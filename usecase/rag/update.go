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
	if s.cancel != nil {
		return nil
	}
	loop, cancel := context.WithCancel(context.Background())
	s.cancel, s.done = cancel, make(chan struct{})
	go s.updateLoop(loop, s.done)
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

// Stop ends the update loop and cancels a running build, then waits for
// both (at most until ctx ends), so the database can close under them.
// Later builds are refused.
func (s *Service) Stop(ctx context.Context) error {
	s.mu.Lock()
	cancel, done := s.cancel, s.done
	s.cancel, s.done = nil, nil
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	// The build is cancelled before the loop is waited for: an update may
	// be waiting for it.
	err := s.jobs.Stop(ctx)
	if done != nil {
		select {
		case <-done:
		case <-ctx.Done():
			return fmt.Errorf("stop the RAG updates: %w", ctx.Err())
		}
	}
	return err
}

// MediaChanged reports that catalogue records were written (a scan, an
// edit, a classification). Once an index is built, it is updated in the
// background within the update gap, and a change during a build (the
// first too) after it; before, nothing happens: the first build is
// someone's choice (a remote embedder costs money).
func (s *Service) MediaChanged() {
	if s.index.Load() == nil && !s.jobs.Running() {
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
func (s *Service) updateLoop(ctx context.Context, done chan struct{}) {
	defer close(done)
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.kick:
		}
		if !sleep(ctx, s.opt.UpdateGap) {
			return
		}
		s.update(ctx)
	}
}

// update runs one update, after the running build if there is one.
func (s *Service) update(ctx context.Context) {
	for ctx.Err() == nil && s.emb != nil {
		if s.index.Load() == nil && !s.jobs.Running() {
			return // the first build failed or was cancelled: nothing to update
		}
		_, err := s.jobs.Run(ctx, s.buildJob(s.emb, false), nil)
		if !errors.Is(err, ErrRunning) {
			if err != nil {
				s.log.Warn("RAG index update did not start", "err", err.Error())
			}
			return
		}
		if s.jobs.Running() {
			s.waitBuild(ctx)
			continue
		}
		// `mediateka rag build` holds the lock: try again a gap later.
		sleep(ctx, s.opt.UpdateGap)
	}
}

// waitBuild waits until the build running in this process ends or ctx
// does.
func (s *Service) waitBuild(ctx context.Context) {
	ended := make(chan struct{})
	go func() { s.jobs.Wait(); close(ended) }() // ends with the build, which Stop cancels
	select {
	case <-ctx.Done():
	case <-ended:
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
