package http

import (
	"math"
	"strconv"

	"mediateka/domain"
	"mediateka/usecase/watching"
)

// appendWatchState writes a watching state as API.md §3 shows it:
// {"position","duration","watched","updated_at"}, the bytes encoding/json
// gives for the same members.
func appendWatchState(b []byte, w domain.WatchState) []byte {
	b = appendFloat(append(b, `{"position":`...), w.Position)
	b = appendFloat(append(b, `,"duration":`...), w.Duration)
	b = strconv.AppendBool(append(b, `,"watched":`...), w.Watched)
	b = appendTime(append(b, `,"updated_at":`...), w.UpdatedAt)
	return append(b, '}')
}

// appendFloat writes a finite number as encoding/json does: plain
// decimals, exponent form below 1e-6 and from 1e21, the shortest digits
// that read back the same.
func appendFloat(b []byte, f float64) []byte {
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if n := len(b); format == 'e' && n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
		// e-07 → e-7, as encoding/json writes it.
		b[n-2] = b[n-1]
		b = b[:n-1]
	}
	return b
}

// appendContinue writes continue watching as a JSON array of
// {"media": <entry with user_state>, "position", "duration", "updated_at"}.
func appendContinue(b []byte, page watching.Page) ([]byte, error) {
	states := &userStates{m: make(map[int64]domain.WatchState, len(page.Items))}
	for _, it := range page.Items {
		states.m[it.Media.ID] = it.State
	}
	b = append(b, '[')
	var err error
	for i, it := range page.Items {
		if i > 0 {
			b = append(b, ',')
		}
		if b, err = (mediaDTO{m: it.Media, states: states}).appendJSON(append(b, `{"media":`...)); err != nil {
			return nil, err
		}
		b = appendFloat(append(b, `,"position":`...), it.State.Position)
		b = appendFloat(append(b, `,"duration":`...), it.State.Duration)
		b = appendTime(append(b, `,"updated_at":`...), it.State.UpdatedAt)
		b = append(b, '}')
	}
	return append(b, ']'), nil
}
