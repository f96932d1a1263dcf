package http

import (
	"bufio"
	"bytes"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEventWireFormat pins the bytes /api/events writes for one event of
// each kind: the admin panel and any script reading the stream depend on
// them, so a change of event types inside the server must not show here.
func TestEventWireFormat(t *testing.T) {
	at := time.Date(2025, 3, 4, 5, 6, 7, 890000000, time.FixedZone("MSK", 3*3600))
	cases := []struct {
		name string
		data map[string]any
		want string
	}{
		{"scan_started", map[string]any{"scan_id": "s-1", "paths": []string{"/srv/films", "/srv/series"}},
			`event: scan_started` + "\n" + `data: {"at":"2025-03-04T02:06:07.89Z","event":"scan_started","paths":["/srv/films","/srv/series"],"scan_id":"s-1"}` + "\n\n"},
		{"scan_progress", map[string]any{"scan_id": "s-1", "files_seen": 120, "added": 7, "updated": 2, "current_path": "/srv/films/<Heat> & Co"},
			`event: scan_progress` + "\n" + `data: {"added":7,"at":"2025-03-04T02:06:07.89Z","current_path":"/srv/films/\u003cHeat\u003e \u0026 Co","event":"scan_progress","files_seen":120,"scan_id":"s-1","updated":2}` + "\n\n"},
		{"scan_completed", map[string]any{"scan_id": "s-1", "state": "completed", "files_seen": 120, "added": 7, "updated": 2,
			"missing": 1, "errors": 3, "duration_ms": int64(1500)},
			`event: scan_completed` + "\n" + `data: {"added":7,"at":"2025-03-04T02:06:07.89Z","duration_ms":1500,"errors":3,"event":"scan_completed","files_seen":120,"missing":1,"scan_id":"s-1","state":"completed","updated":2}` + "\n\n"},
		{"audit_completed", map[string]any{"total": 9, "checked": 40, "missing_file": 1, "unregistered_file": 2, "duplicate": 3,
			"incomplete_metadata": 2, "orphan": 1},
			`event: audit_completed` + "\n" + `data: {"at":"2025-03-04T02:06:07.89Z","checked":40,"duplicate":3,"event":"audit_completed","incomplete_metadata":2,"missing_file":1,"orphan":1,"total":9,"unregistered_file":2}` + "\n\n"},
		{"classify_started", map[string]any{"model": "gemini-2.5-flash", "ids": 0},
			`event: classify_started` + "\n" + `data: {"at":"2025-03-04T02:06:07.89Z","event":"classify_started","ids":0,"model":"gemini-2.5-flash"}` + "\n\n"},
		{"classify_completed", map[string]any{"state": "failed", "model": "gemini-2.5-flash", "total": 10, "classified": 4,
			"failed": 6, "skipped": 0, "fields_filled": 11, "duration_ms": int64(2500)},
			`event: classify_completed` + "\n" + `data: {"at":"2025-03-04T02:06:07.89Z","classified":4,"duration_ms":2500,"event":"classify_completed","failed":6,"fields_filled":11,"model":"gemini-2.5-flash","skipped":0,"state":"failed","total":10}` + "\n\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			w := bufio.NewWriter(&buf)
			require.NoError(t, writeEvent(w, tc.name, at, tc.data))
			assert.Equal(t, tc.want, buf.String())
		})
	}
}
