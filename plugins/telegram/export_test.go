package telegram

import (
	"context"
	"time"
)

// WithSleep makes d's Bot API retries call sleep instead of waiting, so
// tests can see the waits asked for without spending them.
func WithSleep(d Deps, sleep func(ctx context.Context, wait time.Duration) error) Deps {
	d.sleep = sleep
	return d
}

// WithNow gives d's lists a clock, so tests can expire their buttons.
func WithNow(d Deps, now func() time.Time) Deps {
	d.now = now
	return d
}

// PollingStopped is closed once Stop has stopped the last run's polling.
func PollingStopped(p *Plugin) <-chan struct{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.run.polling.Done()
}

// Ended is closed once the last run of the bot has ended entirely.
func Ended(p *Plugin) <-chan struct{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.run.done
}
