// Package event fans out library events (scan_started, scan_completed,
// audit_completed, rag_indexed …) to live listeners such as the admin
// panel's /api/events stream and the Telegram bot. Publishing never
// blocks: a listener that falls behind is cut off and reconnects.
package event

import (
	"sync"
	"time"

	"mediateka/domain"
)

// Message is an event as listeners receive it: the bus stamps the time it
// was published, so publishers need no clock and every listener agrees.
type Message struct {
	Event domain.Event
	At    time.Time
}

// Bus is an in-process publish/subscribe hub.
type Bus struct {
	mu   sync.Mutex
	subs map[*Subscription]struct{}
	now  func() time.Time
}

// New returns an empty bus; now is its clock (nil means time.Now).
func New(now func() time.Time) *Bus {
	if now == nil {
		now = time.Now
	}
	return &Bus{subs: map[*Subscription]struct{}{}, now: now}
}

// Subscription is one listener's queue of events, in publishing order.
type Subscription struct {
	bus  *Bus
	c    chan Message
	once sync.Once
}

// Subscribe registers a listener with room for buffer events.
func (b *Bus) Subscribe(buffer int) *Subscription {
	s := &Subscription{bus: b, c: make(chan Message, max(buffer, 1))}
	b.mu.Lock()
	b.subs[s] = struct{}{}
	b.mu.Unlock()
	return s
}

// C delivers the events; it is closed when the subscription ends (Close,
// or the listener fell behind by more than its buffer).
func (s *Subscription) C() <-chan Message { return s.c }

// Close ends the subscription.
func (s *Subscription) Close() {
	s.bus.mu.Lock()
	s.bus.drop(s)
	s.bus.mu.Unlock()
}

// drop removes and closes s; the caller holds b.mu.
func (b *Bus) drop(s *Subscription) {
	if _, ok := b.subs[s]; ok {
		delete(b.subs, s)
		s.once.Do(func() { close(s.c) })
	}
}

// Publish stamps an event with the time and hands it to every listener.
func (b *Bus) Publish(e domain.Event) {
	ev := Message{Event: e, At: b.now().UTC()}
	b.mu.Lock()
	defer b.mu.Unlock()
	for s := range b.subs {
		select {
		case s.c <- ev:
		default:
			b.drop(s)
		}
	}
}

// Listeners returns how many subscriptions are open.
func (b *Bus) Listeners() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.subs)
}
