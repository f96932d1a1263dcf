package event

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBusDeliversInOrder(t *testing.T) {
	at := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	b := New(func() time.Time { return at })
	a, c := b.Subscribe(8), b.Subscribe(8)
	b.Publish("scan_started", map[string]any{"scan_id": "1"})
	b.Publish("scan_completed", nil)
	for _, s := range []*Subscription{a, c} {
		e := <-s.C()
		assert.Equal(t, "scan_started", e.Name)
		assert.Equal(t, at, e.At)
		assert.Equal(t, "1", e.Data["scan_id"])
		assert.Equal(t, "scan_completed", (<-s.C()).Name)
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
			b.Publish("scan_progress", nil)
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
