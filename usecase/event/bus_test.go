package event

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
)

func TestBusDeliversInOrder(t *testing.T) {
	at := time.Date(2025, 1, 2, 3, 4, 5, 0, time.FixedZone("MSK", 3*3600))
	b := New(func() time.Time { return at })
	a, c := b.Subscribe(8), b.Subscribe(8)
	b.Publish(domain.ScanStarted{ScanID: "1"})
	b.Publish(domain.ScanCompleted{ScanID: "1", State: domain.JobCompleted})
	for _, s := range []*Subscription{a, c} {
		m := <-s.C()
		assert.Equal(t, domain.ScanStarted{ScanID: "1"}, m.Event)
		assert.Equal(t, at.UTC(), m.At, "the bus stamps the time, in UTC")
		assert.Equal(t, "scan_completed", (<-s.C()).Event.EventName())
	}
	a.Close()
	a.Close()
	_, open := <-a.C()
	assert.False(t, open)
	assert.Equal(t, 1, b.Listeners())
}

func TestSlowListenerIsCutOffWithoutBlocking(t *testing.T) {
	b := New(nil)
	slow := b.Subscribe(1)
	fast := b.Subscribe(10)
	done := make(chan struct{})
	go func() {
		for range 5 {
			b.Publish(domain.ScanProgress{})
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		t.Fatal("Publish blocked on a slow listener")
	}
	n := 0
	for range slow.C() {
		n++
	}
	assert.Equal(t, 1, n, "the slow one got what fit, then its channel closed")
	require.Len(t, fast.C(), 5)
	assert.Equal(t, 1, b.Listeners())
}

func TestListenerSubscribesAgainAfterFallingBehind(t *testing.T) {
	b := New(nil)
	l := b.Listen(1)
	b.Publish(domain.ScanStarted{ScanID: "1"})
	b.Publish(domain.ScanStarted{ScanID: "lost"}) // the buffer is full: cut off
	ctx, cancel := context.WithCancel(context.Background())
	got := make(chan string, 4)
	lost := make(chan struct{}, 1)
	done := make(chan struct{})
	go func() {
		l.Run(ctx, func(m Message) { got <- m.Event.(domain.ScanStarted).ScanID }, func() { lost <- struct{}{} })
		close(done)
	}()
	assert.Equal(t, "1", <-got)
	<-lost
	require.Eventually(t, func() bool { return b.Listeners() == 1 }, time.Second, time.Millisecond)
	b.Publish(domain.ScanStarted{ScanID: "2"})
	assert.Equal(t, "2", <-got, "listening again after the cut")
	cancel()
	<-done
	assert.Equal(t, 0, b.Listeners(), "Run closes its subscription when it ends")
}
