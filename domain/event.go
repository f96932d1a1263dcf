package domain

import (
	"reflect"
	"strings"
	"unicode"
)

// Event is one notification for live listeners: the admins' /api/events
// stream, the classification that follows a scan, later the Telegram bot.
// Each kind of event is its own struct with typed, JSON-tagged fields, so
// a publisher cannot misspell or forget a field and a subscriber switches
// on the type instead of comparing names and payload strings. The bus
// stamps the time; the fields are flat JSON values so a listener can show
// them without knowing the kind.
type Event interface {
	// EventName is the kind's name on the wire (scan_completed).
	EventName() string
}

// eventOf gives the event struct T its EventName, derived from T's type
// name (ScanCompleted → scan_completed): embed it as eventOf[T] and the
// name cannot drift from the type. Computing it on each call keeps the
// package free of global caches; events are a few a second.
type eventOf[T any] struct{}

// EventName is T's type name in snake case.
func (eventOf[T]) EventName() string { return snakeCase(reflect.TypeFor[T]().Name()) }

// snakeCase turns a Go type name into a wire name; a run of capitals is
// one word (RAGIndexed → rag_indexed).
func snakeCase(name string) string {
	rs := []rune(name)
	var b strings.Builder
	for i, r := range rs {
		if unicode.IsUpper(r) && i > 0 {
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if !unicode.IsUpper(rs[i-1]) || nextLower {
				b.WriteByte('_')
			}
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// JobState is where a background job (a scan, a classification) stands.
// The status endpoints and the *_completed events carry it, so a listener
// compares it with these constants, never with a literal string.
type JobState string

// The states of a background job: idle before the first run, then running
// and one of the three outcomes of the last run.
const (
	JobIdle      JobState = "idle"
	JobRunning   JobState = "running"
	JobCompleted JobState = "completed"
	JobFailed    JobState = "failed"
	JobCancelled JobState = "cancelled"
)

// ScanStarted announces a library scan of Paths (folders inside the roots).
type ScanStarted struct {
	eventOf[ScanStarted]
	ScanID string   `json:"scan_id"`
	Paths  []string `json:"paths"`
}

// ScanProgress reports a running scan's counts, at most once per progress
// interval and only when they changed.
type ScanProgress struct {
	eventOf[ScanProgress]
	ScanID      string `json:"scan_id"`
	FilesSeen   int    `json:"files_seen"`
	Added       int    `json:"added"`
	Updated     int    `json:"updated"`
	CurrentPath string `json:"current_path"`
}

// ScanCompleted ends every scan, whatever its outcome (State); Errors counts
// the folders and files it could not read.
type ScanCompleted struct {
	eventOf[ScanCompleted]
	ScanID     string   `json:"scan_id"`
	State      JobState `json:"state"`
	FilesSeen  int      `json:"files_seen"`
	Added      int      `json:"added"`
	Updated    int      `json:"updated"`
	Missing    int      `json:"missing"`
	Errors     int      `json:"errors"`
	DurationMS int64    `json:"duration_ms"`
}

// AuditCompleted sums up an audit: how many records it checked, how many
// issues it found, how many of each kind and how long it took.
type AuditCompleted struct {
	eventOf[AuditCompleted]
	Total              int `json:"total"`
	Checked            int `json:"checked"`
	MissingFile        int `json:"missing_file"`
	UnregisteredFile   int `json:"unregistered_file"`
	Duplicate          int `json:"duplicate"`
	IncompleteMetadata int `json:"incomplete_metadata"`
	Orphan             int `json:"orphan"`
	// DurationMS is how long the audit took, by the library's clock.
	DurationMS int64 `json:"duration_ms"`
}

// ClassifyStarted announces an AI classification job with Model; IDs is how
// many entries were asked for, 0 for "every unclassified one".
type ClassifyStarted struct {
	eventOf[ClassifyStarted]
	Model string `json:"model"`
	IDs   int    `json:"ids"`
}

// ClassifyCounts are a classification job's counts, the same in its
// progress and its end (embedded, they are flat fields on the wire).
type ClassifyCounts struct {
	Model        string `json:"model"`
	Total        int    `json:"total"`
	Classified   int    `json:"classified"`
	Failed       int    `json:"failed"`
	Skipped      int    `json:"skipped"`
	FieldsFilled int    `json:"fields_filled"`
}

// ClassifyProgress reports a running classification's counts, at most once
// per progress interval and only when they changed.
type ClassifyProgress struct {
	eventOf[ClassifyProgress]
	ClassifyCounts
}

// ClassifyCompleted ends every classification job, whatever its outcome.
type ClassifyCompleted struct {
	eventOf[ClassifyCompleted]
	ClassifyCounts
	State      JobState `json:"state"`
	DurationMS int64    `json:"duration_ms"`
}
