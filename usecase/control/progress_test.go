package control_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/repository/sqlstore/sqlstoretest"
	"mediateka/usecase/catalog"
	"mediateka/usecase/control"
	"mediateka/usecase/watching"
)

// progressEnv is a hub whose Progress is the real watching state over
// the same store, with an account, a film, an episode and its season.
type progressEnv struct {
	*env
	watch                 *watching.Service
	clock                 *clock
	ann                   domain.Caller
	heat, episode, season int64
}

func newProgressEnv(t *testing.T) *progressEnv {
	t.Helper()
	p := &progressEnv{clock: &clock{now: time.Date(2026, 3, 1, 20, 0, 0, 0, time.UTC)}}
	p.env = newEnvWith(t, func(db *sqlstoretest.DB, cat *catalog.Service) control.Options {
		p.watch = watching.New(db.Watching, cat, watching.Options{Now: p.clock.Now})
		return control.Options{AllowAnonymousRooms: true, Progress: p.watch}
	})
	u := p.db.User("ann@example.org")
	p.ann = domain.CallerOf(u)
	p.heat = p.db.Movie("Heat", 1995).ID
	season := p.db.Series("Dark").Season(1)
	p.season, p.episode = season.ID, season.Episode(1).ID
	return p
}

// position is what ann's state of id holds, and whether there is one.
func (p *progressEnv) position(id int64) (float64, bool) {
	p.t.Helper()
	st, err := p.watch.States(context.Background(), p.ann.UserID)
	require.NoError(p.t, err)
	w, ok := st[id]
	return w.Position, ok
}

func status(state string, pos, dur float64) map[string]any {
	return map[string]any{"event": "status_update", "state": state, "position": pos, "duration": dur}
}

// TestASignedInPlayerKeepsItsPosition: the status_updates of a signed-in
// player keep its account's position in what the room plays — the entry
// of the last play, or the one its metadata_update names.
func TestASignedInPlayerKeepsItsPosition(t *testing.T) {
	p := newProgressEnv(t)
	player := p.join(control.Player, "den", p.ann)
	remote := p.join(control.Remote, "den", anonymous)

	player.say(status("playing", 5, 6000))
	_, ok := p.position(p.heat)
	assert.False(t, ok, "nothing was played through the room: the entry is unknown")

	remote.say(map[string]any{"event": "play", "file": fmt.Sprintf("media:%d", p.heat)})
	require.Equal(t, "play", player.nextOf()["event"])
	player.say(status("playing", 0, 0))
	_, ok = p.position(p.heat)
	assert.False(t, ok, "position 0 says nothing")
	player.say(status("playing", 42.5, 6000))
	pos, _ := p.position(p.heat)
	assert.InDelta(t, 42.5, pos, 0)

	p.clock.add(time.Minute)
	player.say(status("stopped", 0, 6000))
	pos, _ = p.position(p.heat)
	assert.InDelta(t, 42.5, pos, 0, "a stop does not erase where it stopped")
	player.say(status("paused", 50, 6000))
	pos, _ = p.position(p.heat)
	assert.InDelta(t, 50, pos, 0, "a paused player is kept too")

	player.say(map[string]any{"event": "metadata_update", "title": "Dark", "media_id": p.episode})
	player.say(status("playing", 12, 3000))
	pos, _ = p.position(p.episode)
	assert.InDelta(t, 12, pos, 0, "the metadata names what plays now")
	player.say(map[string]any{"event": "metadata_update", "title": "Dark, season 1", "media_id": p.season})
	player.say(status("playing", 13, 3000))
	_, ok = p.position(p.season)
	assert.False(t, ok, "a season is not kept")
	player.quiet() // and the player hears no error for it
	assert.Equal(t, "status_update", remote.nextOf()["event"], "the report still reached the remote")
}

// TestAStrangerCannotSayWhatAnotherPlayerPlays: in a shared room, what
// one player says it plays never decides what another player's reports
// are kept for; a player's own status_update media_id does.
func TestAStrangerCannotSayWhatAnotherPlayerPlays(t *testing.T) {
	p := newProgressEnv(t)
	player := p.join(control.Player, "den", p.ann)
	stranger := p.join(control.Player, "den", anonymous)
	remote := p.join(control.Remote, "den", anonymous)

	remote.say(map[string]any{"event": "play", "file": fmt.Sprintf("media:%d", p.heat)})
	require.Equal(t, "play", player.nextOf()["event"])
	require.Equal(t, "play", stranger.nextOf()["event"])
	stranger.say(map[string]any{"event": "metadata_update", "title": "Dark", "media_id": p.episode})
	player.say(status("playing", 2900, 3000))
	_, ok := p.position(p.episode)
	assert.False(t, ok, "the stranger's metadata says nothing about ann's player")
	pos, _ := p.position(p.heat)
	assert.InDelta(t, 2900, pos, 0, "kept for what the room sent ann's player")

	late := p.join(control.Player, "den", p.ann) // joined after the play: knows nothing
	late.say(status("playing", 10, 3000))
	pos, _ = p.position(p.heat)
	assert.InDelta(t, 2900, pos, 0, "a player that was sent no play and named nothing keeps nothing")
	_, ok = p.position(p.episode)
	assert.False(t, ok)

	p.clock.add(time.Minute)
	player.say(with(status("playing", 30, 3000), "media_id", p.episode))
	pos, _ = p.position(p.episode)
	assert.InDelta(t, 30, pos, 0, "a player's own media_id names the entry of its report")
	pos, _ = p.position(p.heat)
	assert.InDelta(t, 2900, pos, 0)
}

// with returns m with one more field.
func with(m map[string]any, k string, v any) map[string]any {
	m[k] = v
	return m
}

// TestWhereTheViewerStoppedIsKept: the throttle drops a playing player's
// reports between writes, but a pause is written at once, and a stop,
// moving on to another entry or leaving writes the last report dropped.
func TestWhereTheViewerStoppedIsKept(t *testing.T) {
	p := newProgressEnv(t)
	player := p.join(control.Player, "den", p.ann)
	play := func(id int64, from, to int) {
		for sec := from; sec <= to; sec++ {
			player.say(with(status("playing", float64(sec), 6000), "media_id", id))
			p.clock.add(time.Second)
		}
	}
	play(p.heat, 1, 14)
	pos, _ := p.position(p.heat)
	require.InDelta(t, 11, pos, 0, "throttled while playing")
	player.say(with(status("paused", 14, 6000), "media_id", p.heat))
	pos, _ = p.position(p.heat)
	assert.InDelta(t, 14, pos, 0, "a pause is written at once")
	before := p.db.DataVersion()
	player.say(with(status("paused", 14, 6000), "media_id", p.heat))
	assert.Equal(t, before, p.db.DataVersion(), "a paused player repeating itself writes nothing")

	play(p.heat, 15, 18)
	player.say(with(status("stopped", 0, 6000), "media_id", p.heat))
	pos, _ = p.position(p.heat)
	assert.InDelta(t, 18, pos, 0, "a stop writes the last position")

	p.clock.add(time.Minute)
	play(p.heat, 100, 103)
	play(p.episode, 1, 1)
	pos, _ = p.position(p.heat)
	assert.InDelta(t, 103, pos, 0, "moving on writes where the last entry was left")

	play(p.episode, 2, 4)
	player.leave()
	pos, _ = p.position(p.episode)
	assert.InDelta(t, 4, pos, 0, "leaving writes the last position")
}

// TestAnAnonymousPlayerKeepsNothing: a player without an account reports
// to the room only.
func TestAnAnonymousPlayerKeepsNothing(t *testing.T) {
	p := newProgressEnv(t)
	player := p.join(control.Player, "den", anonymous)
	player.say(map[string]any{"event": "metadata_update", "title": "Heat", "media_id": p.heat})
	player.say(status("playing", 42, 6000))
	player.say(with(status("paused", 43, 6000), "media_id", p.heat))
	player.leave()
	_, ok := p.position(p.heat)
	assert.False(t, ok)
	var n int
	p.db.Scan(`SELECT count(*) FROM watch_state`, nil, &n)
	assert.Zero(t, n)
}

// blockingProgress holds every report until released.
type blockingProgress struct {
	entered chan struct{}
	release chan struct{}
}

func (b blockingProgress) Report(ctx context.Context, _, _ int64, _, _ float64) error {
	b.entered <- struct{}{}
	select {
	case <-b.release:
	case <-ctx.Done():
	}
	return nil
}

func (b blockingProgress) Save(ctx context.Context, user, media int64, pos, dur float64) error {
	return b.Report(ctx, user, media, pos, dur)
}

func (blockingProgress) Flush(context.Context, int64, int64) error { return nil }

// TestASlowStoreHoldsOnlyThatPlayer: while a player's report waits for
// the store, its room and other rooms go on.
func TestASlowStoreHoldsOnlyThatPlayer(t *testing.T) {
	slow := blockingProgress{entered: make(chan struct{}, 1), release: make(chan struct{})}
	e := newEnv(t, control.Options{AllowAnonymousRooms: true, Progress: slow})
	heat := e.db.Movie("Heat", 1995).ID
	ann := domain.CallerOf(e.db.User("ann@example.org"))
	player := e.join(control.Player, "den", ann)
	remote := e.join(control.Remote, "den", anonymous)
	otherPlayer := e.join(control.Player, "attic", anonymous)
	otherRemote := e.join(control.Remote, "attic", anonymous)

	player.say(map[string]any{"event": "metadata_update", "title": "Heat", "media_id": heat})
	require.Equal(t, "metadata_update", remote.nextOf()["event"])
	done := make(chan struct{})
	go func() { defer close(done); player.say(status("playing", 42, 6000)) }()
	select {
	case <-slow.entered:
	case <-time.After(wait):
		t.Fatal("the report did not reach the store")
	}
	assert.Equal(t, "status_update", remote.nextOf()["event"], "forwarded before it is kept")
	remote.say(map[string]any{"event": "volume", "level": 30})
	assert.Equal(t, map[string]any{"event": "volume", "level": 30.0}, player.nextOf(), "the room goes on")
	otherRemote.say(map[string]any{"event": "volume", "level": 7})
	assert.Equal(t, map[string]any{"event": "volume", "level": 7.0}, otherPlayer.nextOf(), "other rooms go on")
	close(slow.release)
	<-done
}
