// Package job runs the server's long background jobs (the library scan,
// AI classification; later the RAG build, log analysis and torrent
// relocation) on one state machine: one run at a time, idle → running →
// completed, failed or cancelled, with progress counters, a capped error
// list, start and finish times, a failure reason, and events at the start,
// at most once per progress interval while something changed, and at the
// end. Every job had its own copy of this machine; each copy was one more
// place for a cancel, a shutdown or a lost event to go wrong.
//
// The Runner is generic in the job's counters C and its error entries E
// rather than holding an interface or a map: a use case reads and updates
// its own typed fields without assertions, a status copy is a plain value
// copy under the runner's lock, and the job's event builders get typed
// statuses, so a scan cannot publish classification counters.
package job

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"mediateka/domain"
)

// ErrNotRunning is what Cancel answers when nothing runs and the options
// name no error of their own.
var ErrNotRunning = domain.NewError(domain.KindConflict, "job_not_running", "no job is running")

// Publisher sends events to live listeners; it must never block.
type Publisher interface {
	Publish(e domain.Event)
}

// Locker keeps two processes (the server and the command line) from
// running the same job at once. TryLock returns ok=false when another
// holds the lock.
type Locker interface {
	TryLock() (unlock func(), ok bool, err error)
}

// Status is the progress and outcome of the current or last run. C are the
// job's own counters; Errors keeps the first Options.MaxErrors problems and
// ErrorCount counts them all.
type Status[C, E any] struct {
	State      domain.JobState
	ID         string
	StartedAt  time.Time
	FinishedAt time.Time
	Counters   C
	Errors     []E
	ErrorCount int
	// Failure says why a run failed (or was cancelled), in words fit for
	// the status endpoint; empty when the job gives no reason.
	Failure string
}

// Duration is how long the finished run took; zero while it runs.
func (s Status[C, E]) Duration() time.Duration {
	if s.FinishedAt.IsZero() {
		return 0
	}
	return s.FinishedAt.Sub(s.StartedAt)
}

// Options configure a Runner. Conflict is required; the rest is optional.
type Options[C, E any] struct {
	// Name names the job in logs ("media scan").
	Name string
	// Conflict is what Start and Run answer while a run is going on here
	// or in another process, and after Stop: the job's own 409 error.
	Conflict error
	// NotRunning is what Cancel answers when nothing runs (default
	// ErrNotRunning).
	NotRunning error
	Lock       Locker
	Events     Publisher
	Logger     *slog.Logger
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// ProgressEvery is how often a changed status is published (default 1s).
	ProgressEvery time.Duration
	// MaxErrors bounds the error list a status keeps (default 100).
	MaxErrors int
	// Progress and Finished build the job's progress and end events from
	// its status; nil publishes none.
	Progress func(Status[C, E]) domain.Event
	Finished func(Status[C, E]) domain.Event
	// Failure turns the error a run ended with into the reason its status
	// shows (state is failed or cancelled). It must not echo the raw error:
	// that may carry a provider's text. nil gives no reason.
	Failure func(state domain.JobState, err error) string
}

// Job is one run: Work does it, reporting through the Progress it is
// given, and returns nil when done or the error that ended it. ID, when
// set, names the run in the status and Cancel's answer; Counters are the
// counters it starts with; Started, when set, is published as it starts.
type Job[C, E any] struct {
	ID       string
	Counters C
	Started  domain.Event
	Work     func(ctx context.Context, p *Progress[C, E]) error
}

// Runner runs one job of a kind at a time.
type Runner[C, E any] struct {
	opt Options[C, E]
	log *slog.Logger

	mu sync.Mutex
	// announce orders the start and end events: held from freeing the slot
	// until the end event is out, and while a new run announces its start,
	// so listeners never hear a run start before the last one ended.
	// Publishers must not start a run of the same runner from Publish.
	announce sync.Mutex
	status   Status[C, E]
	version  uint64 // counts changes of the status, so unchanged progress is not published
	cancel   context.CancelFunc
	done     chan struct{}
	stopped  bool
}

// New builds an idle runner.
func New[C, E any](opt Options[C, E]) *Runner[C, E] {
	if opt.NotRunning == nil {
		opt.NotRunning = ErrNotRunning
	}
	if opt.Logger == nil {
		opt.Logger = slog.New(slog.DiscardHandler)
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.ProgressEvery <= 0 {
		opt.ProgressEvery = time.Second
	}
	if opt.MaxErrors <= 0 {
		opt.MaxErrors = 100
	}
	return &Runner[C, E]{opt: opt, log: opt.Logger, status: Status[C, E]{State: domain.JobIdle}}
}

// Status returns a copy of the current or last run's status.
func (r *Runner[C, E]) Status() Status[C, E] {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.copyLocked()
}

// Running reports whether a run is going on in this process.
func (r *Runner[C, E]) Running() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.cancel != nil
}

// Start begins j in the background and returns once it has started. The
// run's context derives from ctx, so pass one that lives as long as the
// job may (not a request's); Cancel and Stop end it too.
func (r *Runner[C, E]) Start(ctx context.Context, j Job[C, E]) error {
	run, err := r.claim(ctx, j)
	if err != nil {
		return err
	}
	go r.execute(run, j.Work, nil)
	return nil
}

// Run does j in the caller's goroutine (the command line) and returns its
// final status. progress, when not nil, gets the status whenever it
// changed, at most once per progress interval. Cancelling ctx cancels the
// run. The error is only about starting: a run that failed returns its
// status with State failed.
func (r *Runner[C, E]) Run(ctx context.Context, j Job[C, E], progress func(Status[C, E])) (Status[C, E], error) {
	run, err := r.claim(ctx, j)
	if err != nil {
		return Status[C, E]{}, err
	}
	return r.execute(run, j.Work, progress), nil
}

// Cancel stops the running job and returns its id; its work decides what
// of it stays. Nothing running is Options.NotRunning.
func (r *Runner[C, E]) Cancel() (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cancel == nil {
		return "", r.opt.NotRunning
	}
	r.cancel()
	return r.status.ID, nil
}

// Wait blocks until the running job, if any, has finished.
func (r *Runner[C, E]) Wait() {
	r.mu.Lock()
	done := r.done
	r.mu.Unlock()
	if done != nil {
		<-done
	}
}

// Stop refuses later runs, cancels the running one and waits for it to
// finish, so what it writes to can close under it safely; a run that
// outlasts ctx is left behind with ctx's error.
func (r *Runner[C, E]) Stop(ctx context.Context) error {
	r.mu.Lock()
	r.stopped = true
	cancel, done := r.cancel, r.done
	r.mu.Unlock()
	if cancel == nil {
		return nil
	}
	cancel()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("stop the %s: %w", r.opt.Name, ctx.Err())
	}
}

// copyLocked copies the status; the caller holds r.mu.
func (r *Runner[C, E]) copyLocked() Status[C, E] {
	st := r.status
	st.Errors = append([]E(nil), st.Errors...)
	return st
}

func (r *Runner[C, E]) publish(e domain.Event) {
	if e != nil && r.opt.Events != nil {
		r.opt.Events.Publish(e)
	}
}
