//go:build unix

package localfs

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// Lock is an advisory lock on a file, held by at most one process: the
// server and `mediateka scan` share the database, and two scans at once
// would race to create the same series.
type Lock struct {
	path string
}

// NewLock returns the lock kept in path (created when absent).
func NewLock(path string) *Lock { return &Lock{path: path} }

// TryLock takes the lock without waiting. The operating system releases it
// when the process dies, so a killed scan never leaves it stuck.
func (l *Lock) TryLock() (func(), bool, error) {
	if err := os.MkdirAll(filepath.Dir(l.path), 0o750); err != nil {
		return nil, false, fmt.Errorf("create lock folder: %w", err)
	}
	f, err := os.OpenFile(l.path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, false, fmt.Errorf("open lock file: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		_ = f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, false, nil
		}
		return nil, false, fmt.Errorf("lock %s: %w", l.path, err)
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		_ = f.Close()
	}, true, nil
}
