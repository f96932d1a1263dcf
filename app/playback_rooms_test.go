package app

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestARoomsPlayersReceiveTheirOwnPlayAnswer(t *testing.T) {
	t.Parallel()
	pa := newPlayApp(t, nil)
	addr, stop := runOnLoopback(t, pa.testApp)
	defer func() { require.NoError(t, stop()) }()

	const room = "living-room"
	viewer := joinRoom(t, addr, "player", room, pa.user)
	viewer.presence(1, 0)
	anonymous := joinRoom(t, addr, "player", room, "")
	anonymous.presence(2, 0)
	remote := joinRoom(t, addr, "remote", room, "")
	remote.presence(2, 1)
	remote.say(map[string]any{"event": "play", "file": fmt.Sprintf("media:%d", pa.matrix)})

	got := viewer.next()
	play, ok := got["play"].(map[string]any)
	require.True(t, ok, "%v", got)
	assert.Equal(t, float64(pa.matrix), play["media_id"])
	assert.Equal(t, "remux", play["mode"], "the MKV with AC3 sound plays through remux")
	assert.Len(t, play["audio_tracks"], 2)
	resp, raw := pa.raw(t, "GET", play["stream_url"].(string)+"&audio=1", "", nil)
	assert.Equal(t, 200, resp.StatusCode, "the player's play token opens the stream")
	assert.Equal(t, "ftyp", string(raw[4:8]))

	resp, _ = pa.raw(t, "GET", mediaPath(pa.heat, "stream?st="+playToken(t, play)), "", nil)
	assert.Equal(t, 401, resp.StatusCode, "and no other entry")

	other := anonymous.next()
	assert.Equal(t, "play", other["event"])
	assert.NotContains(t, other, "play", "a player without an account gets no token")
}
