package control

import (
	"encoding/json"
	"errors"

	"mediateka/domain"
)

// The messages the hub sends. Each is encoded once per fan-out, from the
// validated message rather than from the bytes a peer sent, so what a
// peer receives has exactly the documented fields.

type playFrame struct {
	Event   string `json:"event"`
	File    string `json:"file,omitempty"`
	MediaID int64  `json:"media_id,omitempty"`
	Title   string `json:"title,omitempty"`
	// Play is the PlayResolver's answer for the receiving player (what
	// GET /api/media/{id}/play returns), when there is a resolver.
	Play any `json:"play,omitempty"`
}

type volumeFrame struct {
	Event string `json:"event"`
	Level int    `json:"level"`
}

type seekFrame struct {
	Event    string  `json:"event"`
	Position float64 `json:"position"`
}

type bareFrame struct {
	Event string `json:"event"`
}

type statusFrame struct {
	Event string `json:"event"`
	StatusUpdate
}

type playlistFrame struct {
	Event string         `json:"event"`
	Files []PlaylistItem `json:"files"`
}

type metadataFrame struct {
	Event string `json:"event"`
	Metadata
}

type presenceFrame struct {
	Event   string `json:"event"`
	Players int    `json:"players"`
	Remotes int    `json:"remotes"`
}

type errorFrame struct {
	Event   string            `json:"event"`
	Code    string            `json:"code"`
	Message string            `json:"message"`
	Fields  map[string]string `json:"fields,omitempty"`
}

// encode marshals a frame; the frames are plain structs of strings and
// numbers, so it cannot fail.
func encode(v any) []byte {
	raw, err := json.Marshal(v)
	if err != nil {
		panic("control: encode a frame: " + err.Error())
	}
	return raw
}

// commandFrame is what a validated command becomes for the players.
func commandFrame(event string, change domain.RoomEvent) []byte {
	switch c := change.(type) {
	case domain.Play:
		return encode(playFrame{Event: event, File: c.File, MediaID: c.MediaID, Title: c.Title})
	case domain.Volume:
		return encode(volumeFrame{Event: event, Level: c.Level})
	case domain.Seek:
		return encode(seekFrame{Event: event, Position: c.Position})
	}
	return encode(bareFrame{Event: event})
}

// errorFrameOf turns an error into the error event its sender gets. An
// unexpected error is "internal" without its detail, as on HTTP.
func errorFrameOf(err error) []byte {
	var de *domain.Error
	if !errors.As(err, &de) || de.Kind == domain.KindInternal {
		return encode(errorFrame{Event: EventError, Code: "internal", Message: "internal server error"})
	}
	return encode(errorFrame{Event: EventError, Code: de.Code, Message: de.Message, Fields: de.Fields})
}
