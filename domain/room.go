package domain

import "math"

// PlayState is where playback in a control room stands. A room starts
// idle; a play command makes it playing, pause and play (resume) move it
// between playing and paused, and stop ends in stopped, from where only a
// new play starts again. The player's own status_update reports may name
// any of these states: the player is the truth about what its video does.
type PlayState string

// The playback states of a room.
const (
	PlayIdle    PlayState = "idle"
	PlayPlaying PlayState = "playing"
	PlayPaused  PlayState = "paused"
	PlayStopped PlayState = "stopped"
)

// ValidPlayState reports whether s is one of the four states.
func ValidPlayState(s PlayState) bool {
	switch s {
	case PlayIdle, PlayPlaying, PlayPaused, PlayStopped:
		return true
	}
	return false
}

// MaxVolume is the loudest volume level; levels are integers 0..MaxVolume.
const MaxVolume = 100

// Room is what a control room knows about the playback its players do:
// the state, the position and duration in seconds (duration 0: unknown),
// the volume, and the entry being played. Remote commands and player
// reports both change it through Apply, which refuses a command that makes
// no sense in the current state, so a remote learns at once that, say,
// nothing is playing to pause.
type Room struct {
	State    PlayState
	Position float64
	Duration float64
	Volume   int
	// File, MediaID and Title name what the last play started (MediaID 0
	// when a player reported a status without a play through the room).
	File    string
	MediaID int64
	Title   string
}

// NewRoom is the state of a room nobody has played anything in yet.
func NewRoom() Room { return Room{State: PlayIdle, Volume: MaxVolume} }

// RoomEvent is one thing that changes a room: a remote's command (Play,
// Pause, Stop, Volume, Seek) or a player's report (PlayerStatus). The set is
// closed: only this package's types implement it.
type RoomEvent interface{ roomEvent() }

// Play starts File, or resumes the paused file when File is empty.
// MediaID and Title are the catalogue entry File was resolved to.
type Play struct {
	File    string
	MediaID int64
	Title   string
}

// Pause pauses playback.
type Pause struct{}

// Stop ends playback.
type Stop struct{}

// Volume sets the volume level, an integer 0..MaxVolume.
type Volume struct{ Level int }

// Seek moves playback to Position seconds.
type Seek struct{ Position float64 }

// PlayerStatus is a player's report of what its video does. Volume is nil
// when the player did not report one.
type PlayerStatus struct {
	State    PlayState
	Position float64
	Duration float64
	Volume   *int
}

func (Play) roomEvent()         {}
func (Pause) roomEvent()        {}
func (Stop) roomEvent()         {}
func (Volume) roomEvent()       {}
func (Seek) roomEvent()         {}
func (PlayerStatus) roomEvent() {}

// Errors of control rooms. Their codes are part of the API (docs/API.md §6).
var (
	ErrNothingPlaying  = NewError(KindConflict, "invalid_state", "nothing is playing in this room")
	ErrNothingToResume = NewError(KindConflict, "invalid_state", "nothing is paused in this room to resume")
)

// Field reasons of room validation errors, shared with the message decoder
// so a wrong type and a wrong value read alike.
const (
	ReasonVolume   = "must be an integer from 0 to 100"
	ReasonPosition = "must be a number of seconds, 0 or more"
	ReasonState    = "must be one of idle, playing, paused, stopped"
)

// Apply changes the room by e, or returns why e is refused and leaves the
// room as it was: an invalid value (KindInvalid, naming the field) or a
// command the state does not allow (invalid_state).
func (r *Room) Apply(e RoomEvent) error {
	if err := Validate(e); err != nil {
		return err
	}
	switch e := e.(type) {
	case Play:
		return r.play(e)
	case Pause:
		if r.State != PlayPlaying && r.State != PlayPaused {
			return ErrNothingPlaying
		}
		r.State = PlayPaused
	case Stop:
		if r.State != PlayIdle {
			r.State, r.Position = PlayStopped, 0
		}
	case Volume:
		r.Volume = e.Level
	case Seek:
		return r.seek(e)
	case PlayerStatus:
		r.State, r.Position, r.Duration = e.State, e.Position, e.Duration
		if e.Volume != nil {
			r.Volume = *e.Volume
		}
	}
	return nil
}

// play starts a file from its beginning, or resumes a paused one.
func (r *Room) play(e Play) error {
	if e.File == "" {
		if r.State != PlayPaused && r.State != PlayPlaying {
			return ErrNothingToResume
		}
		r.State = PlayPlaying
		return nil
	}
	r.State, r.Position, r.Duration = PlayPlaying, 0, 0
	r.File, r.MediaID, r.Title = e.File, e.MediaID, e.Title
	return nil
}

// seek moves the position within what is playing or paused; a position
// past a known duration is refused rather than clamped, so a remote with a
// stale duration finds out.
func (r *Room) seek(e Seek) error {
	if r.State != PlayPlaying && r.State != PlayPaused {
		return ErrNothingPlaying
	}
	if r.Duration > 0 && e.Position > r.Duration {
		return ErrInvalid("the position is past the end", map[string]string{"position": "must not be past the end (the duration)"})
	}
	r.Position = e.Position
	return nil
}

// Validate checks the values an event carries, whatever the room's state:
// volume levels 0..100, positions and durations finite and not negative,
// a known state. The message decoder calls it too, so an event is refused
// before anything is looked up for it.
func Validate(e RoomEvent) error {
	bad := func(field, reason string) error {
		return ErrInvalid("invalid "+field, map[string]string{field: reason})
	}
	switch e := e.(type) {
	case Volume:
		if e.Level < 0 || e.Level > MaxVolume {
			return bad("level", ReasonVolume)
		}
	case Seek:
		if !seconds(e.Position) {
			return bad("position", ReasonPosition)
		}
	case PlayerStatus:
		return validateStatus(e)
	}
	return nil
}

func validateStatus(e PlayerStatus) error {
	fields := map[string]string{}
	if !ValidPlayState(e.State) {
		fields["state"] = ReasonState
	}
	if !seconds(e.Position) {
		fields["position"] = ReasonPosition
	}
	if !seconds(e.Duration) {
		fields["duration"] = ReasonPosition
	}
	if e.Volume != nil && (*e.Volume < 0 || *e.Volume > MaxVolume) {
		fields["volume"] = ReasonVolume
	}
	if len(fields) > 0 {
		return ErrInvalid("invalid status_update", fields)
	}
	return nil
}

// seconds reports whether f is a usable time in seconds.
func seconds(f float64) bool { return f >= 0 && !math.IsInf(f, 0) && !math.IsNaN(f) }
