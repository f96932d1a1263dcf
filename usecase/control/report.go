package control

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"

	"mediateka/domain"
)

// StatusUpdate is a player's report of its video: the state, the position
// and the duration in seconds (0: unknown), its volume when it told one,
// and the catalogue entry it plays when it named one (the entry a
// signed-in player's position is kept for). The room keeps the last one
// for remotes that join later and for GET /api/control/status.
type StatusUpdate struct {
	State    domain.PlayState `json:"state"`
	Position float64          `json:"position"`
	Duration float64          `json:"duration"`
	Volume   *int             `json:"volume,omitempty"`
	MediaID  int64            `json:"media_id,omitempty"`
}

// PlaylistItem is one entry of a player's playlist: a file (a catalogue
// path or media:<id>) with an optional title and media id. A player may
// send an item as a plain string instead; it reaches the remotes the way
// it was sent.
type PlaylistItem struct {
	File    string `json:"file"`
	Title   string `json:"title,omitempty"`
	MediaID int64  `json:"media_id,omitempty"`
	// Bare marks an item that was sent as a plain string.
	Bare bool `json:"-"`
}

// Metadata is what a player says about what it plays: a title, and
// optionally the catalogue id, the year, a thumbnail (a path on this
// server or an http(s) URL) and the file.
type Metadata struct {
	Title        string `json:"title"`
	MediaID      int64  `json:"media_id,omitempty"`
	Year         int    `json:"year,omitempty"`
	ThumbnailURL string `json:"thumbnail_url,omitempty"`
	File         string `json:"file,omitempty"`
}

// Field reasons of the reports.
const (
	playlistReason  = "must be an array of at most 1000 files: strings, or objects with a file and an optional title and media_id"
	titleReason     = "must be a text of 1 to 500 characters"
	mediaIDReason   = "must be a whole number, 1 or more"
	yearReason      = "must be a whole number from 1800 to 2200"
	thumbnailReason = "must be a path on this server (/…) or an http(s) URL of at most 2048 bytes"
	pathReason      = "must be a text of at most 4096 bytes"
)

// decodeReport reads the fields of status_update, playlist_update and
// metadata_update.
func decodeReport(data []byte, m *message) error {
	switch m.event {
	case EventStatus:
		return decodeStatus(data, m)
	case EventPlaylist:
		var body struct {
			Files *[]PlaylistItem `json:"files"`
		}
		if err := unmarshal(data, &body, map[string]string{"files": playlistReason}); err != nil {
			return err
		}
		if body.Files == nil || len(*body.Files) > maxPlaylist {
			return invalidField("files", playlistReason)
		}
		m.playlist = *body.Files
		return nil
	}
	return decodeMetadata(data, m)
}

func decodeStatus(data []byte, m *message) error {
	var body struct {
		State    *string  `json:"state"`
		Position *float64 `json:"position"`
		Duration *float64 `json:"duration"`
		Volume   *float64 `json:"volume"`
		MediaID  *float64 `json:"media_id"`
	}
	reasons := map[string]string{"state": domain.ReasonState, "position": domain.ReasonPosition,
		"duration": domain.ReasonPosition, "volume": domain.ReasonVolume, "media_id": mediaIDReason}
	if err := unmarshal(data, &body, reasons); err != nil {
		return err
	}
	for _, f := range []struct {
		name    string
		missing bool
	}{{"state", body.State == nil}, {"position", body.Position == nil}, {"duration", body.Duration == nil}} {
		if f.missing {
			return invalidField(f.name, reasons[f.name])
		}
	}
	st := StatusUpdate{State: domain.PlayState(*body.State), Position: *body.Position, Duration: *body.Duration}
	if body.Volume != nil {
		v, ok := wholeIn(body.Volume, 0, domain.MaxVolume)
		if !ok {
			return invalidField("volume", domain.ReasonVolume)
		}
		st.Volume = &v
	}
	var err error
	if st.MediaID, err = optionalWhole("media_id", body.MediaID, 1, maxMediaID, mediaIDReason); err != nil {
		return err
	}
	m.status = &st
	m.change = domain.PlayerStatus{State: st.State, Position: st.Position, Duration: st.Duration, Volume: st.Volume}
	return domain.Validate(m.change)
}

func decodeMetadata(data []byte, m *message) error {
	var body struct {
		Title        *string  `json:"title"`
		MediaID      *float64 `json:"media_id"`
		Year         *float64 `json:"year"`
		ThumbnailURL *string  `json:"thumbnail_url"`
		File         *string  `json:"file"`
	}
	reasons := map[string]string{"title": titleReason, "media_id": mediaIDReason, "year": yearReason,
		"thumbnail_url": thumbnailReason, "file": pathReason}
	if err := unmarshal(data, &body, reasons); err != nil {
		return err
	}
	if body.Title == nil || !textOK(*body.Title, maxTitleChars) {
		return invalidField("title", titleReason)
	}
	md := Metadata{Title: *body.Title}
	var err error
	if md.MediaID, err = optionalWhole("media_id", body.MediaID, 1, maxMediaID, mediaIDReason); err != nil {
		return err
	}
	year, err := optionalWhole("year", body.Year, 1800, 2200, yearReason)
	if err != nil {
		return err
	}
	md.Year = int(year)
	if body.ThumbnailURL != nil {
		if !thumbnailOK(*body.ThumbnailURL) {
			return invalidField("thumbnail_url", thumbnailReason)
		}
		md.ThumbnailURL = *body.ThumbnailURL
	}
	if body.File != nil {
		if len(*body.File) > maxPathBytes {
			return invalidField("file", pathReason)
		}
		md.File = *body.File
	}
	m.metadata = &md
	return nil
}

// maxMediaID is the largest id a JSON number carries exactly.
const maxMediaID = 1 << 53

// optionalWhole reads an optional whole number in lo..hi; 0 when absent.
func optionalWhole(field string, f *float64, lo, hi int, reason string) (int64, error) {
	if f == nil {
		return 0, nil
	}
	n, ok := wholeIn(f, lo, hi)
	if !ok {
		return 0, invalidField(field, reason)
	}
	return int64(n), nil
}

// textOK reports whether s is 1..limit characters of valid UTF-8.
func textOK(s string, limit int) bool {
	return s != "" && utf8.ValidString(s) && utf8.RuneCountInString(s) <= limit
}

// thumbnailOK admits a path on this server ("/…", not "//host") or an
// http(s) URL: the remote page puts it in an <img>, so nothing else
// (javascript:, data:) may pass.
func thumbnailOK(u string) bool {
	if u == "" || len(u) > maxURLBytes || strings.ContainsAny(u, " \t\r\n") {
		return false
	}
	if strings.HasPrefix(u, "/") {
		return !strings.HasPrefix(u, "//") && !strings.HasPrefix(u, `/\`)
	}
	return strings.HasPrefix(u, "https://") || strings.HasPrefix(u, "http://")
}

// UnmarshalJSON reads an item given as a string or as an object.
func (p *PlaylistItem) UnmarshalJSON(data []byte) error {
	bad := invalidField("files", playlistReason)
	if bytes.HasPrefix(data, []byte(`"`)) {
		if err := json.Unmarshal(data, &p.File); err != nil || p.File == "" || len(p.File) > maxPathBytes {
			return bad
		}
		p.Bare = true
		return nil
	}
	var obj struct {
		File    *string  `json:"file"`
		Title   *string  `json:"title"`
		MediaID *float64 `json:"media_id"`
	}
	if !bytes.HasPrefix(data, []byte("{")) || json.Unmarshal(data, &obj) != nil ||
		obj.File == nil || *obj.File == "" || len(*obj.File) > maxPathBytes {
		return bad
	}
	p.File = *obj.File
	if obj.Title != nil {
		if !textOK(*obj.Title, maxTitleChars) {
			return bad
		}
		p.Title = *obj.Title
	}
	id, err := optionalWhole("files", obj.MediaID, 1, maxMediaID, playlistReason)
	if err != nil {
		return bad
	}
	p.MediaID = id
	return nil
}

// MarshalJSON writes the item the way it was received.
func (p PlaylistItem) MarshalJSON() ([]byte, error) {
	if p.Bare {
		return json.Marshal(p.File)
	}
	type plain PlaylistItem // without this method
	return json.Marshal(plain(p))
}
