package domain

import "time"

// LogAnalyzed ends every analysis of a log file, whatever its outcome
// (State): Report is the Markdown report's file name in the reports
// folder (written only when State is completed).
type LogAnalyzed struct {
	eventOf[LogAnalyzed]
	Filename   string   `json:"filename"`
	Report     string   `json:"report"`
	State      JobState `json:"state"`
	Lines      int      `json:"lines"`
	Errors     int      `json:"errors"`
	AISummary  bool     `json:"ai_summary"`
	DurationMS int64    `json:"duration_ms"`
}

// LogFile is one file of the log folder or of its reports folder.
type LogFile struct {
	Name     string
	Size     int64
	Modified time.Time
}

// ErrInvalidFilename refuses a log or report name that is not a bare file
// name with an allowed extension, or that leads out of its folder.
var ErrInvalidFilename = NewError(KindInvalid, "invalid_filename",
	"the file name must be a bare name ending in .log, .json, .md or .txt (optionally .gz)")

// ErrLogFileNotFound is a log or report name that names no file.
var ErrLogFileNotFound = NewError(KindNotFound, "not_found", "no such log file")
