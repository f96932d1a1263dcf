package job_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/usecase/job"
)

// TestProgressOnlyWhileSomethingChanged steps a job through two changes
// with quiet intervals between them: each change is published once, the
// quiet intervals publish nothing, and the command line's callback hears
// the same.
func TestProgressOnlyWhileSomethingChanged(t *testing.T) {
	f := newFixture(t, nil)
	step := make(chan int)
	var heard []int
	work := func(ctx context.Context, p *job.Progress[counts, problem]) error {
		for n := range step {
			p.Update(func(c *counts) { c.Done = n })
		}
		return nil
	}
	done := make(chan job.Status[counts, problem])
	go func() {
		st, err := f.r.Run(context.Background(), job.Job[counts, problem]{ID: "p", Started: domain.ScanStarted{ScanID: "p"}, Work: work},
			func(st job.Status[counts, problem]) { heard = append(heard, st.Counters.Done) })
		assert.NoError(t, err)
		done <- st
	}()
	require.IsType(t, domain.ScanStarted{}, f.next(t))
	quiet := func() {
		select {
		case m := <-f.sub.C():
			t.Fatalf("%T published while nothing changed", m.Event)
		case <-time.After(10 * 5 * time.Millisecond):
		}
	}
	quiet()
	step <- 4
	assert.Equal(t, domain.ScanProgress{ScanID: "p", FilesSeen: 4}, f.next(t))
	quiet()
	step <- 9
	assert.Equal(t, domain.ScanProgress{ScanID: "p", FilesSeen: 9}, f.next(t))
	quiet()
	close(step)
	st := <-done
	assert.Equal(t, domain.ScanCompleted{ScanID: "p", State: domain.JobCompleted, FilesSeen: 9}, f.next(t))
	assert.Equal(t, 9, st.Counters.Done)
	assert.Equal(t, []int{4, 9}, heard, "the callback runs in step with the events")
}

func TestErrorListIsCapped(t *testing.T) {
	f := newFixture(t, func(o *job.Options[counts, problem]) { o.MaxErrors = 3 })
	st, err := f.r.Run(context.Background(), job.Job[counts, problem]{Work: func(ctx context.Context, p *job.Progress[counts, problem]) error {
		for i := range 10 {
			p.Error(problem{What: fmt.Sprint("file ", i)})
		}
		return nil
	}}, nil)
	require.NoError(t, err)
	assert.Equal(t, []problem{{"file 0"}, {"file 1"}, {"file 2"}}, st.Errors, "the first ones are kept")
	assert.Equal(t, 10, st.ErrorCount, "all are counted")
	assert.Equal(t, domain.JobCompleted, st.State, "problems alone do not fail a run")
	ends := f.ends(t)
	assert.Equal(t, 10, ends[len(ends)-1].(domain.ScanCompleted).Errors)

	copied := f.r.Status()
	copied.Errors[0].What = "changed by a reader"
	assert.Equal(t, "file 0", f.r.Status().Errors[0].What, "a status is a copy")
}

func TestStopCancelsAndWaits(t *testing.T) {
	f := newFixture(t, nil)
	started := make(chan struct{})
	require.NoError(t, f.r.Start(context.Background(), job.Job[counts, problem]{ID: "s", Work: func(ctx context.Context, p *job.Progress[counts, problem]) error {
		close(started)
		<-ctx.Done()
		time.Sleep(20 * time.Millisecond) // cleaning up after the cancel
		p.Update(func(c *counts) { c.Done = 1 })
		return ctx.Err()
	}}))
	<-started
	require.NoError(t, f.r.Stop(context.Background()))
	st := f.r.Status()
	assert.Equal(t, domain.JobCancelled, st.State, "Stop returns only after the run finished")
	assert.Equal(t, 1, st.Counters.Done)
	assert.False(t, f.r.Running())
	nothing := job.Job[counts, problem]{Work: func(context.Context, *job.Progress[counts, problem]) error { return nil }}
	assert.ErrorIs(t, f.r.Start(context.Background(), nothing), errBusy, "a stopped runner takes no new run")
	require.NoError(t, f.r.Stop(context.Background()), "stopping twice is harmless")
}

func TestStopIsBoundedByItsContext(t *testing.T) {
	f := newFixture(t, nil)
	release := make(chan struct{})
	require.NoError(t, f.r.Start(context.Background(), job.Job[counts, problem]{Work: func(context.Context, *job.Progress[counts, problem]) error {
		<-release // a job that ignores its context
		return nil
	}}))
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	err := f.r.Stop(ctx)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.True(t, f.r.Running(), "the stubborn run is still going")
	close(release)
	f.r.Wait()
	assert.Equal(t, domain.JobCompleted, f.r.Status().State, "work that ends without an error is complete, cancelled or not")
}
