package library

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"mediateka/domain"
)

// Scan states of GET /api/media-admin/scan/status.
const (
	StateIdle      = "idle"
	StateRunning   = "running"
	StateCompleted = "completed"
	StateFailed    = "failed"
	StateCancelled = "cancelled"
)

// maxScanErrors bounds the problems a status keeps; ErrorCount has them all.
const maxScanErrors = 100

// ScanRequest narrows a scan to some folders (or files) inside the roots,
// or to the roots of one disk. Empty means every root.
type ScanRequest struct {
	Paths []string
	Disk  string
}

// ScanError is a folder or file the scan could not read. Nothing under it
// is marked missing: the scan does not know whether it is still there.
type ScanError struct {
	Path  string
	Error string
}

// Status is the progress and outcome of the current or last scan. Counts
// are of video files: Added new ones, Updated changed or reappeared ones,
// Missing the ones that vanished in this scan.
type Status struct {
	State       string
	ScanID      string
	StartedAt   time.Time
	FinishedAt  time.Time
	FilesSeen   int
	Added       int
	Updated     int
	Missing     int
	Errors      []ScanError
	ErrorCount  int
	CurrentPath string
	// Failure says why a failed scan failed.
	Failure string
}

// ScanStatus returns a copy of the current status.
func (s *Service) ScanStatus() Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.status
	st.Errors = append([]ScanError(nil), st.Errors...)
	return st
}

// StartScan starts a scan in the background and returns its id. A scan
// already running here or in another process (the command line) is
// ErrScanRunning; a bad request is a validation error.
func (s *Service) StartScan(req ScanRequest) (string, error) {
	run, err := s.begin(context.Background(), req)
	if err != nil {
		return "", err
	}
	go run.execute()
	return run.id, nil
}

// Scan runs a scan to its end (the command line). progress, when not nil,
// is called every Options.ProgressEvery with the status. Cancelling ctx
// cancels the scan; the returned status then says "cancelled".
func (s *Service) Scan(ctx context.Context, req ScanRequest, progress func(Status)) (Status, error) {
	run, err := s.begin(ctx, req)
	if err != nil {
		return Status{}, err
	}
	run.progress = progress
	run.execute()
	st := s.ScanStatus()
	if st.State == StateFailed {
		return st, fmt.Errorf("scan failed: %s", st.Failure)
	}
	return st, nil
}

// CancelScan stops the running scan; what it wrote so far stays, and the
// next scan completes the work.
func (s *Service) CancelScan() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cancel == nil {
		return domain.ErrScanNotRunning
	}
	s.cancel()
	return nil
}

// begin validates the request and claims the one scan slot.
func (s *Service) begin(ctx context.Context, req ScanRequest) (*scanRun, error) {
	targets, err := s.targets(req)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	unlock, err := s.claimScanSlot()
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	run := &scanRun{s: s, ctx: ctx, id: uuid.NewString(), targets: targets, unlock: unlock}
	s.cancel, s.done = cancel, make(chan struct{})
	s.status = Status{State: StateRunning, ScanID: run.id, StartedAt: s.opt.Now().UTC()}
	s.publish(domain.EventScanStarted, map[string]any{"scan_id": run.id, "paths": targetPaths(targets)})
	return run, nil
}

// claimScanSlot takes the scan lock when no scan runs here or in another
// process; ErrScanRunning otherwise. The caller holds s.mu.
func (s *Service) claimScanSlot() (unlock func(), err error) {
	if s.cancel != nil || s.closing {
		return nil, domain.ErrScanRunning
	}
	if s.opt.Lock == nil {
		return func() {}, nil
	}
	unlock, ok, err := s.opt.Lock.TryLock()
	if err != nil {
		return nil, fmt.Errorf("take the scan lock: %w", err)
	}
	if !ok {
		return nil, domain.ErrScanRunning
	}
	return unlock, nil
}

// finish records the outcome, frees the slot and tells the listeners.
func (s *Service) finish(run *scanRun, err error) {
	s.mu.Lock()
	st := &s.status
	st.FinishedAt = s.opt.Now().UTC()
	st.CurrentPath = ""
	switch {
	case err == nil:
		st.State = StateCompleted
	case run.ctx.Err() != nil:
		st.State = StateCancelled
	default:
		st.State, st.Failure = StateFailed, "the scan could not write to the database"
		s.log.Error("media scan failed", "scan_id", run.id, "err", err.Error())
	}
	data := map[string]any{"scan_id": st.ScanID, "state": st.State, "files_seen": st.FilesSeen,
		"added": st.Added, "updated": st.Updated, "missing": st.Missing, "errors": st.ErrorCount,
		"duration_ms": st.FinishedAt.Sub(st.StartedAt).Milliseconds()}
	done := s.done
	s.cancel, s.done = nil, nil
	s.mu.Unlock()
	s.log.Info("media scan finished", "scan_id", run.id, "state", data["state"], "files_seen", data["files_seen"],
		"added", data["added"], "updated", data["updated"], "missing", data["missing"])
	s.publish(domain.EventScanCompleted, data)
	close(done)
}

// update changes the running status under the lock.
func (s *Service) update(fn func(st *Status)) {
	s.mu.Lock()
	fn(&s.status)
	s.mu.Unlock()
}

// addError records a folder or file the scan could not read.
func (s *Service) addError(path, problem string) {
	s.update(func(st *Status) {
		st.ErrorCount++
		if len(st.Errors) < maxScanErrors {
			st.Errors = append(st.Errors, ScanError{Path: path, Error: problem})
		}
	})
}
