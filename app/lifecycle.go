package app

// The lifecycle runner. Every long-lived part of the server (the HTTP
// server, the plugin manager, the library's jobs, the catalogue's search-log
// writer, event subscribers, the rooms hub, and next the bot and the torrent
// poller) is one component in one list. A list rather than hand-written start
// and stop code because the order is then written once and the stop order is
// its reverse by construction: a new part cannot forget to stop, to respect
// the shutdown deadline, or to stop the parts started before it when it
// fails to start. New only builds the list; nothing runs until Run.

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"
)

// component is one long-lived part of the server. Start returns once the
// part runs; work that goes on in the background runs in Run's errgroup (see
// lifecycle.background). Stop ends the part within ctx's deadline. Stop must
// also be safe when Start never ran: Close stops what New built when Run
// never ran, because a job can be started on demand without Run (the
// in-memory test transport) and must end before the database closes.
type component struct {
	Name  string
	Start func(ctx context.Context) error
	Stop  func(ctx context.Context) error
}

// lifecycle starts components in list order and stops them in reverse.
type lifecycle struct {
	log *slog.Logger
	// deadline bounds each Stop, so one slow part cannot eat the time of
	// those stopped after it.
	deadline time.Duration
	comps    []component

	mu      sync.Mutex
	stopped []bool
	overran bool
	group   *errgroup.Group
}

func newLifecycle(log *slog.Logger, deadline time.Duration) *lifecycle {
	return &lifecycle{log: log, deadline: deadline}
}

// add appends components; what is added later starts later and stops
// earlier, so a part is added after everything it uses.
func (l *lifecycle) add(cs ...component) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.comps = append(l.comps, cs...)
	l.stopped = append(l.stopped, make([]bool, len(cs))...)
}

// names lists the components in start order.
func (l *lifecycle) names() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]string, len(l.comps))
	for i, c := range l.comps {
		out[i] = c.Name
	}
	return out
}

// run starts every component in order inside an errgroup, waits until ctx
// ends or background work fails, then stops the started ones in reverse.
// It returns the first of: a start error, a background failure, a stop
// error; nil after a clean shutdown.
func (l *lifecycle) run(ctx context.Context) error {
	g, gctx := errgroup.WithContext(ctx)
	l.mu.Lock()
	l.group = g
	l.mu.Unlock()
	started, err := l.startAll(gctx)
	if err == nil {
		<-gctx.Done()
		l.log.Info("shutting down")
	}
	stopErr := l.stopDown(started)
	if werr := l.wait(g); err == nil {
		err = werr
	}
	if err == nil {
		err = stopErr
	}
	return err
}

// startAll starts components in order and returns how many started.
func (l *lifecycle) startAll(ctx context.Context) (int, error) {
	l.mu.Lock()
	comps := l.comps
	l.mu.Unlock()
	for i, c := range comps {
		if err := c.Start(ctx); err != nil {
			l.log.Error("component did not start; stopping those already started", "component", c.Name, "err", err)
			return i, fmt.Errorf("start %s: %w", c.Name, err)
		}
	}
	return len(comps), nil
}

// stopDown stops the first n components, last first, each once.
func (l *lifecycle) stopDown(n int) error {
	var first error
	for i := n - 1; i >= 0; i-- {
		if err := l.stopOne(i); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// stopOne stops component i with the deadline. A Stop that overruns is
// left behind with an error, so it cannot hold the shutdown.
func (l *lifecycle) stopOne(i int) error {
	l.mu.Lock()
	if l.stopped[i] {
		l.mu.Unlock()
		return nil
	}
	l.stopped[i] = true
	c := l.comps[i]
	l.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), l.deadline)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- c.Stop(ctx) }()
	select {
	case err := <-done:
		if err != nil {
			l.log.Error("component did not stop cleanly", "component", c.Name, "err", err)
			return fmt.Errorf("stop %s: %w", c.Name, err)
		}
		return nil
	case <-ctx.Done():
		l.mu.Lock()
		l.overran = true
		l.mu.Unlock()
		l.log.Error("component did not stop within the shutdown deadline; going on without it", "component", c.Name, "deadline", l.deadline)
		return fmt.Errorf("stop %s: did not stop within %s", c.Name, l.deadline)
	}
}

// wait collects the background work's result. After a Stop overran, its
// work may never return, so wait does not wait for it.
func (l *lifecycle) wait(g *errgroup.Group) error {
	l.mu.Lock()
	overran := l.overran
	l.mu.Unlock()
	if overran {
		return nil
	}
	return g.Wait()
}

// close stops every component not stopped yet, last first.
func (l *lifecycle) close() {
	l.mu.Lock()
	n := len(l.comps)
	l.mu.Unlock()
	_ = l.stopDown(n)
}

// background makes a component of work that runs until told to end: Start
// runs it in Run's errgroup, and an error it returns before Stop shuts the
// server down and becomes Run's error. Stop calls halt (nil: none), cancels
// work's context and waits for work to return.
func (l *lifecycle) background(name string, work, halt func(ctx context.Context) error) component {
	b := &backgroundWork{life: l, work: work, halt: halt}
	return component{Name: name, Start: b.start, Stop: b.stop}
}

// backgroundWork is the state of one background component.
type backgroundWork struct {
	life       *lifecycle
	work, halt func(ctx context.Context) error

	mu     sync.Mutex
	cancel context.CancelFunc
	done   chan struct{}
}

func (b *backgroundWork) start(ctx context.Context) error {
	b.life.mu.Lock()
	g := b.life.group
	b.life.mu.Unlock()
	if g == nil {
		return errors.New("background work starts only inside run")
	}
	wctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	b.mu.Lock()
	b.cancel, b.done = cancel, done
	b.mu.Unlock()
	g.Go(func() error { defer close(done); return b.work(wctx) })
	return nil
}

func (b *backgroundWork) stop(ctx context.Context) error {
	b.mu.Lock()
	cancel, done := b.cancel, b.done
	b.mu.Unlock()
	if cancel == nil {
		return nil // never started
	}
	var err error
	if b.halt != nil {
		err = b.halt(ctx)
	}
	cancel()
	select {
	case <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}
