package control

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"

	"mediateka/domain"
)

// Event names on the wire (docs/API.md §6). Remotes send the commands,
// players the reports; presence and error come from the server only.
const (
	EventPlay     = "play"
	EventPause    = "pause"
	EventStop     = "stop"
	EventVolume   = "volume"
	EventSeek     = "seek"
	EventStatus   = "status_update"
	EventPlaylist = "playlist_update"
	EventMetadata = "metadata_update"
	EventPresence = "presence"
	EventError    = "error"
)

// Bounds of what a message may carry, besides the 64 KiB frame limit of
// the transport.
const (
	maxPathBytes  = 4096
	maxTitleChars = 500
	maxURLBytes   = 2048
	maxPlaylist   = 1000
)

// mediaPrefix marks a play by catalogue id ("media:42") instead of path.
const mediaPrefix = "media:"

// Errors of the message protocol; each is sent to the sender of the
// message as {"event": "error", "code", "message"} and nothing is
// forwarded.
var (
	ErrInvalidJSON  = domain.NewError(domain.KindInvalid, "invalid_json", "a message must be a JSON object with an event field")
	ErrUnknownEvent = domain.NewError(domain.KindInvalid, "unknown_event", "unknown event")
	ErrWrongRole    = domain.NewError(domain.KindForbidden, "wrong_role", "this role does not send this event")
	ErrNoPlayer     = domain.NewError(domain.KindConflict, "no_player", "no player is in this room")
	ErrRateLimited  = domain.NewError(domain.KindTooMany, "rate_limited", "too many messages: some were dropped")
)

// message is one decoded and validated message from a peer.
type message struct {
	event string
	// change is what the message does to the room's state machine:
	// every command, and a status_update.
	change domain.RoomEvent
	// mediaID is set by a play of "media:<id>"; a play of a path leaves it
	// 0 and names the path in change.
	mediaID  int64
	status   *StatusUpdate
	playlist []PlaylistItem
	metadata *Metadata
}

// sentBy reports which role sends the event; ok is false for events no
// peer sends.
func sentBy(event string) (Role, bool) {
	switch event {
	case EventPlay, EventPause, EventStop, EventVolume, EventSeek:
		return Remote, true
	case EventStatus, EventPlaylist, EventMetadata:
		return Player, true
	}
	return "", false
}

// decode reads one message from a peer of the given role: a JSON object
// whose event names what the rest must hold. An event the role does not
// send is refused before its fields are read. Unknown fields are ignored
// (and not forwarded); a missing or mistyped field is invalid_input
// naming it.
func decode(data []byte, role Role) (message, error) {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 || trimmed[0] != '{' || !json.Valid(trimmed) {
		return message{}, ErrInvalidJSON
	}
	var head struct {
		Event *string `json:"event"`
	}
	if err := unmarshal(trimmed, &head, map[string]string{"event": "must be a string"}); err != nil {
		return message{}, err
	}
	if head.Event == nil || *head.Event == "" {
		return message{}, domain.ErrInvalid("the message names no event", map[string]string{"event": "must not be empty"})
	}
	m := message{event: *head.Event}
	if err := checkSender(m.event, role); err != nil {
		return m, err
	}
	switch m.event {
	case EventPause:
		m.change = domain.Pause{}
	case EventStop:
		m.change = domain.Stop{}
	case EventPlay, EventVolume, EventSeek:
		return m, decodeCommand(trimmed, &m)
	default:
		return m, decodeReport(trimmed, &m)
	}
	return m, nil
}

// checkSender refuses unknown events, and events the role does not send:
// commands come from remotes, reports from players, presence and error
// from the server only.
func checkSender(event string, role Role) error {
	from, ok := sentBy(event)
	switch {
	case ok && from == role:
		return nil
	case ok || event == EventPresence || event == EventError:
		msg := "a " + string(role) + " does not send " + event
		if !ok {
			msg = "only the server sends " + event
		}
		return domain.NewError(ErrWrongRole.Kind, ErrWrongRole.Code, msg)
	}
	return ErrUnknownEvent
}

// decodeCommand reads the fields of play, volume and seek.
func decodeCommand(data []byte, m *message) error {
	var body struct {
		File     *string  `json:"file"`
		Level    *float64 `json:"level"`
		Position *float64 `json:"position"`
	}
	reasons := map[string]string{"file": fileReason, "level": domain.ReasonVolume, "position": domain.ReasonPosition}
	if err := unmarshal(data, &body, reasons); err != nil {
		return err
	}
	switch m.event {
	case EventPlay:
		return decodePlay(body.File, m)
	case EventVolume:
		level, ok := wholeIn(body.Level, 0, domain.MaxVolume)
		if !ok {
			return invalidField("level", domain.ReasonVolume)
		}
		m.change = domain.Volume{Level: level}
	case EventSeek:
		if body.Position == nil {
			return invalidField("position", domain.ReasonPosition)
		}
		m.change = domain.Seek{Position: *body.Position}
	}
	return domain.Validate(m.change)
}

const fileReason = "must be a catalogue path or media:<id>"

// decodePlay reads play's file: absent means resume; "media:<id>" names a
// catalogue id; anything else is a path the catalogue must hold.
func decodePlay(file *string, m *message) error {
	if file == nil {
		m.change = domain.Play{}
		return nil
	}
	f := *file
	if f == "" || len(f) > maxPathBytes {
		return invalidField("file", fileReason)
	}
	if rest, ok := strings.CutPrefix(f, mediaPrefix); ok {
		id, err := strconv.ParseInt(rest, 10, 64)
		if err != nil || id <= 0 {
			return invalidField("file", fileReason)
		}
		m.mediaID = id
	}
	m.change = domain.Play{File: f}
	return nil
}

// unmarshal decodes data into dst; a field of the wrong type is
// invalid_input with that field's reason.
func unmarshal(data []byte, dst any, reasons map[string]string) error {
	err := json.Unmarshal(data, dst)
	var typ *json.UnmarshalTypeError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &typ):
		field, _, _ := strings.Cut(typ.Field, ".")
		reason, ok := reasons[field]
		if !ok {
			reason = "has the wrong type"
		}
		return invalidField(field, reason)
	}
	var de *domain.Error // from a field's own UnmarshalJSON
	if errors.As(err, &de) {
		return de
	}
	return ErrInvalidJSON
}

// wholeIn reads a JSON number that must be a whole number in lo..hi.
func wholeIn(f *float64, lo, hi int) (int, bool) {
	if f == nil || *f != math.Trunc(*f) || *f < float64(lo) || *f > float64(hi) {
		return 0, false
	}
	return int(*f), true
}

func invalidField(field, reason string) error {
	return domain.ErrInvalid("invalid "+field, map[string]string{field: reason})
}
