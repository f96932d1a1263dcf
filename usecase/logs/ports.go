package logs

import (
	"io"

	"mediateka/domain"
)

// Folder is the log folder and its reports folder (repository/logfile).
// Names reach it checked by CheckName; it still refuses a name that leads
// out of the folder (a symlink) with domain.ErrInvalidFilename.
type Folder interface {
	List() ([]domain.LogFile, error)
	Stat(name string) (domain.LogFile, error)
	// Open reads a file from its start, decompressing .gz.
	Open(name string) (io.ReadCloser, error)
	// ReadBackward calls fn with the lines of a plain file from the last
	// to the first until fn returns false; a .gz file is an error.
	ReadBackward(name string, fn func(line []byte) bool) error
	LineCount(name string) (int, error)
	// Truncate empties a file; the active file stays the logger's.
	Truncate(name string) error
	Reports() ([]domain.LogFile, error)
	ReadReport(name string, limit int64) ([]byte, error)
	// WriteReport saves a report whole or not at all.
	WriteReport(name string, write func(w io.Writer) error) error
}

// Publisher sends the analysis' end event to live listeners; it must
// never block.
type Publisher interface {
	Publish(e domain.Event)
}
