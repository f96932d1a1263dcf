package control_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/repository/sqlstore/sqlstoretest"
	"mediateka/usecase/control"
	"mediateka/usecase/textmatch"
)

func presence(players, remotes int) map[string]any {
	return map[string]any{"event": "presence", "players": float64(players), "remotes": float64(remotes)}
}

func TestPlayIsResolvedThroughTheCatalogue(t *testing.T) {
	e := newEnv(t, control.Options{AllowAnonymousRooms: true})
	heat := e.db.Movie("Heat", 1995)
	ep := e.db.Series("Dark").Season(1).Episode(2)
	folder := e.db.Series("Lost")
	player := e.join(control.Player, "den", anonymous)
	remote := e.join(control.Remote, "den", anonymous)

	remote.say(map[string]any{"event": "play", "file": heat.Path})
	assert.Equal(t, map[string]any{"event": "play", "file": heat.Path, "media_id": float64(heat.ID), "title": "Heat"}, player.nextOf())
	remote.say(map[string]any{"event": "play", "file": fmt.Sprintf("media:%d", ep.ID)})
	assert.Equal(t, map[string]any{"event": "play", "file": fmt.Sprintf("media:%d", ep.ID), "media_id": float64(ep.ID), "title": "Dark"}, player.nextOf())

	remote.say(map[string]any{"event": "play", "file": folder.Path})
	assert.Equal(t, "no_file", remote.nextOf()["code"], "a series folder is not a file to play")
	player.quiet()

	st, err := e.hub.Status("den", anonymous)
	require.NoError(t, err)
	assert.Equal(t, domain.Room{State: domain.PlayPlaying, Volume: 100, File: fmt.Sprintf("media:%d", ep.ID), MediaID: ep.ID, Title: "Dark"}, st.Playback)
}

func TestCommandsNeedAPlayerAndAState(t *testing.T) {
	e := newEnv(t, control.Options{AllowAnonymousRooms: true})
	remote := e.join(control.Remote, "den", anonymous)
	remote.say(map[string]any{"event": "volume", "level": 10})
	assert.Equal(t, "no_player", remote.nextOf()["code"])

	player := e.join(control.Player, "den", anonymous)
	remote.say(map[string]any{"event": "pause"})
	got := remote.nextOf()
	assert.Equal(t, "invalid_state", got["code"], "nothing plays yet")
	remote.say(map[string]any{"event": "play"})
	assert.Equal(t, "invalid_state", remote.nextOf()["code"], "nothing to resume")
	player.quiet()
}

func TestPresenceAndReplay(t *testing.T) {
	e := newEnv(t, control.Options{AllowAnonymousRooms: true})
	player := e.join(control.Player, "den", anonymous)
	assert.Equal(t, presence(1, 0), player.next())

	first := e.join(control.Remote, "den", anonymous)
	assert.Equal(t, presence(1, 1), player.next())
	assert.Equal(t, presence(1, 1), first.next(), "a remote in a room with no reports gets the presence only")
	first.quiet()

	player.say(map[string]any{"event": "metadata_update", "title": "Heat", "year": 1995})
	player.say(map[string]any{"event": "playlist_update", "files": []string{"/m/a.mkv", "/m/b.mkv"}})
	player.say(map[string]any{"event": "status_update", "state": "playing", "position": 5, "duration": 60})
	player.say(map[string]any{"event": "status_update", "state": "paused", "position": 6, "duration": 60})
	for _, ev := range []string{"metadata_update", "playlist_update", "status_update", "status_update"} {
		assert.Equal(t, ev, first.next()["event"], "the first remote gets the reports live")
	}

	late := e.join(control.Remote, "den", anonymous)
	assert.Equal(t, presence(1, 2), late.next())
	assert.Equal(t, map[string]any{"event": "status_update", "state": "paused", "position": 6.0, "duration": 60.0}, late.next(), "the last status")
	assert.Equal(t, map[string]any{"event": "playlist_update", "files": []any{"/m/a.mkv", "/m/b.mkv"}}, late.next())
	assert.Equal(t, map[string]any{"event": "metadata_update", "title": "Heat", "year": 1995.0}, late.next())
	assert.Equal(t, presence(1, 2), player.next())
	assert.Equal(t, presence(1, 2), first.next())

	first.leave()
	assert.Equal(t, presence(1, 1), player.next())
	assert.Equal(t, presence(1, 1), late.next())
	player.leave()
	assert.Equal(t, presence(0, 1), late.next())
}

func TestStatusAndEmptyRoomsDisappear(t *testing.T) {
	e := newEnv(t, control.Options{AllowAnonymousRooms: true})
	st, err := e.hub.Status("den", anonymous)
	require.NoError(t, err)
	assert.Equal(t, control.RoomStatus{Room: "den", Playback: domain.NewRoom()}, st)

	player := e.join(control.Player, "den", anonymous)
	remote := e.join(control.Remote, "den", anonymous)
	e.join(control.Remote, "other", anonymous)
	player.say(map[string]any{"event": "status_update", "state": "playing", "position": 5, "duration": 60, "volume": 40})
	player.say(map[string]any{"event": "playlist_update", "files": []string{"/m/a.mkv"}})
	remote.say(map[string]any{"event": "seek", "position": 30})
	assert.Equal(t, "seek", player.nextOf()["event"])

	st, err = e.hub.Status("den", anonymous)
	require.NoError(t, err)
	vol := 40
	assert.Equal(t, control.RoomStatus{Room: "den", Players: 1, Remotes: 1,
		Status:   &control.StatusUpdate{State: domain.PlayPlaying, Position: 5, Duration: 60, Volume: &vol},
		Playlist: []control.PlaylistItem{{File: "/m/a.mkv", Bare: true}},
		Playback: domain.Room{State: domain.PlayPlaying, Position: 30, Duration: 60, Volume: 40}}, st)
	assert.Equal(t, 2, e.hub.Rooms())

	player.leave()
	remote.leave()
	assert.Equal(t, 1, e.hub.Rooms(), "the empty room is gone")
	st, err = e.hub.Status("den", anonymous)
	require.NoError(t, err)
	assert.Equal(t, control.RoomStatus{Room: "den", Playback: domain.NewRoom()}, st, "and its memory with it")
}

func TestJoinRules(t *testing.T) {
	db := sqlstoretest.New(t, textmatch.Normalize)
	ann := domain.CallerOf(db.User("ann@example.org"))
	bob := domain.CallerOf(db.User("bob@example.org"))
	root := domain.CallerOf(db.User("root@example.org", sqlstoretest.Admin))
	tests := []struct {
		name      string
		anonymous bool
		role      string
		room      string
		caller    domain.Caller
		want      string // error code, "" for admitted
		wantRoom  string
	}{
		{"a shared code, anonymous", true, "player", "living room", anonymous, "", "living room"},
		{"a shared code is trimmed", true, "remote", "  den ", anonymous, "", "den"},
		{"one's own e-mail room", true, "player", "ann@example.org", ann, "", "ann@example.org"},
		{"one's own e-mail room in capitals", true, "remote", "Ann@Example.ORG", ann, "", "ann@example.org"},
		{"an admin in someone's room", true, "remote", "ann@example.org", root, "", "ann@example.org"},
		{"someone else's e-mail room", true, "remote", "ann@example.org", bob, "forbidden", ""},
		{"an e-mail room without a token", true, "player", "ann@example.org", anonymous, "unauthorized", ""},
		{"anything with an @ is an e-mail room", true, "player", "@home", anonymous, "unauthorized", ""},
		{"shared codes closed to anonymous", false, "player", "den", anonymous, "unauthorized", ""},
		{"shared codes open to accounts", false, "player", "den", bob, "", "den"},
		{"no role", true, "", "den", anonymous, "invalid_input", ""},
		{"a made-up role", true, "tv", "den", anonymous, "invalid_input", ""},
		{"no room", true, "player", "  ", anonymous, "invalid_input", ""},
		{"a room with a control character", true, "player", "den\x00", anonymous, "invalid_input", ""},
		{"a 129-character room", true, "player", strings.Repeat("я", 129), anonymous, "invalid_input", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hub := control.New(nil, control.Options{AllowAnonymousRooms: tt.anonymous})
			ticket, err := hub.Admit(tt.role, tt.room, tt.caller)
			if tt.want == "" {
				require.NoError(t, err)
				assert.Equal(t, tt.wantRoom, ticket.Room)
				return
			}
			var de *domain.Error
			require.ErrorAs(t, err, &de)
			assert.Equal(t, tt.want, de.Code)
			_, serr := hub.Status(tt.room, tt.caller)
			if tt.role != "" && tt.role != "tv" {
				assert.ErrorIs(t, serr, de, "status follows the same rules")
			}
		})
	}
}

func TestARoomHasABoundedNumberOfConnections(t *testing.T) {
	e := newEnv(t, control.Options{AllowAnonymousRooms: true, MaxPerRoom: 2})
	e.join(control.Player, "den", anonymous)
	e.join(control.Remote, "den", anonymous)
	_, err := e.hub.Admit("remote", "den", anonymous)
	assert.ErrorIs(t, err, control.ErrRoomFull)
	_, err = e.hub.Admit("remote", "attic", anonymous)
	assert.NoError(t, err)
}

func TestStopClosesEveryConnectionGoingAway(t *testing.T) {
	e := newEnv(t, control.Options{AllowAnonymousRooms: true})
	peers := []*peer{e.join(control.Player, "den", anonymous), e.join(control.Remote, "den", anonymous),
		e.join(control.Remote, "attic", anonymous)}
	ctx, cancel := stopCtx()
	defer cancel()
	require.NoError(t, e.hub.Stop(ctx))
	for _, p := range peers {
		assert.Equal(t, control.CloseGoingAway, p.conn.closeCode(t))
	}
	assert.Equal(t, 0, e.hub.Rooms())
	_, err := e.hub.Admit("player", "den", anonymous)
	assert.ErrorIs(t, err, control.ErrShuttingDown)
	_, err = e.hub.Join(control.Ticket{Room: "den", Role: control.Player}, newFakeConn(false))
	assert.ErrorIs(t, err, control.ErrShuttingDown)
}

func TestStopWaitsForConnectionsToLeave(t *testing.T) {
	e := newEnv(t, control.Options{AllowAnonymousRooms: true})
	ticket, err := e.hub.Admit("player", "den", anonymous)
	require.NoError(t, err)
	conn := newFakeConn(false)
	c, err := e.hub.Join(ticket, conn)
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	assert.ErrorIs(t, e.hub.Stop(ctx), context.DeadlineExceeded, "the reader has not ended yet")
	c.Leave()
	ctx2, cancel2 := stopCtx()
	defer cancel2()
	assert.NoError(t, e.hub.Stop(ctx2))
}

// playResolver stands in for the /play work: it answers with the account
// and the entry, so the test sees which player got what.
type playResolver struct{}

func (playResolver) ResolvePlay(_ context.Context, viewer domain.Caller, m domain.Media) (any, error) {
	return map[string]any{"stream_url": fmt.Sprintf("/api/media/%d/stream?for=%d", m.ID, viewer.UserID)}, nil
}

func TestAPlayResolverAnswersEachPlayerWithAnAccount(t *testing.T) {
	e := newEnv(t, control.Options{AllowAnonymousRooms: true, Play: playResolver{}})
	ann := domain.CallerOf(e.db.User("ann@example.org"))
	heat := e.db.Movie("Heat", 1995)
	tv := e.join(control.Player, "den", ann)
	guest := e.join(control.Player, "den", anonymous)
	remote := e.join(control.Remote, "den", anonymous)
	remote.say(map[string]any{"event": "play", "file": heat.Path})
	assert.Equal(t, map[string]any{"stream_url": fmt.Sprintf("/api/media/%d/stream?for=%d", heat.ID, ann.UserID)}, tv.nextOf()["play"])
	got := guest.nextOf()
	assert.Equal(t, "Heat", got["title"])
	assert.NotContains(t, got, "play", "a player without an account gets no play token")
}

func TestPlayFromOutsideTheRoom(t *testing.T) {
	e := newEnv(t, control.Options{})
	heat := e.db.Movie("Heat", 1995)
	folder := e.db.Series("Lost")
	ann := domain.Caller{UserID: 7, Email: "ann@example.org", Role: domain.RoleUser}
	bob := domain.Caller{UserID: 8, Email: "bob@example.org", Role: domain.RoleUser}

	_, err := e.hub.Play(context.Background(), ann.Email, ann, heat.ID)
	assert.ErrorIs(t, err, control.ErrNoPlayer, "nobody in the room")
	remote := e.join(control.Remote, ann.Email, ann)
	_, err = e.hub.Play(context.Background(), ann.Email, ann, heat.ID)
	assert.ErrorIs(t, err, control.ErrNoPlayer, "a remote alone is no player")

	player := e.join(control.Player, ann.Email, ann)
	_, err = e.hub.Play(context.Background(), ann.Email, bob, heat.ID)
	assert.ErrorIs(t, err, control.ErrRoomOfAnother)
	_, err = e.hub.Play(context.Background(), ann.Email, ann, folder.ID)
	assert.ErrorIs(t, err, domain.ErrNoFile)
	player.quiet()

	m, err := e.hub.Play(context.Background(), ann.Email, ann, heat.ID)
	require.NoError(t, err)
	assert.Equal(t, "Heat", m.Title)
	assert.Equal(t, map[string]any{"event": "play", "file": fmt.Sprintf("media:%d", heat.ID), "media_id": float64(heat.ID), "title": "Heat"}, player.nextOf())
	remote.quiet()
	st, err := e.hub.Status(ann.Email, ann)
	require.NoError(t, err)
	assert.Equal(t, domain.PlayPlaying, st.Playback.State)
	assert.Equal(t, "Heat", st.Playback.Title)
}
