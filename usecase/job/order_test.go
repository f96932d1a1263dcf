package job_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/usecase/job"
)

// slowEnd is a publisher that holds the end event of the first run until
// released, and records every event once it is out.
type slowEnd struct {
	mu       sync.Mutex
	out      []string
	ending   chan struct{}
	release  chan struct{}
	heldOnce sync.Once
}

func (p *slowEnd) Publish(e domain.Event) {
	if done, ok := e.(domain.ScanCompleted); ok && done.ScanID == "first" {
		p.heldOnce.Do(func() { close(p.ending); <-p.release })
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	id := ""
	switch v := e.(type) {
	case domain.ScanStarted:
		id = v.ScanID
	case domain.ScanCompleted:
		id = v.ScanID
	}
	p.out = append(p.out, e.EventName()+" "+id)
}

func (p *slowEnd) events() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.out...)
}

// TestEventsKeepTheOrderOfRuns: a run started while the last one's end is
// still being announced announces its own start after that end.
func TestEventsKeepTheOrderOfRuns(t *testing.T) {
	pub := &slowEnd{ending: make(chan struct{}), release: make(chan struct{})}
	r := job.New(job.Options[counts, problem]{Name: "test job", Conflict: errBusy, Events: pub,
		Finished: func(st job.Status[counts, problem]) domain.Event { return domain.ScanCompleted{ScanID: st.ID} }})
	run := func(id string) job.Job[counts, problem] {
		return job.Job[counts, problem]{ID: id, Started: domain.ScanStarted{ScanID: id},
			Work: func(context.Context, *job.Progress[counts, problem]) error { return nil }}
	}
	require.NoError(t, r.Start(context.Background(), run("first")))
	<-pub.ending // the first run has freed its slot and is announcing its end

	second := make(chan error, 1)
	go func() { second <- r.Start(context.Background(), run("second")) }()
	time.Sleep(50 * time.Millisecond) // room for a wrongly early start event
	close(pub.release)
	require.NoError(t, <-second)
	r.Wait()
	assert.Eventually(t, func() bool { return len(pub.events()) == 4 }, 5*time.Second, 5*time.Millisecond)
	assert.Equal(t, []string{"scan_started first", "scan_completed first", "scan_started second", "scan_completed second"}, pub.events())
}

// TestPanickingJobFailsAndFreesTheSlot: a bug in a job's work ends that
// run as failed instead of keeping the slot taken until a restart.
func TestPanickingJobFailsAndFreesTheSlot(t *testing.T) {
	f := newFixture(t, nil)
	st, err := f.r.Run(context.Background(), job.Job[counts, problem]{ID: "boom",
		Work: func(context.Context, *job.Progress[counts, problem]) error { panic("a bug") }}, nil)
	require.NoError(t, err)
	assert.Equal(t, domain.JobFailed, st.State)
	assert.Equal(t, "the test job broke", st.Failure, "the status shows the job's own reason, not the panic")
	assert.False(t, f.r.Running())
	_, err = f.r.Run(context.Background(), job.Job[counts, problem]{ID: "next",
		Work: func(context.Context, *job.Progress[counts, problem]) error { return nil }}, nil)
	require.NoError(t, err, "the slot is free again")
}
