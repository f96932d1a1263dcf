package control_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"mediateka/domain"
	"mediateka/usecase/control"
)

// TestInvalidMessagesAreAnsweredToTheSenderOnly sends every kind of bad
// message into a room where a player plays and a remote listens: the
// sender gets an error event with the documented code (and the field, for
// invalid_input), and nothing reaches the other side.
func TestInvalidMessagesAreAnsweredToTheSenderOnly(t *testing.T) {
	e := newEnv(t, control.Options{AllowAnonymousRooms: true})
	player := e.join(control.Player, "den", anonymous)
	remote := e.join(control.Remote, "den", anonymous)
	player.say(map[string]any{"event": "status_update", "state": "playing", "position": 10, "duration": 100})
	remote.drain()
	player.drain()

	long := strings.Repeat("я", 501)
	tests := []struct {
		name   string
		from   *peer
		msg    any
		code   string
		field  string
		reason string
	}{
		{"not JSON", remote, []byte("play please"), "invalid_json", "", ""},
		{"cut JSON", remote, []byte(`{"event":"pause"`), "invalid_json", "", ""},
		{"a JSON array", remote, []byte(`[{"event":"pause"}]`), "invalid_json", "", ""},
		{"a JSON string", remote, []byte(`"pause"`), "invalid_json", "", ""},
		{"empty frame", remote, []byte(""), "invalid_json", "", ""},
		{"no event", remote, map[string]any{"level": 5}, "invalid_input", "event", "must not be empty"},
		{"event not a string", remote, map[string]any{"event": 5}, "invalid_input", "event", "must be a string"},
		{"unknown event", remote, map[string]any{"event": "rewind"}, "unknown_event", "", ""},
		{"volume -1", remote, map[string]any{"event": "volume", "level": -1}, "invalid_input", "level", domain.ReasonVolume},
		{"volume 101", remote, map[string]any{"event": "volume", "level": 101}, "invalid_input", "level", domain.ReasonVolume},
		{"volume 50.5", remote, map[string]any{"event": "volume", "level": 50.5}, "invalid_input", "level", domain.ReasonVolume},
		{"volume as text", remote, map[string]any{"event": "volume", "level": "50"}, "invalid_input", "level", domain.ReasonVolume},
		{"volume without level", remote, map[string]any{"event": "volume"}, "invalid_input", "level", domain.ReasonVolume},
		{"volume 1e300", remote, []byte(`{"event":"volume","level":1e300}`), "invalid_input", "level", domain.ReasonVolume},
		{"seek -3", remote, map[string]any{"event": "seek", "position": -3}, "invalid_input", "position", domain.ReasonPosition},
		{"seek as text", remote, map[string]any{"event": "seek", "position": "10"}, "invalid_input", "position", domain.ReasonPosition},
		{"seek without position", remote, map[string]any{"event": "seek"}, "invalid_input", "position", domain.ReasonPosition},
		{"seek past the end", remote, map[string]any{"event": "seek", "position": 101}, "invalid_input", "position", "must not be past the end (the duration)"},
		{"play of an empty file", remote, map[string]any{"event": "play", "file": ""}, "invalid_input", "file", "must be a catalogue path or media:<id>"},
		{"play of a number", remote, map[string]any{"event": "play", "file": 7}, "invalid_input", "file", "must be a catalogue path or media:<id>"},
		{"play of media:abc", remote, map[string]any{"event": "play", "file": "media:abc"}, "invalid_input", "file", "must be a catalogue path or media:<id>"},
		{"play of media:0", remote, map[string]any{"event": "play", "file": "media:0"}, "invalid_input", "file", "must be a catalogue path or media:<id>"},
		{"play of a path outside the catalogue", remote, map[string]any{"event": "play", "file": "/etc/passwd"}, "media_not_found", "", ""},
		{"play of an unknown id", remote, map[string]any{"event": "play", "file": "media:999"}, "media_not_found", "", ""},
		{"a remote sending a player's report", remote, map[string]any{"event": "status_update", "state": "paused", "position": 1, "duration": 2}, "wrong_role", "", ""},
		{"a remote sending presence", remote, map[string]any{"event": "presence", "players": 9, "remotes": 9}, "wrong_role", "", ""},
		{"a player sending a command", player, map[string]any{"event": "pause"}, "wrong_role", "", ""},
		{"a player sending an error", player, map[string]any{"event": "error", "code": "x", "message": "y"}, "wrong_role", "", ""},
		{"status without state", player, map[string]any{"event": "status_update", "position": 1, "duration": 2}, "invalid_input", "state", domain.ReasonState},
		{"status with an unknown state", player, map[string]any{"event": "status_update", "state": "buffering", "position": 1, "duration": 2}, "invalid_input", "state", domain.ReasonState},
		{"status with a negative position", player, map[string]any{"event": "status_update", "state": "playing", "position": -1, "duration": 2}, "invalid_input", "position", domain.ReasonPosition},
		{"status without duration", player, map[string]any{"event": "status_update", "state": "playing", "position": 1}, "invalid_input", "duration", domain.ReasonPosition},
		{"status with volume 50.5", player, map[string]any{"event": "status_update", "state": "playing", "position": 1, "duration": 2, "volume": 50.5}, "invalid_input", "volume", domain.ReasonVolume},
		{"status with media_id 0", player, map[string]any{"event": "status_update", "state": "playing", "position": 1, "duration": 2, "media_id": 0}, "invalid_input", "media_id", "must be a whole number, 1 or more"},
		{"status with media_id 1.5", player, map[string]any{"event": "status_update", "state": "playing", "position": 1, "duration": 2, "media_id": 1.5}, "invalid_input", "media_id", "must be a whole number, 1 or more"},
		{"status with media_id as text", player, map[string]any{"event": "status_update", "state": "playing", "position": 1, "duration": 2, "media_id": "4"}, "invalid_input", "media_id", "must be a whole number, 1 or more"},
		{"playlist without files", player, map[string]any{"event": "playlist_update"}, "invalid_input", "files", ""},
		{"playlist of a string", player, map[string]any{"event": "playlist_update", "files": "a.mkv"}, "invalid_input", "files", ""},
		{"playlist with a number", player, map[string]any{"event": "playlist_update", "files": []any{"a.mkv", 5}}, "invalid_input", "files", ""},
		{"playlist with an item without file", player, map[string]any{"event": "playlist_update", "files": []any{map[string]any{"title": "A"}}}, "invalid_input", "files", ""},
		{"playlist of 1001 files", player, map[string]any{"event": "playlist_update", "files": many("a.mkv", 1001)}, "invalid_input", "files", ""},
		{"metadata without title", player, map[string]any{"event": "metadata_update", "media_id": 3}, "invalid_input", "title", ""},
		{"metadata with a 501-character title", player, map[string]any{"event": "metadata_update", "title": long}, "invalid_input", "title", ""},
		{"metadata with a script thumbnail", player, map[string]any{"event": "metadata_update", "title": "A", "thumbnail_url": "javascript:alert(1)"}, "invalid_input", "thumbnail_url", ""},
		{"metadata with another host's path", player, map[string]any{"event": "metadata_update", "title": "A", "thumbnail_url": "//evil.example/x.png"}, "invalid_input", "thumbnail_url", ""},
		{"metadata with media_id 1.5", player, map[string]any{"event": "metadata_update", "title": "A", "media_id": 1.5}, "invalid_input", "media_id", ""},
		{"metadata with year 1500", player, map[string]any{"event": "metadata_update", "title": "A", "year": 1500}, "invalid_input", "year", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.from.t = t
			tt.from.say(tt.msg)
			got := tt.from.nextOf()
			assert.Equal(t, "error", got["event"])
			assert.Equal(t, tt.code, got["code"])
			assert.NotEmpty(t, got["message"])
			if tt.field != "" {
				fields, _ := got["fields"].(map[string]any)
				assert.Contains(t, fields, tt.field)
				if tt.reason != "" {
					assert.Equal(t, tt.reason, fields[tt.field])
				}
			}
			other := map[*peer]*peer{remote: player, player: remote}[tt.from]
			other.t = t
			other.quiet()
		})
	}
	player.t, remote.t = t, t
}

func many(s string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}

// TestValidMessagesAreForwardedWithTheDocumentedFieldsOnly checks that a
// forwarded message is rebuilt from what was validated: unknown fields a
// sender adds never reach the other side.
func TestValidMessagesAreForwardedWithTheDocumentedFieldsOnly(t *testing.T) {
	e := newEnv(t, control.Options{AllowAnonymousRooms: true})
	player := e.join(control.Player, "den", anonymous)
	remote := e.join(control.Remote, "den", anonymous)

	player.say(map[string]any{"event": "status_update", "state": "playing", "position": 10.5, "duration": 100, "volume": 80, "secret": "x"})
	assert.Equal(t, map[string]any{"event": "status_update", "state": "playing", "position": 10.5, "duration": 100.0, "volume": 80.0}, remote.nextOf())
	player.say(map[string]any{"event": "status_update", "state": "paused", "position": 11, "duration": 100, "media_id": 4})
	assert.Equal(t, map[string]any{"event": "status_update", "state": "paused", "position": 11.0, "duration": 100.0, "media_id": 4.0}, remote.nextOf(),
		"a media_id reaches the remotes")
	player.say(map[string]any{"event": "status_update", "state": "playing", "position": 10.5, "duration": 100})
	remote.drain()

	remote.say(map[string]any{"event": "volume", "level": 30, "extra": true})
	assert.Equal(t, map[string]any{"event": "volume", "level": 30.0}, player.nextOf())
	remote.say(map[string]any{"event": "seek", "position": 42.25})
	assert.Equal(t, map[string]any{"event": "seek", "position": 42.25}, player.nextOf())
	remote.say(map[string]any{"event": "pause", "level": 3})
	assert.Equal(t, map[string]any{"event": "pause"}, player.nextOf())
	remote.say(map[string]any{"event": "play"})
	assert.Equal(t, map[string]any{"event": "play"}, player.nextOf(), "play without a file resumes")
	remote.say(map[string]any{"event": "stop"})
	assert.Equal(t, map[string]any{"event": "stop"}, player.nextOf())

	player.say(map[string]any{"event": "playlist_update", "files": []any{"/m/a.mkv", map[string]any{"file": "media:4", "title": "B", "media_id": 4, "x": 1}}})
	assert.Equal(t, map[string]any{"event": "playlist_update", "files": []any{"/m/a.mkv",
		map[string]any{"file": "media:4", "title": "B", "media_id": 4.0}}}, remote.nextOf(), "items keep the form they were sent in")
	player.say(map[string]any{"event": "metadata_update", "title": "Тьма", "media_id": 4, "year": 2017, "thumbnail_url": "/api/media/4/thumbnail", "plot": "x"})
	assert.Equal(t, map[string]any{"event": "metadata_update", "title": "Тьма", "media_id": 4.0, "year": 2017.0,
		"thumbnail_url": "/api/media/4/thumbnail"}, remote.nextOf())
}
