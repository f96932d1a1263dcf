package http

import (
	"encoding/json"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/domain/domaintest"
	"mediateka/usecase/watching"
)

// FuzzAppendFloatIsEncodingJSON: positions and durations are written as
// encoding/json writes them.
func FuzzAppendFloatIsEncodingJSON(f *testing.F) {
	for _, v := range []float64{0, 1, 42.5, 6000, 0.1, 1e-7, 1.5e-6, 1e20, 1e21, 123456789.125, 5e-324, math.MaxFloat64, -3} {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v float64) {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return // refused before they are stored
		}
		want, err := json.Marshal(v)
		require.NoError(t, err)
		assert.Equal(t, string(want), string(appendFloat(nil, v)))
	})
}

// jsonState is a watching state as encoding/json writes it.
type jsonState struct {
	Position  float64   `json:"position"`
	Duration  float64   `json:"duration"`
	Watched   bool      `json:"watched"`
	UpdatedAt time.Time `json:"updated_at"`
}

// TestEntriesCarryTheirUserState: an entry of a user's answer ends with
// its user_state (null when none), exactly the bytes encoding/json writes
// for it; an entry of an administration answer has no such member.
func TestEntriesCarryTheirUserState(t *testing.T) {
	at := time.Date(2026, 3, 1, 20, 0, 0, 123456789, time.UTC)
	w := domain.WatchState{MediaID: 3, Position: 600.25, Duration: 6000, Watched: true, UpdatedAt: at}
	states := &userStates{m: map[int64]domain.WatchState{3: w}}
	withState, without := domaintest.FilledMedia(3), domaintest.FilledMedia(4)
	withState.ID, without.ID = 3, 4

	plain, err := json.Marshal(toMediaDTO(withState))
	require.NoError(t, err)
	var members map[string]json.RawMessage
	raw, err := mediaDTO{m: withState, states: states}.appendJSON(nil)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(raw, &members))
	want, _ := json.Marshal(jsonState{w.Position, w.Duration, w.Watched, w.UpdatedAt})
	assert.Equal(t, string(want), string(members["user_state"]))
	assert.Equal(t, string(plain[:len(plain)-1])+`,"user_state":`+string(want)+`}`, string(raw), "the entry, then user_state")

	raw, err = mediaDTO{m: without, states: states}.appendJSON(nil)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(raw, &members))
	assert.Equal(t, "null", string(members["user_state"]))

	plain, err = json.Marshal(toMediaDTO(without))
	require.NoError(t, err)
	assert.NotContains(t, string(plain), "user_state")
}

// TestContinueBytes: continue watching is what encoding/json writes for
// the same items.
func TestContinueBytes(t *testing.T) {
	at := time.Date(2026, 3, 1, 20, 0, 0, 0, time.UTC)
	page := watching.Page{Total: 7, Items: []watching.Item{
		{Media: domaintest.FilledMedia(3), State: domain.WatchState{MediaID: 3, Position: 10.5, Duration: 100, UpdatedAt: at}},
		{Media: domain.Media{ID: 9, Title: "Матрица"}, State: domain.WatchState{MediaID: 9, Position: 1, UpdatedAt: at.Add(-time.Hour)}},
	}}
	type item struct {
		Media     json.RawMessage `json:"media"`
		Position  float64         `json:"position"`
		Duration  float64         `json:"duration"`
		UpdatedAt time.Time       `json:"updated_at"`
	}
	items := []item{}
	for _, it := range page.Items {
		entry, err := json.Marshal(toMediaDTO(it.Media))
		require.NoError(t, err)
		state, _ := json.Marshal(jsonState{it.State.Position, it.State.Duration, it.State.Watched, it.State.UpdatedAt})
		entry = append(append(entry[:len(entry)-1], `,"user_state":`...), append(state, '}')...)
		items = append(items, item{entry, it.State.Position, it.State.Duration, it.State.UpdatedAt})
	}
	want, err := json.Marshal(items)
	require.NoError(t, err)
	got, err := appendContinue(nil, page)
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got))
	got, err = appendContinue(nil, watching.Page{})
	require.NoError(t, err)
	assert.Equal(t, "[]", string(got))
}
