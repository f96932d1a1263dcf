package library_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/usecase/library"
)

// heldStore holds the audit's first read (the one over every record) until
// release closes, so a test can act while an audit is surely running.
type heldStore struct {
	library.Store
	entered chan struct{}
	release chan struct{}
	held    atomic.Bool
}

func (h *heldStore) ScanState(ctx context.Context, prefixes []string, fn func(domain.Media) error) error {
	if prefixes == nil {
		if h.held.CompareAndSwap(false, true) {
			close(h.entered)
			<-h.release
		}
	}
	return h.Store.ScanState(ctx, prefixes, fn)
}

func TestOneAuditAtATime(t *testing.T) {
	held := &heldStore{entered: make(chan struct{}), release: make(chan struct{})}
	e := newEnv(t, withStore(func(s library.Store) library.Store { held.Store = s; return held }))
	e.touch("Heat.1995.mkv")
	e.scan(library.ScanRequest{})

	first := make(chan error, 1)
	go func() { _, err := e.svc.Audit(context.Background()); first <- err }()
	<-held.entered
	_, err := e.svc.Audit(context.Background())
	assert.ErrorIs(t, err, domain.ErrAuditRunning)
	var de *domain.Error
	require.ErrorAs(t, err, &de)
	assert.Equal(t, domain.KindConflict, de.Kind)
	assert.Equal(t, "audit_running", de.Code)
	close(held.release)
	require.NoError(t, <-first)
	_, err = e.svc.Audit(context.Background())
	assert.NoError(t, err, "the next audit runs once the first is done")
}

func TestAuditIssuesNameTheEntryAndTheDurationComesFromTheClock(t *testing.T) {
	var ticks atomic.Int64
	clock := func() time.Time { return fixedNow().Add(time.Duration(ticks.Add(1)) * 1500 * time.Millisecond) }
	e := newEnv(t, withOptions(func(o *library.Options) { o.Now = clock }))
	e.touch("Фильмы/Heat.1995.mkv", "Фильмы/Heat (1995).avi", "Фильмы/Untitled.mkv")
	e.scan(library.ScanRequest{})

	rep, err := e.svc.Audit(context.Background())
	require.NoError(t, err)
	assert.Equal(t, 1500*time.Millisecond, rep.Duration, "two readings of the injected clock")
	require.Equal(t, 1, rep.Summary[library.IssueDuplicate])
	require.Equal(t, 1, rep.Summary[library.IssueIncompleteMetadata])
	all := e.all()
	for _, i := range rep.Issues {
		m, ok := all[i.Path]
		require.True(t, ok, "the issue names the entry's path: %+v", i)
		assert.Equal(t, m.ID, i.MediaID, "%+v", i)
		assert.NotEmpty(t, i.Title, "%+v", i)
		assert.Equal(t, m.Title, i.Title, "%+v", i)
	}
	var durations []int64
	for _, ev := range e.events.events {
		if done, ok := ev.(domain.AuditCompleted); ok {
			durations = append(durations, done.DurationMS)
		}
	}
	assert.Equal(t, []int64{1500}, durations)
}
