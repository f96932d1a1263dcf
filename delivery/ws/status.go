package ws

import (
	"github.com/gofiber/fiber/v2"

	"mediateka/domain"
	"mediateka/usecase/control"
)

// defaultRoom is the room of a status request that names none (SPEC.md).
const defaultRoom = "default"

// statusBody is GET /api/control/status's answer (docs/API.md §6).
type statusBody struct {
	Room     string                 `json:"room"`
	Players  int                    `json:"players"`
	Remotes  int                    `json:"remotes"`
	State    *control.StatusUpdate  `json:"state"`
	Playlist []control.PlaylistItem `json:"playlist"`
	Metadata *control.Metadata      `json:"metadata"`
	Playback playbackBody           `json:"playback"`
}

// playbackBody is the room's state machine as it stands.
type playbackBody struct {
	State    domain.PlayState `json:"state"`
	Position float64          `json:"position"`
	Duration float64          `json:"duration"`
	Volume   int              `json:"volume"`
	File     string           `json:"file,omitempty"`
	MediaID  int64            `json:"media_id,omitempty"`
	Title    string           `json:"title,omitempty"`
}

// status answers GET /api/control/status?room=R under the join rules.
func (h *Handler) status(c *fiber.Ctx) error {
	room := c.Query("room")
	if room == "" {
		room = defaultRoom
	}
	st, err := h.hub.Status(room, callerOf(c))
	if err != nil {
		return err
	}
	playlist := st.Playlist
	if playlist == nil {
		playlist = []control.PlaylistItem{}
	}
	p := st.Playback
	return c.JSON(statusBody{Room: st.Room, Players: st.Players, Remotes: st.Remotes, State: st.Status,
		Playlist: playlist, Metadata: st.Metadata, Playback: playbackBody{State: p.State, Position: p.Position,
			Duration: p.Duration, Volume: p.Volume, File: p.File, MediaID: p.MediaID, Title: p.Title}})
}
