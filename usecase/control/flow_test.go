package control_test

import (
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"mediateka/usecase/control"
)

// clock is a settable time for the rate limit.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

func TestAStalledReaderLosesOnlyItsOwnConnection(t *testing.T) {
	e := newEnv(t, control.Options{AllowAnonymousRooms: true, QueueSize: 4})
	stalled := newFakeConn(true)
	e.joinConn(control.Player, "den", anonymous, stalled)
	denRemote := e.join(control.Remote, "den", anonymous)
	atticPlayer := e.join(control.Player, "attic", anonymous)
	atticRemote := e.join(control.Remote, "attic", anonymous)
	denRemote.drain()

	// The player's writer holds one message and its queue four: the
	// presences and the first volumes fill it. Five volumes overflow it
	// while the remote's own queue (also four) takes the refusals after.
	for i := range 5 {
		denRemote.say(map[string]any{"event": "volume", "level": i})
	}
	assert.Equal(t, control.CloseTooSlow, stalled.closeCode(t), "the stalled player is closed once its queue is full")
	for m := denRemote.next(); m["event"] != "presence"; m = denRemote.next() {
		assert.Equal(t, "no_player", m["code"], "commands after the player was dropped are refused")
	}
	// the presence above is the one sent when the player left
	st, _ := e.hub.Status("den", anonymous)
	assert.Equal(t, 0, st.Players, "the remote sees the player go")
	assert.False(t, denRemote.conn.isClosed(), "the sender stays connected")

	atticRemote.say(map[string]any{"event": "volume", "level": 7})
	assert.Equal(t, map[string]any{"event": "volume", "level": 7.0}, atticPlayer.nextOf(), "other rooms go on")
}

func TestTheRateLimitDropsTheExcessAndSaysSoOnceASecond(t *testing.T) {
	clk := &clock{now: time.Unix(1_700_000_000, 0)}
	e := newEnv(t, control.Options{AllowAnonymousRooms: true, Rate: 10, Burst: 5, Now: clk.Now})
	player := e.join(control.Player, "den", anonymous)
	remote := e.join(control.Remote, "den", anonymous)
	player.drain()
	remote.drain()

	for i := range 8 {
		remote.say(map[string]any{"event": "volume", "level": i})
	}
	for i := range 5 {
		assert.Equal(t, float64(i), player.nextOf()["level"], "the burst passes")
	}
	player.quiet()
	assert.Equal(t, "rate_limited", remote.nextOf()["code"])
	remote.quiet()

	clk.add(100 * time.Millisecond) // one token
	remote.say(map[string]any{"event": "volume", "level": 50})
	remote.say(map[string]any{"event": "volume", "level": 51})
	assert.Equal(t, 50.0, player.nextOf()["level"])
	player.quiet()
	remote.quiet() // warned less than a second ago

	clk.add(time.Second)
	remote.say(map[string]any{"event": "volume", "level": 60})
	assert.Equal(t, 60.0, player.nextOf()["level"], "the bucket refilled")
}

// TestAFloodIsDroppedAtTheSender sends 10 000 messages at one instant: the
// room forwards the burst, the flooder hears once that it is limited, and
// another room's traffic is untouched.
func TestAFloodIsDroppedAtTheSender(t *testing.T) {
	clk := &clock{now: time.Unix(1_700_000_000, 0)}
	e := newEnv(t, control.Options{AllowAnonymousRooms: true, Now: clk.Now})
	player := e.join(control.Player, "den", anonymous)
	flooder := e.join(control.Remote, "den", anonymous)
	atticPlayer := e.join(control.Player, "attic", anonymous)
	atticRemote := e.join(control.Remote, "attic", anonymous)
	player.drain()
	flooder.drain()

	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 10_000 {
			flooder.client.Receive([]byte(`{"event":"volume","level":5}`))
		}
	}()
	atticRemote.say(map[string]any{"event": "volume", "level": 9})
	assert.Equal(t, 9.0, atticPlayer.nextOf()["level"])
	<-done
	for range control.DefaultBurst {
		assert.Equal(t, "volume", player.nextOf()["event"])
	}
	player.quiet()
	assert.Equal(t, "rate_limited", flooder.nextOf()["code"])
	flooder.quiet()
	assert.False(t, flooder.conn.isClosed())
}
