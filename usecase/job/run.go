package job

import (
	"context"
	"fmt"
	"runtime/debug"
	"sync"
	"time"

	"mediateka/domain"
)

// run is one claim of the slot, from claim to finish.
type run struct {
	ctx    context.Context
	cancel context.CancelFunc
	unlock func()
	done   chan struct{}
}

// claim takes the one slot (and the cross-process lock), resets the status
// to running and announces the start.
func (r *Runner[C, E]) claim(ctx context.Context, j Job[C, E]) (*run, error) {
	r.mu.Lock()
	unlock, err := r.takeSlotLocked()
	if err != nil {
		r.mu.Unlock()
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	rn := &run{ctx: ctx, cancel: cancel, unlock: unlock, done: make(chan struct{})}
	r.cancel, r.done = cancel, rn.done
	r.status = Status[C, E]{State: domain.JobRunning, ID: j.ID, StartedAt: r.opt.Now().UTC(), Counters: j.Counters}
	r.version++
	r.mu.Unlock()
	r.announce.Lock()
	r.publish(j.Started)
	r.announce.Unlock()
	return rn, nil
}

// takeSlotLocked checks that nothing runs here and takes the cross-process
// lock; the caller holds r.mu and calls the returned unlock when done.
func (r *Runner[C, E]) takeSlotLocked() (unlock func(), err error) {
	if r.cancel != nil || r.stopped {
		return nil, r.opt.Conflict
	}
	if r.opt.Lock == nil {
		return func() {}, nil
	}
	u, ok, err := r.opt.Lock.TryLock()
	if err != nil {
		return nil, fmt.Errorf("take the %s lock: %w", r.opt.Name, err)
	}
	if !ok {
		return nil, r.opt.Conflict
	}
	return u, nil
}

// Exclusive runs fn while holding the slot, here and across processes, so
// no run starts until fn returns: a change a run must not see half-done
// (the library folders a scan walks). A run going on is the Conflict error
// and fn does not run.
func (r *Runner[C, E]) Exclusive(fn func() error) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	unlock, err := r.takeSlotLocked()
	if err != nil {
		return err
	}
	defer unlock()
	return fn()
}

// execute does the work with progress reports and records the outcome.
func (r *Runner[C, E]) execute(rn *run, work func(context.Context, *Progress[C, E]) error, progress func(Status[C, E])) Status[C, E] {
	stop := r.reportProgress(progress)
	err := r.guard(rn.ctx, work)
	stop()
	return r.finish(rn, err)
}

// guard runs work and turns a panic into the run's failure, so a bug in
// one job cannot keep the slot (and the scan lock) taken until a restart.
func (r *Runner[C, E]) guard(ctx context.Context, work func(context.Context, *Progress[C, E]) error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			r.log.Error(r.opt.Name+" panicked", "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			err = fmt.Errorf("%s panicked: %v", r.opt.Name, p)
		}
	}()
	return work(ctx, &Progress[C, E]{r: r})
}

// finish records the outcome, frees the lock and the slot (in that order,
// so a listener hearing the end can start the next run at once), then
// announces the end and wakes Wait and Stop. announce is held from before
// the slot frees until the end is out, so a run started meanwhile
// announces itself after this one's end.
func (r *Runner[C, E]) finish(rn *run, err error) Status[C, E] {
	r.announce.Lock()
	defer r.announce.Unlock()
	rn.unlock()
	r.mu.Lock()
	st := &r.status
	st.FinishedAt = r.opt.Now().UTC()
	switch {
	case err == nil:
		st.State = domain.JobCompleted
	case rn.ctx.Err() != nil:
		st.State = domain.JobCancelled
	default:
		st.State = domain.JobFailed
		r.log.Error(r.opt.Name+" failed", "id", st.ID, "err", err.Error())
	}
	if err != nil && r.opt.Failure != nil {
		st.Failure = r.opt.Failure(st.State, err)
	}
	final := r.copyLocked()
	r.cancel, r.done = nil, nil
	r.mu.Unlock()
	rn.cancel()
	r.log.Info(r.opt.Name+" finished", "id", final.ID, "state", final.State,
		"duration_ms", final.Duration().Milliseconds(), "counters", final.Counters, "errors", final.ErrorCount)
	if r.opt.Finished != nil {
		r.publish(r.opt.Finished(final))
	}
	close(rn.done)
	return final
}

// reportProgress publishes the progress event (and calls progress) once
// per interval in which the status changed; the returned func stops it.
func (r *Runner[C, E]) reportProgress(progress func(Status[C, E])) func() {
	t := time.NewTicker(r.opt.ProgressEvery)
	done := make(chan struct{})
	var wg sync.WaitGroup
	r.mu.Lock()
	seen := r.version
	r.mu.Unlock()
	wg.Go(func() {
		for {
			select {
			case <-t.C:
				r.mu.Lock()
				changed, st := r.version != seen, r.copyLocked()
				seen = r.version
				r.mu.Unlock()
				if !changed {
					continue
				}
				if r.opt.Progress != nil {
					r.publish(r.opt.Progress(st))
				}
				if progress != nil {
					progress(st)
				}
			case <-done:
				return
			}
		}
	})
	return func() { close(done); wg.Wait(); t.Stop() }
}

// Progress is how a running job reports: counters and problems it met.
// It is safe for concurrent use by the job's goroutines.
type Progress[C, E any] struct {
	r *Runner[C, E]
}

// Update changes the counters under the runner's lock.
func (p *Progress[C, E]) Update(fn func(c *C)) {
	p.r.mu.Lock()
	fn(&p.r.status.Counters)
	p.r.version++
	p.r.mu.Unlock()
}

// Error records a problem; the status keeps the first Options.MaxErrors
// and counts them all.
func (p *Progress[C, E]) Error(e E) {
	r := p.r
	r.mu.Lock()
	r.status.ErrorCount++
	if len(r.status.Errors) < r.opt.MaxErrors {
		r.status.Errors = append(r.status.Errors, e)
	}
	r.version++
	r.mu.Unlock()
}
