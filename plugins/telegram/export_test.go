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
