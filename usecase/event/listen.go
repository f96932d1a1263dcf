package event

import "context"

// Listener is a subscription for a long-lived listener in the server (the
// classification after scans, the chat's scan notices): when the bus cuts
// it off for falling behind, it subscribes again instead of going deaf.
// Events published while it was cut off are lost; listeners that cannot
// afford that read the state they care about again (see Run).
type Listener struct {
	bus    *Bus
	buffer int
	sub    *Subscription
}

// Listen subscribes now, so nothing published from this moment on is
// missed, and returns the listener for Run.
func (b *Bus) Listen(buffer int) *Listener {
	return &Listener{bus: b, buffer: buffer, sub: b.Subscribe(buffer)}
}

// Run calls fn with every event, in publishing order, until ctx ends, then
// closes the subscription. After the bus cut it off it subscribes again
// and calls lost (nil: nothing to do) before going on, so the listener can
// catch up with what it missed.
func (l *Listener) Run(ctx context.Context, fn func(Message), lost func()) {
	defer func() { l.sub.Close() }()
	for {
		select {
		case <-ctx.Done():
			return
		case m, ok := <-l.sub.C():
			if !ok {
				l.sub = l.bus.Subscribe(l.buffer)
				if lost != nil {
					lost()
				}
				continue
			}
			fn(m)
		}
	}
}

// Close ends the listener's subscription, for a listener whose Run never
// started; Run closes it by itself.
func (l *Listener) Close() { l.sub.Close() }
