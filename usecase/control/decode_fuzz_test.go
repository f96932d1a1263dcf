package control

import (
	"bytes"
	"errors"
	"testing"

	"mediateka/domain"
)

// forwarded is the frame the hub would send for m.
func forwarded(m message) []byte {
	switch m.event {
	case EventStatus:
		return encode(statusFrame{Event: m.event, StatusUpdate: *m.status})
	case EventPlaylist:
		return encode(playlistFrame{Event: m.event, Files: m.playlist})
	case EventMetadata:
		return encode(metadataFrame{Event: m.event, Metadata: *m.metadata})
	}
	return commandFrame(m.event, m.change)
}

// FuzzDecode feeds the message decoder anything: it must never panic,
// refuse only with a typed error, and whatever it accepts must be
// forwarded as a message that decodes again to the same frame, so no
// peer can make the hub send what the protocol does not allow.
func FuzzDecode(f *testing.F) {
	for _, seed := range []string{
		`{"event":"play","file":"/library/Heat (1995)/Heat.mkv"}`, `{"event":"play","file":"media:42"}`, `{"event":"play"}`,
		`{"event":"pause"}`, `{"event":"stop","x":1}`, `{"event":"volume","level":50}`, `{"event":"volume","level":50.5}`,
		`{"event":"seek","position":12.25}`, `{"event":"seek","position":-3}`,
		`{"event":"status_update","state":"playing","position":1,"duration":2,"volume":3}`,
		`{"event":"playlist_update","files":["a",{"file":"b","title":"Б","media_id":4}]}`,
		`{"event":"metadata_update","title":"Тьма","media_id":4,"year":2017,"thumbnail_url":"/t.jpg","file":"x"}`,
		`{"event":"presence","players":1}`, `[]`, `"x"`, `{`, ``, `{"event":7}`, `{"event":"volume","level":1e400}`,
	} {
		f.Add([]byte(seed), false)
		f.Add([]byte(seed), true)
	}
	f.Fuzz(func(t *testing.T, data []byte, player bool) {
		role := Remote
		if player {
			role = Player
		}
		m, err := decode(data, role)
		if err != nil {
			var de *domain.Error
			if !errors.As(err, &de) || de.Code == "" {
				t.Fatalf("untyped refusal of %q: %v", data, err)
			}
			return
		}
		frame := forwarded(m)
		again, err := decode(frame, role)
		if err != nil {
			t.Fatalf("the forwarded %s does not decode: %v", frame, err)
		}
		if got := forwarded(again); !bytes.Equal(got, frame) {
			t.Fatalf("forwarded twice: %s then %s", frame, got)
		}
	})
}
