package domain

import "testing"

func TestEventNamesComeFromTheirTypes(t *testing.T) {
	cases := []struct {
		event Event
		want  string
	}{
		{ScanStarted{}, "scan_started"},
		{ScanProgress{}, "scan_progress"},
		{ScanCompleted{}, "scan_completed"},
		{AuditCompleted{}, "audit_completed"},
		{ClassifyStarted{}, "classify_started"},
		{ClassifyProgress{}, "classify_progress"},
		{ClassifyCompleted{}, "classify_completed"},
		{&ScanCompleted{}, "scan_completed"},
	}
	for _, tc := range cases {
		if got := tc.event.EventName(); got != tc.want {
			t.Errorf("%T: EventName() = %q, want %q", tc.event, got, tc.want)
		}
	}
}

func TestSnakeCase(t *testing.T) {
	for in, want := range map[string]string{
		"ScanStarted": "scan_started", "RAGIndexed": "rag_indexed", "TorrentAddedToRAG": "torrent_added_to_rag",
		"Audit": "audit", "LogsAPIReady": "logs_api_ready", "Step2Done": "step2_done",
	} {
		if got := snakeCase(in); got != want {
			t.Errorf("snakeCase(%q) = %q, want %q", in, got, want)
		}
	}
}
