package domain

import (
	"math"
	"time"
)

// WatchState is how far one account got with one movie or episode: the
// position and the duration in seconds (duration 0: unknown), whether it
// was watched, and when that last changed. Each account has its own; a
// missing state means never started.
type WatchState struct {
	MediaID   int64
	Position  float64
	Duration  float64
	Watched   bool
	UpdatedAt time.Time
}

// Seen is how far a person got with an entry, in the terms suggestions
// weigh it by: the offline assistant leaves out what was finished and puts
// what was started first. It is derived from a WatchState (see
// usecase/watching) and lives here so the assistant and the watching state
// share it without one use case importing the other.
type Seen int

// What a person has seen of an entry.
const (
	NotSeen      Seen = iota // never started, or nothing is known
	SeenStarted              // started and not finished (WatchState.Started)
	SeenFinished             // marked or reached watched
)

// WatchedShare is the share of the duration from which an entry counts as
// watched: the credits need not be sat through.
const WatchedShare = 0.9

// PositionSlack is how far a reported position may lie past the duration
// (players round both differently at the very end); the position is then
// taken as the duration.
const PositionSlack = 1.0

// Started reports whether the entry belongs to "continue watching":
// begun, short of WatchedShare, and not marked watched.
func (w WatchState) Started() bool {
	return !w.Watched && w.Position > 0 && !ReachesWatched(w.Position, w.Duration)
}

// ResumeAt is where playback should resume: the position, or 0 when the
// entry was watched (a second viewing starts over).
func (w WatchState) ResumeAt() float64 {
	if w.Watched {
		return 0
	}
	return w.Position
}

// ReachesWatched reports whether position is far enough into a known
// duration to count as watched.
func ReachesWatched(position, duration float64) bool {
	return duration > 0 && position >= WatchedShare*duration
}

// Reasons of progress validation errors.
const (
	ReasonSeconds      = "must be a number of seconds, 0 or more"
	ReasonPastDuration = "must not be past the duration"
)

// CheckProgress validates a reported position and duration: finite
// numbers of seconds, 0 or more, the position not past a known duration
// (beyond PositionSlack). It returns the position to keep: clamped to the
// duration within the slack.
func CheckProgress(position, duration float64) (float64, error) {
	fields := map[string]string{}
	if !seconds(position) {
		fields["position"] = ReasonSeconds
	}
	if !seconds(duration) {
		fields["duration"] = ReasonSeconds
	}
	if len(fields) == 0 && duration > 0 && position > duration+PositionSlack {
		fields["position"] = ReasonPastDuration
	}
	if len(fields) > 0 {
		return 0, ErrInvalid("invalid progress", fields)
	}
	if duration > 0 {
		position = math.Min(position, duration)
	}
	return position, nil
}
