package app

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// journal records what fake components were asked to do, in order.
type journal struct {
	mu    sync.Mutex
	lines []string
}

func (j *journal) note(s string) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.lines = append(j.lines, s)
}

func (j *journal) all() []string {
	j.mu.Lock()
	defer j.mu.Unlock()
	return append([]string(nil), j.lines...)
}

// fake is a component that notes its start and stop; startErr makes its
// Start fail.
func (j *journal) fake(name string, startErr error) component {
	return component{Name: name,
		Start: func(context.Context) error { j.note("start " + name); return startErr },
		Stop:  func(context.Context) error { j.note("stop " + name); return nil },
	}
}

// ready is a component that closes c when it starts, so a test knows every
// component before it has started.
func ready(c chan struct{}) component {
	return component{Name: "ready",
		Start: func(context.Context) error { close(c); return nil },
		Stop:  func(context.Context) error { return nil },
	}
}

func quietLifecycle(deadline time.Duration) *lifecycle {
	return newLifecycle(slog.New(slog.DiscardHandler), deadline)
}

// runUntilReady runs l in the background and cancels it once its last
// component (a ready one) has started; it returns how long the shutdown
// took and Run's result.
func runUntilReady(t *testing.T, l *lifecycle, started chan struct{}) (time.Duration, error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- l.run(ctx) }()
	select {
	case <-started:
	case err := <-done:
		t.Fatalf("run returned before every component started: %v", err)
	}
	begin := time.Now()
	cancel()
	select {
	case err := <-done:
		return time.Since(begin), err
	case <-time.After(30 * time.Second):
		t.Fatal("run did not return after its context ended")
		return 0, nil
	}
}

func TestLifecycleStartsInOrderAndStopsInReverse(t *testing.T) {
	t.Parallel()
	j := &journal{}
	l := quietLifecycle(time.Second)
	started := make(chan struct{})
	l.add(j.fake("database writer", nil), j.fake("jobs", nil), j.fake("server", nil), ready(started))

	_, err := runUntilReady(t, l, started)
	require.NoError(t, err)
	assert.Equal(t, []string{"start database writer", "start jobs", "start server",
		"stop server", "stop jobs", "stop database writer"}, j.all())

	l.close()
	assert.Len(t, j.all(), 6, "Close after Run stops nothing twice")
}

func TestLifecycleStartFailureStopsThoseAlreadyStarted(t *testing.T) {
	t.Parallel()
	j := &journal{}
	l := quietLifecycle(time.Second)
	broken := errors.New("port in use")
	l.add(j.fake("a", nil), j.fake("b", nil), j.fake("c", broken), j.fake("d", nil))

	err := l.run(context.Background())
	require.ErrorIs(t, err, broken)
	assert.Contains(t, err.Error(), "start c")
	assert.Equal(t, []string{"start a", "start b", "start c", "stop b", "stop a"}, j.all(),
		"c failed, so b and a stop in reverse and d never starts")
}

func TestLifecycleStopOverrunningTheDeadlineDoesNotHoldShutdown(t *testing.T) {
	t.Parallel()
	j := &journal{}
	const deadline = 200 * time.Millisecond
	l := quietLifecycle(deadline)
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	stuck := component{Name: "stuck",
		Start: func(context.Context) error { return nil },
		Stop:  func(context.Context) error { j.note("stop stuck"); <-release; return nil },
	}
	started := make(chan struct{})
	l.add(j.fake("first", nil), stuck, j.fake("last", nil), ready(started))

	took, err := runUntilReady(t, l, started)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "stop stuck")
	assert.Less(t, took, deadline+2*time.Second, "shutdown waited for the stuck Stop")
	assert.GreaterOrEqual(t, took, deadline, "the stuck Stop had its deadline")
	assert.Equal(t, []string{"start first", "start last", "stop last", "stop stuck", "stop first"}, j.all(),
		"the components after the stuck one were still stopped")
}

func TestLifecycleBackgroundFailureEndsRun(t *testing.T) {
	t.Parallel()
	j := &journal{}
	l := quietLifecycle(time.Second)
	broken := errors.New("listener closed under the server")
	fail := make(chan struct{})
	l.add(j.fake("jobs", nil), l.background("server", func(ctx context.Context) error {
		select {
		case <-fail:
			return broken
		case <-ctx.Done():
			return nil
		}
	}, func(context.Context) error { j.note("halt server"); return nil }))

	done := make(chan error, 1)
	go func() { done <- l.run(context.Background()) }()
	close(fail)
	select {
	case err := <-done:
		require.ErrorIs(t, err, broken)
	case <-time.After(10 * time.Second):
		t.Fatal("a failed background work did not end run")
	}
	assert.Equal(t, []string{"start jobs", "halt server", "stop jobs"}, j.all())
}

func TestLifecycleCloseWithoutRunStopsEverything(t *testing.T) {
	t.Parallel()
	j := &journal{}
	l := quietLifecycle(time.Second)
	l.add(j.fake("a", nil), l.background("never started", func(context.Context) error { return nil }, nil), j.fake("b", nil))
	l.close()
	l.close()
	assert.Equal(t, []string{"stop b", "stop a"}, j.all())
}

func TestAppComponentsInDependencyOrder(t *testing.T) {
	t.Parallel()
	ta := newTestApp(t, map[string]string{"MEDIATEKA_AI__PROVIDER": "gemini", "MEDIATEKA_AI__CLASSIFY_AFTER_SCAN": "true"})
	assert.Equal(t, []string{"catalogue search log", "semantic search index", "library scan job", "scan notices", "classification job",
		"classify after scans", "torrent relocation job", "torrent poller", "plugin manager", "rooms hub", "log analysis"}, ta.life.names(),
		"each part starts after what it uses; Run adds the HTTP server last")
}

// TestRunThatCannotListenStopsWhatStarted: the HTTP server fails to start
// on a taken port; Run returns the error and what started is stopped.
func TestRunThatCannotListenStopsWhatStarted(t *testing.T) {
	t.Parallel()
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer taken.Close()
	port := strconv.Itoa(taken.Addr().(*net.TCPAddr).Port)
	ta := newTestApp(t, map[string]string{"MEDIATEKA_HOST": "127.0.0.1", "MEDIATEKA_PORT": port})

	err = ta.Run(context.Background(), nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "listen on 127.0.0.1:"+port)
	assert.Nil(t, ta.repos.store, "the database was closed")
	for _, p := range ta.plugins.List() {
		assert.False(t, p.Running, "plugin %s", p.Name)
	}
	assert.Contains(t, ta.stderr.String(), "component did not start")
}

// TestRunStoppedAtOnceEndsCleanly stops Run the moment it starts, before
// the serving goroutine may have taken the listener: Run must still return
// promptly and without error, leaving nothing serving.
func TestRunStoppedAtOnceEndsCleanly(t *testing.T) {
	t.Parallel()
	for i := range 5 {
		ta := newTestApp(t, nil)
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(t, err)
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		done := make(chan error, 1)
		go func() { done <- ta.Run(ctx, ln) }()
		select {
		case err := <-done:
			require.NoError(t, err, "round %d", i)
		case <-time.After(15 * time.Second):
			t.Fatalf("round %d: Run did not return after an immediate stop", i)
		}
		_, err = net.DialTimeout("tcp", ln.Addr().String(), time.Second)
		require.Error(t, err, "round %d: nothing listens after Run returned", i)
	}
}
