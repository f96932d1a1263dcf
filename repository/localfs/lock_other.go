//go:build !unix

package localfs

import "sync"

// Lock keeps scans apart within one process where file locks are not
// available; the command line and the server are then not kept apart.
type Lock struct {
	mu sync.Mutex
}

// NewLock returns an in-process lock; path is unused here.
func NewLock(string) *Lock { return &Lock{} }

// TryLock takes the lock without waiting.
func (l *Lock) TryLock() (func(), bool, error) {
	if !l.mu.TryLock() {
		return nil, false, nil
	}
	return l.mu.Unlock, true, nil
}
