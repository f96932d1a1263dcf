package logfile

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"gopkg.in/natefinch/lumberjack.v2"
)

// Writer is the active log file behind the logger: lumberjack's rotating
// writer, plus a Truncate that clears the file without pulling it out from
// under the logger.
//
// Why clearing goes through here: lumberjack keeps the file open and counts
// the bytes it wrote to decide when to rotate. It opens a fresh file
// without O_APPEND, so a truncate from outside would leave its descriptor
// at the old offset and the next line would land there, after a hole of
// NUL bytes; and even with O_APPEND its byte count would stay stale and
// rotate far too early. Truncate instead closes lumberjack's file between
// two writes, truncates, and lets the next write reopen it (in append mode,
// at its real size).
type Writer struct {
	mu   sync.Mutex
	lj   *lumberjack.Logger
	path string
}

// OpenWriter prepares <dir>/mediateka.log, creating dir; the file itself
// opens on the first write.
func OpenWriter(dir string, maxSizeMB, maxBackups int, compress bool) (*Writer, error) {
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, ActiveName)
	return &Writer{path: path, lj: &lumberjack.Logger{Filename: path, MaxSize: maxSizeMB, MaxBackups: maxBackups, Compress: compress}}, nil
}

// Write writes one record (slog's handlers write whole lines).
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.lj.Write(p)
}

// Truncate empties the active file between two writes; the logger goes on
// writing into the same file from offset 0.
func (w *Writer) Truncate() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.lj.Close(); err != nil {
		return fmt.Errorf("close the log file: %w", err)
	}
	if err := os.Truncate(w.path, 0); err != nil && !os.IsNotExist(err) {
		return fmt.Errorf("truncate the log file: %w", err)
	}
	return nil
}

// Name is the active file's name in the folder.
func (w *Writer) Name() string { return filepath.Base(w.path) }

// Close closes the file; a later write would reopen it.
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.lj.Close()
}
