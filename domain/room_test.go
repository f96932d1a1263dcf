package domain

import (
	"errors"
	"math"
	"testing"
)

func intp(n int) *int { return &n }

// TestRoomApply walks the state machine: each case starts from a room in
// a given state, applies one event and checks the room after it, or the
// error and that the room did not change.
func TestRoomApply(t *testing.T) {
	playing := Room{State: PlayPlaying, Position: 42, Duration: 100, Volume: 70, File: "/m/a.mkv", MediaID: 7, Title: "A"}
	paused := playing
	paused.State = PlayPaused
	stopped := playing
	stopped.State, stopped.Position = PlayStopped, 0
	with := func(r Room, f func(*Room)) Room { f(&r); return r }

	tests := []struct {
		name    string
		from    Room
		event   RoomEvent
		want    Room
		wantErr *Error
	}{
		{"a new room is idle at full volume", NewRoom(), Volume{Level: 100}, Room{State: PlayIdle, Volume: 100}, nil},
		{"play from idle starts the file", NewRoom(), Play{File: "/m/b.mp4", MediaID: 9, Title: "B"},
			Room{State: PlayPlaying, Volume: 100, File: "/m/b.mp4", MediaID: 9, Title: "B"}, nil},
		{"play of another file restarts at 0 with the volume kept", playing, Play{File: "/m/b.mp4", MediaID: 9, Title: "B"},
			Room{State: PlayPlaying, Volume: 70, File: "/m/b.mp4", MediaID: 9, Title: "B"}, nil},
		{"play after stop starts again", stopped, Play{File: "/m/a.mkv", MediaID: 7, Title: "A"},
			with(playing, func(r *Room) { r.Position, r.Duration = 0, 0 }), nil},
		{"pause while playing", playing, Pause{}, paused, nil},
		{"pause while paused stays paused", paused, Pause{}, paused, nil},
		{"resume a paused file keeps its position", paused, Play{}, playing, nil},
		{"resume while playing changes nothing", playing, Play{}, playing, nil},
		{"resume with nothing paused", NewRoom(), Play{}, NewRoom(), ErrNothingToResume},
		{"resume after stop", stopped, Play{}, stopped, ErrNothingToResume},
		{"pause with nothing playing", NewRoom(), Pause{}, NewRoom(), ErrNothingPlaying},
		{"pause after stop", stopped, Pause{}, stopped, ErrNothingPlaying},
		{"stop while playing rewinds and keeps the file", playing, Stop{}, stopped, nil},
		{"stop while paused", paused, Stop{}, stopped, nil},
		{"stop while idle stays idle", NewRoom(), Stop{}, NewRoom(), nil},
		{"seek while playing", playing, Seek{Position: 90.5}, with(playing, func(r *Room) { r.Position = 90.5 }), nil},
		{"seek while paused", paused, Seek{Position: 0}, with(paused, func(r *Room) { r.Position = 0 }), nil},
		{"seek to the very end", playing, Seek{Position: 100}, with(playing, func(r *Room) { r.Position = 100 }), nil},
		{"seek past the end", playing, Seek{Position: 100.5}, playing, ErrInvalid("", nil)},
		{"seek with an unknown duration", with(playing, func(r *Room) { r.Duration = 0 }), Seek{Position: 5000},
			with(playing, func(r *Room) { r.Duration, r.Position = 0, 5000 }), nil},
		{"seek with nothing playing", NewRoom(), Seek{Position: 3}, NewRoom(), ErrNothingPlaying},
		{"seek -3", playing, Seek{Position: -3}, playing, ErrInvalid("", nil)},
		{"seek NaN", playing, Seek{Position: math.NaN()}, playing, ErrInvalid("", nil)},
		{"volume in any state", stopped, Volume{Level: 0}, with(stopped, func(r *Room) { r.Volume = 0 }), nil},
		{"volume -1", playing, Volume{Level: -1}, playing, ErrInvalid("", nil)},
		{"volume 101", playing, Volume{Level: 101}, playing, ErrInvalid("", nil)},
		{"a player's status is taken as it is", NewRoom(), PlayerStatus{State: PlayPaused, Position: 12, Duration: 60, Volume: intp(30)},
			Room{State: PlayPaused, Position: 12, Duration: 60, Volume: 30}, nil},
		{"a status without volume keeps the volume", playing, PlayerStatus{State: PlayPlaying, Position: 43, Duration: 100},
			with(playing, func(r *Room) { r.Position = 43 }), nil},
		{"a status may end playback", playing, PlayerStatus{State: PlayStopped, Position: 100, Duration: 100},
			with(playing, func(r *Room) { r.State, r.Position = PlayStopped, 100 }), nil},
		{"a status with an unknown state", playing, PlayerStatus{State: "buffering", Position: 1, Duration: 2}, playing, ErrInvalid("", nil)},
		{"a status with a negative duration", playing, PlayerStatus{State: PlayPlaying, Position: 1, Duration: -2}, playing, ErrInvalid("", nil)},
		{"a status with volume 101", playing, PlayerStatus{State: PlayPlaying, Volume: intp(101)}, playing, ErrInvalid("", nil)},
		{"a status with an infinite position", playing, PlayerStatus{State: PlayPlaying, Position: math.Inf(1)}, playing, ErrInvalid("", nil)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := tt.from
			err := r.Apply(tt.event)
			switch {
			case tt.wantErr == nil && err != nil:
				t.Fatalf("Apply: %v", err)
			case tt.wantErr != nil && !errors.Is(err, tt.wantErr):
				t.Fatalf("Apply error = %v, want code %s", err, tt.wantErr.Code)
			}
			if r != tt.want {
				t.Fatalf("room after Apply = %+v, want %+v", r, tt.want)
			}
		})
	}
}

// TestRoomErrorsNameTheField checks that a refused value says which field
// and why, since the sender sees exactly that.
func TestRoomErrorsNameTheField(t *testing.T) {
	tests := []struct {
		event RoomEvent
		field string
	}{
		{Volume{Level: 101}, "level"},
		{Seek{Position: -3}, "position"},
		{PlayerStatus{State: "x"}, "state"},
		{PlayerStatus{State: PlayIdle, Duration: -1}, "duration"},
		{PlayerStatus{State: PlayIdle, Volume: intp(-1)}, "volume"},
	}
	for _, tt := range tests {
		var e *Error
		if !errors.As(Validate(tt.event), &e) || e.Kind != KindInvalid || e.Fields[tt.field] == "" {
			t.Errorf("Validate(%#v) = %v, want an invalid_input naming %q", tt.event, e, tt.field)
		}
	}
}
