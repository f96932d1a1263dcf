// Package roomload loads a mediateka server's rooms (docs/API.md §6) from
// this machine: N rooms, each with one player and one remote, the remotes
// sending seek commands at a steady total rate while the players time
// their arrival. It reports how many arrived, the remote→player latency,
// the server's resident memory and, with Stall, what one remote that
// stops reading does to everyone else. Like loginflood it refuses any
// address that is not loopback: it is a measuring tool.
package roomload

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"mediateka/bench/measure"
	"mediateka/usecase/control"
)

// Bounds of one run.
const (
	MaxRooms    = 5000
	MaxRate     = 100_000
	MaxDuration = 10 * time.Minute
)

// Config describes one run.
type Config struct {
	BaseURL  string // http://127.0.0.1:PORT
	Rooms    int
	Rate     int // seek commands a second, all rooms together
	Duration time.Duration
	// Stall adds to the first room a remote that never reads while that
	// room's player sends large playlists, until the server drops it.
	Stall bool
	PID   int    // server process to sample VmRSS of; 0: no memory numbers
	Room  string // room name prefix; default "load-"
	// Drain is how long to wait for the last commands once sending
	// stops (default 2 s).
	Drain time.Duration
}

// Result is what one run saw.
type Result struct {
	Connect   time.Duration // opening every connection and seeing each room ready
	Sent      int64
	Delivered int64
	// Latency is remote send → player receive of every delivered command;
	// Others leaves out the first room (the stalled one with Stall).
	Latency []time.Duration
	Others  []time.Duration
	Errors  map[string]int // error events the remotes received, by code
	// Dropped counts connections the server closed during the run,
	// besides the stalled one.
	Dropped         int
	RSSIdleKiB      int64
	RSSConnectedKiB int64
	RSSPeakKiB      int64
	// StalledDropped is when, after sending started, the server dropped
	// the stalled remote; 0 when it did not (or without Stall).
	StalledDropped time.Duration
}

func check(cfg Config) error {
	switch {
	case cfg.Rooms < 1 || cfg.Rooms > MaxRooms:
		return fmt.Errorf("rooms must be 1..%d", MaxRooms)
	case cfg.Rate < 1 || cfg.Rate > MaxRate:
		return fmt.Errorf("rate must be 1..%d", MaxRate)
	case cfg.Duration <= 0 || cfg.Duration > MaxDuration:
		return fmt.Errorf("duration must be positive and at most %s", MaxDuration)
	case float64(cfg.Rate)/float64(cfg.Rooms) > control.DefaultRate:
		return fmt.Errorf("%d commands a second over %d rooms is more than the server's %d a second per connection: add rooms or lower the rate",
			cfg.Rate, cfg.Rooms, control.DefaultRate)
	}
	return measure.Loopback(cfg.BaseURL)
}

// Run connects the rooms, sends for cfg.Duration and collects the result.
func Run(ctx context.Context, cfg Config) (Result, error) {
	if err := check(cfg); err != nil {
		return Result{}, err
	}
	if cfg.Room == "" {
		cfg.Room = "load-"
	}
	if cfg.Drain <= 0 {
		cfg.Drain = 2 * time.Second
	}
	l := &load{cfg: cfg, errors: map[string]int{}, start: time.Now()}
	res := Result{RSSIdleKiB: measure.RSSKiB(cfg.PID)}
	defer l.close()
	if err := l.connect(ctx); err != nil {
		return res, err
	}
	res.Connect = time.Since(l.start)
	res.RSSConnectedKiB = measure.RSSKiB(cfg.PID)
	peak := l.sampleRSS()
	var stall *stalled
	if cfg.Stall {
		var err error
		if stall, err = l.startStall(ctx); err != nil {
			return res, err
		}
	}
	l.send(ctx)
	l.drain(cfg.Drain)
	res.RSSPeakKiB = peak()
	if stall != nil {
		res.StalledDropped = stall.stop()
	}
	l.collect(&res)
	return res, nil
}

// load is one run's state.
type load struct {
	cfg   Config
	start time.Time
	rooms []*room
	// sendStart is when sending began, for the stalled remote's drop time.
	sendStart time.Time

	mu      sync.Mutex
	errors  map[string]int
	dropped atomic.Int64
	closing atomic.Bool
}

// connect opens every room, a few at a time, and waits until each room's
// remote has seen its player's first status (so no seek meets an idle
// room).
func (l *load) connect(ctx context.Context) error {
	perRoom := l.cfg.Rate / l.cfg.Rooms
	capacity := int(l.cfg.Duration.Seconds()*float64(perRoom+1)) + 16
	l.rooms = make([]*room, l.cfg.Rooms)
	sem := make(chan struct{}, 32)
	errs := make(chan error, l.cfg.Rooms)
	var wg sync.WaitGroup
	for i := range l.rooms {
		l.rooms[i] = newRoom(l, fmt.Sprintf("%s%d", l.cfg.Room, i), capacity)
		wg.Add(1)
		sem <- struct{}{}
		go func(r *room) {
			defer wg.Done()
			defer func() { <-sem }()
			if err := r.open(ctx); err != nil {
				errs <- err
			}
		}(l.rooms[i])
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return err
	}
	for _, r := range l.rooms {
		select {
		case <-r.ready:
		case <-time.After(30 * time.Second):
			return errors.New("a room never saw its player's status")
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// send runs every room's remote at Rate/Rooms commands a second, each
// room starting at its own offset so the total rate is even, for
// Duration.
func (l *load) send(ctx context.Context) {
	interval := time.Duration(float64(time.Second) * float64(l.cfg.Rooms) / float64(l.cfg.Rate))
	l.sendStart = time.Now()
	end := l.sendStart.Add(l.cfg.Duration)
	var wg sync.WaitGroup
	for i, r := range l.rooms {
		offset := interval * time.Duration(i) / time.Duration(len(l.rooms))
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.sendUntil(ctx, l.sendStart.Add(offset), interval, end)
		}()
	}
	wg.Wait()
}

// drain waits until every sent command arrived, or for at most d.
func (l *load) drain(d time.Duration) {
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		var sent, got int64
		for _, r := range l.rooms {
			sent += r.sent.Load()
			got += r.delivered.Load()
		}
		if got >= sent {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// sampleRSS samples the server's memory every 100 ms; the returned
// function stops it and returns the peak.
func (l *load) sampleRSS() func() int64 {
	stop := make(chan struct{})
	done := make(chan int64)
	go func() {
		var peak int64
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		for {
			peak = max(peak, measure.RSSKiB(l.cfg.PID))
			select {
			case <-stop:
				done <- peak
				return
			case <-t.C:
			}
		}
	}()
	return func() int64 { close(stop); return <-done }
}

func (l *load) noteError(code string) {
	l.mu.Lock()
	l.errors[code]++
	l.mu.Unlock()
}

// collect adds up the rooms.
func (l *load) collect(res *Result) {
	for i, r := range l.rooms {
		res.Sent += r.sent.Load()
		res.Delivered += r.delivered.Load()
		r.mu.Lock()
		res.Latency = append(res.Latency, r.latency...)
		if i > 0 {
			res.Others = append(res.Others, r.latency...)
		}
		r.mu.Unlock()
	}
	l.mu.Lock()
	res.Errors = l.errors
	l.mu.Unlock()
	res.Dropped = int(l.dropped.Load())
}

// close ends every connection and waits for the readers.
func (l *load) close() {
	l.closing.Store(true)
	for _, r := range l.rooms {
		if r != nil {
			r.close()
		}
	}
}
