package job_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/repository/localfs"
	"mediateka/usecase/event"
	"mediateka/usecase/job"
)

// counts are a test job's counters; problem its error entries.
type counts struct{ Done int }

type problem struct{ What string }

type testRunner = job.Runner[counts, problem]

var errBusy = domain.NewError(domain.KindConflict, "test_running", "a test job is already running")

// clock is a settable time source.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

func (c *clock) advance(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

// fixture is a runner publishing on a real bus, with a listener on it.
type fixture struct {
	r     *testRunner
	clock *clock
	sub   *event.Subscription
}

func newFixture(t *testing.T, edit func(*job.Options[counts, problem])) *fixture {
	t.Helper()
	c := &clock{t: time.Date(2025, 5, 6, 7, 8, 9, 0, time.UTC)}
	bus := event.New(c.now)
	opt := job.Options[counts, problem]{
		Name: "test job", Conflict: errBusy, Events: bus, Now: c.now, ProgressEvery: 5 * time.Millisecond,
		Progress: func(st job.Status[counts, problem]) domain.Event {
			return domain.ScanProgress{ScanID: st.ID, FilesSeen: st.Counters.Done}
		},
		Finished: func(st job.Status[counts, problem]) domain.Event {
			return domain.ScanCompleted{ScanID: st.ID, State: st.State, FilesSeen: st.Counters.Done, Errors: st.ErrorCount}
		},
		Failure: func(state domain.JobState, err error) string {
			if state == domain.JobCancelled {
				return "cancelled on request"
			}
			return "the test job broke"
		},
	}
	if edit != nil {
		edit(&opt)
	}
	sub := bus.Subscribe(1024)
	t.Cleanup(sub.Close)
	return &fixture{r: job.New(opt), clock: c, sub: sub}
}

// next returns the next event, failing the test after a while.
func (f *fixture) next(t *testing.T) domain.Event {
	t.Helper()
	select {
	case m := <-f.sub.C():
		return m.Event
	case <-time.After(5 * time.Second):
		t.Fatal("no event")
		return nil
	}
}

// ends drains the events of one run up to its end, progress left out.
func (f *fixture) ends(t *testing.T) []domain.Event {
	t.Helper()
	var out []domain.Event
	for {
		e := f.next(t)
		if _, progress := e.(domain.ScanProgress); progress {
			continue
		}
		out = append(out, e)
		if _, end := e.(domain.ScanCompleted); end {
			return out
		}
	}
}

func TestRunOutcomes(t *testing.T) {
	boom := errors.New("disk on fire")
	cases := []struct {
		name    string
		work    func(ctx context.Context, p *job.Progress[counts, problem]) error
		cancel  bool
		state   domain.JobState
		failure string
	}{
		{"completed", func(ctx context.Context, p *job.Progress[counts, problem]) error {
			p.Update(func(c *counts) { c.Done = 3 })
			return nil
		}, false, domain.JobCompleted, ""},
		{"failed", func(ctx context.Context, p *job.Progress[counts, problem]) error {
			p.Update(func(c *counts) { c.Done = 1 })
			return boom
		}, false, domain.JobFailed, "the test job broke"},
		{"cancelled", func(ctx context.Context, p *job.Progress[counts, problem]) error {
			p.Update(func(c *counts) { c.Done = 2 })
			<-ctx.Done()
			return ctx.Err()
		}, true, domain.JobCancelled, "cancelled on request"},
		{"cancelled although the work ends with its own error", func(ctx context.Context, p *job.Progress[counts, problem]) error {
			<-ctx.Done()
			return boom
		}, true, domain.JobCancelled, "cancelled on request"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, nil)
			assert.Equal(t, domain.JobIdle, f.r.Status().State)
			started := f.clock.now()
			work := func(ctx context.Context, p *job.Progress[counts, problem]) error {
				f.clock.advance(1500 * time.Millisecond)
				return tc.work(ctx, p)
			}
			require.NoError(t, f.r.Start(context.Background(), job.Job[counts, problem]{
				ID: "run-1", Started: domain.ScanStarted{ScanID: "run-1"}, Work: work,
			}))
			if tc.cancel {
				id, err := f.r.Cancel()
				require.NoError(t, err)
				assert.Equal(t, "run-1", id, "cancel names the run it cancelled")
			}
			evs := f.ends(t)
			f.r.Wait()
			st := f.r.Status()
			require.Len(t, evs, 2)
			assert.Equal(t, domain.ScanStarted{ScanID: "run-1"}, evs[0])
			assert.Equal(t, domain.ScanCompleted{ScanID: "run-1", State: tc.state, FilesSeen: st.Counters.Done}, evs[1])
			assert.Equal(t, tc.state, st.State)
			assert.Equal(t, tc.failure, st.Failure)
			assert.Equal(t, "run-1", st.ID)
			assert.Equal(t, started, st.StartedAt)
			assert.Equal(t, 1500*time.Millisecond, st.Duration(), "times come from the injected clock")
			assert.False(t, f.r.Running())
			_, err := f.r.Cancel()
			assert.ErrorIs(t, err, job.ErrNotRunning)
		})
	}
}

func TestOneRunAtATime(t *testing.T) {
	f := newFixture(t, nil)
	release := make(chan struct{})
	blocked := job.Job[counts, problem]{ID: "a", Work: func(ctx context.Context, p *job.Progress[counts, problem]) error {
		<-release
		return nil
	}}
	require.NoError(t, f.r.Start(context.Background(), blocked))
	assert.True(t, f.r.Running())
	assert.ErrorIs(t, f.r.Start(context.Background(), blocked), errBusy)
	_, err := f.r.Run(context.Background(), blocked, nil)
	assert.ErrorIs(t, err, errBusy)
	assert.Equal(t, "a", f.r.Status().ID, "the refused start changed nothing")
	close(release)
	f.r.Wait()

	st, err := f.r.Run(context.Background(), job.Job[counts, problem]{ID: "b", Counters: counts{Done: 7},
		Work: func(context.Context, *job.Progress[counts, problem]) error { return nil }}, nil)
	require.NoError(t, err, "the slot is free again")
	assert.Equal(t, domain.JobCompleted, st.State)
	assert.Equal(t, 7, st.Counters.Done, "a run starts from the counters it is given")
}

func TestLockAcrossProcesses(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "job.lock")
	f := newFixture(t, func(o *job.Options[counts, problem]) { o.Lock = localfs.NewLock(path) })
	nothing := job.Job[counts, problem]{Work: func(context.Context, *job.Progress[counts, problem]) error { return nil }}

	unlock, ok, err := localfs.NewLock(path).TryLock()
	require.NoError(t, err)
	require.True(t, ok)
	assert.ErrorIs(t, f.r.Start(context.Background(), nothing), errBusy, "another process holds the lock")
	assert.Equal(t, domain.JobIdle, f.r.Status().State)
	unlock()

	st, err := f.r.Run(context.Background(), nothing, nil)
	require.NoError(t, err)
	assert.Equal(t, domain.JobCompleted, st.State)
	unlock, ok, err = localfs.NewLock(path).TryLock()
	require.NoError(t, err)
	assert.True(t, ok, "the run let go of the lock")
	unlock()

	file := filepath.Join(dir, "a-file")
	require.NoError(t, os.WriteFile(file, nil, 0o600))
	broken := newFixture(t, func(o *job.Options[counts, problem]) { o.Lock = localfs.NewLock(filepath.Join(file, "job.lock")) })
	err = broken.r.Start(context.Background(), nothing)
	require.Error(t, err)
	assert.NotErrorIs(t, err, errBusy, "a lock that cannot be taken is an error, not a conflict")
	assert.Contains(t, err.Error(), "take the test job lock")
}
