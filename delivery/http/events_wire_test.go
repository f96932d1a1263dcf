package http

import (
	"bufio"
	"bytes"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/usecase/event"
)

// TestEventWireFormat pins the bytes /api/events writes for one event of
// each kind: the admin panel and any script reading the stream depend on
// them, so a change of event types inside the server must not show here.
func TestEventWireFormat(t *testing.T) {
	at := time.Date(2025, 3, 4, 5, 6, 7, 890000000, time.FixedZone("MSK", 3*3600))
	cases := []struct {
		name  string
		event domain.Event
		want  string
	}{
		{"scan_started", domain.ScanStarted{ScanID: "s-1", Paths: []string{"/srv/films", "/srv/series"}},
			`event: scan_started` + "\n" + `data: {"at":"2025-03-04T02:06:07.89Z","event":"scan_started","paths":["/srv/films","/srv/series"],"scan_id":"s-1"}` + "\n\n"},
		{"scan_progress", domain.ScanProgress{ScanID: "s-1", FilesSeen: 120, Added: 7, Updated: 2, CurrentPath: "/srv/films/<Heat> & Co"},
			`event: scan_progress` + "\n" + `data: {"added":7,"at":"2025-03-04T02:06:07.89Z","current_path":"/srv/films/\u003cHeat\u003e \u0026 Co","event":"scan_progress","files_seen":120,"scan_id":"s-1","updated":2}` + "\n\n"},
		{"scan_completed", domain.ScanCompleted{ScanID: "s-1", State: domain.JobCompleted, FilesSeen: 120, Added: 7, Updated: 2,
			Missing: 1, Errors: 3, DurationMS: 1500},
			`event: scan_completed` + "\n" + `data: {"added":7,"at":"2025-03-04T02:06:07.89Z","duration_ms":1500,"errors":3,"event":"scan_completed","files_seen":120,"missing":1,"scan_id":"s-1","state":"completed","updated":2}` + "\n\n"},
		{"audit_completed", domain.AuditCompleted{Total: 9, Checked: 40, MissingFile: 1, UnregisteredFile: 2, Duplicate: 3,
			IncompleteMetadata: 2, Orphan: 1},
			`event: audit_completed` + "\n" + `data: {"at":"2025-03-04T02:06:07.89Z","checked":40,"duplicate":3,"duration_ms":0,"event":"audit_completed","incomplete_metadata":2,"missing_file":1,"orphan":1,"total":9,"unregistered_file":2}` + "\n\n"},
		{"classify_started", domain.ClassifyStarted{Model: "gemini-2.5-flash", IDs: 0},
			`event: classify_started` + "\n" + `data: {"at":"2025-03-04T02:06:07.89Z","event":"classify_started","ids":0,"model":"gemini-2.5-flash"}` + "\n\n"},
		{"classify_progress", domain.ClassifyProgress{ClassifyCounts: domain.ClassifyCounts{Model: "gemini-2.5-flash", Total: 10, Classified: 3, Failed: 1, Skipped: 2, FieldsFilled: 8}},
			`event: classify_progress` + "\n" + `data: {"at":"2025-03-04T02:06:07.89Z","classified":3,"event":"classify_progress","failed":1,"fields_filled":8,"model":"gemini-2.5-flash","skipped":2,"total":10}` + "\n\n"},
		{"classify_completed", domain.ClassifyCompleted{State: domain.JobFailed, DurationMS: 2500, ClassifyCounts: domain.ClassifyCounts{
			Model: "gemini-2.5-flash", Total: 10, Classified: 4, Failed: 6, Skipped: 0, FieldsFilled: 11}},
			`event: classify_completed` + "\n" + `data: {"at":"2025-03-04T02:06:07.89Z","classified":4,"duration_ms":2500,"event":"classify_completed","failed":6,"fields_filled":11,"model":"gemini-2.5-flash","skipped":0,"state":"failed","total":10}` + "\n\n"},
		{"log_analyzed", domain.LogAnalyzed{Filename: "mediateka.log", Report: "report_mediateka.log_20250304T020607.890Z.md",
			State: domain.JobCompleted, Lines: 1200, Errors: 3, AISummary: true, DurationMS: 40},
			`event: log_analyzed` + "\n" + `data: {"ai_summary":true,"at":"2025-03-04T02:06:07.89Z","duration_ms":40,"errors":3,"event":"log_analyzed","filename":"mediateka.log","lines":1200,"report":"report_mediateka.log_20250304T020607.890Z.md","state":"completed"}` + "\n\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			w := bufio.NewWriter(&buf)
			require.NoError(t, writeEvent(w, event.Message{Event: tc.event, At: at}))
			assert.Equal(t, tc.name, tc.event.EventName())
			assert.Equal(t, tc.want, buf.String())
		})
	}
}
