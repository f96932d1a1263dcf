package playback

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// accountSlots counts the remuxes each account runs, so that one account
// (one browser with many tabs, or a script) cannot hold every slot.
type accountSlots struct {
	max int
	mu  sync.Mutex
	n   map[int64]int
	// freed is closed, and replaced, whenever a slot is given back.
	freed chan struct{}
}

func newAccountSlots(max int) *accountSlots {
	return &accountSlots{max: max, n: map[int64]int{}, freed: make(chan struct{})}
}

// take waits up to wait for one of account's slots; account 0 (not
// known) is not counted.
func (a *accountSlots) take(ctx context.Context, account int64, wait time.Duration) error {
	if account == 0 {
		return nil
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	for {
		a.mu.Lock()
		if a.n[account] < a.max {
			a.n[account]++
			a.mu.Unlock()
			return nil
		}
		freed := a.freed
		a.mu.Unlock()
		select {
		case <-freed:
		case <-timer.C:
			return ErrRemuxBusy
		case <-ctx.Done():
			return fmt.Errorf("wait for a remux slot: %w", ctx.Err())
		}
	}
}

// give returns one of account's slots.
func (a *accountSlots) give(account int64) {
	if account == 0 {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.n[account]--; a.n[account] <= 0 {
		delete(a.n, account)
	}
	close(a.freed)
	a.freed = make(chan struct{})
}
