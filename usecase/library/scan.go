package library

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/google/uuid"

	"mediateka/domain"
	jobrun "mediateka/usecase/job"
)

// Scan states of GET /api/media-admin/scan/status: the job states every
// background job shares, named here for the scan's callers.
const (
	StateIdle      = domain.JobIdle
	StateRunning   = domain.JobRunning
	StateCompleted = domain.JobCompleted
	StateFailed    = domain.JobFailed
	StateCancelled = domain.JobCancelled
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
	State       domain.JobState
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

// scanCounts are the scan's own counters on the job runner.
type scanCounts struct {
	FilesSeen   int
	Added       int
	Updated     int
	Missing     int
	CurrentPath string
}

// scanProgress is how a running scan reports to the job runner.
type scanProgress = jobrun.Progress[scanCounts, ScanError]

// newScanRunner builds the one scan slot: the runner holds the state
// machine, this says what the scan's events and failure look like.
func newScanRunner(opt Options) *jobrun.Runner[scanCounts, ScanError] {
	return jobrun.New(jobrun.Options[scanCounts, ScanError]{
		Name: "media scan", Conflict: domain.ErrScanRunning, NotRunning: domain.ErrScanNotRunning,
		Lock: opt.Lock, Events: opt.Events, Logger: opt.Logger, Now: opt.Now,
		ProgressEvery: opt.ProgressEvery, MaxErrors: maxScanErrors,
		Progress: func(st jobrun.Status[scanCounts, ScanError]) domain.Event {
			c := st.Counters
			return domain.ScanProgress{ScanID: st.ID, FilesSeen: c.FilesSeen, Added: c.Added, Updated: c.Updated, CurrentPath: c.CurrentPath}
		},
		Finished: func(st jobrun.Status[scanCounts, ScanError]) domain.Event {
			c := st.Counters
			return domain.ScanCompleted{ScanID: st.ID, State: st.State, FilesSeen: c.FilesSeen, Added: c.Added,
				Updated: c.Updated, Missing: c.Missing, Errors: st.ErrorCount, DurationMS: st.Duration().Milliseconds()}
		},
		Failure: func(state domain.JobState, err error) string {
			switch {
			case state != domain.JobFailed:
				return ""
			case errors.Is(err, errRootsChanged):
				return errRootsChanged.Error() + "; start it again"
			default:
				return "the scan could not write to the database"
			}
		},
	})
}

// toStatus flattens the runner's status into the scan's.
func toStatus(js jobrun.Status[scanCounts, ScanError]) Status {
	c := js.Counters
	st := Status{State: js.State, ScanID: js.ID, StartedAt: js.StartedAt, FinishedAt: js.FinishedAt,
		FilesSeen: c.FilesSeen, Added: c.Added, Updated: c.Updated, Missing: c.Missing,
		Errors: js.Errors, ErrorCount: js.ErrorCount, CurrentPath: c.CurrentPath, Failure: js.Failure}
	if st.State != StateRunning {
		st.CurrentPath = ""
	}
	return st
}

// ScanStatus returns a copy of the current status.
func (s *Service) ScanStatus() Status { return toStatus(s.scans.Status()) }

// StartScan starts a scan in the background and returns its id. A scan
// already running here or in another process (the command line) is
// ErrScanRunning; a bad request is a validation error.
func (s *Service) StartScan(req ScanRequest) (string, error) {
	j, err := s.scanJob(req)
	if err != nil {
		return "", err
	}
	if err := s.scans.Start(context.Background(), j); err != nil {
		return "", err
	}
	return j.ID, nil
}

// Scan runs a scan to its end (the command line). progress, when not nil,
// is called with the status at most every Options.ProgressEvery while it
// changes. Cancelling ctx cancels the scan; the returned status then says
// "cancelled".
func (s *Service) Scan(ctx context.Context, req ScanRequest, progress func(Status)) (Status, error) {
	j, err := s.scanJob(req)
	if err != nil {
		return Status{}, err
	}
	var report func(jobrun.Status[scanCounts, ScanError])
	if progress != nil {
		report = func(st jobrun.Status[scanCounts, ScanError]) { progress(toStatus(st)) }
	}
	js, err := s.scans.Run(ctx, j, report)
	if err != nil {
		return Status{}, err
	}
	st := toStatus(js)
	if st.State == StateFailed {
		return st, errors.New("scan failed: " + st.Failure)
	}
	return st, nil
}

// CancelScan stops the running scan and returns its id; what it wrote so
// far stays, and the next scan completes the work.
func (s *Service) CancelScan() (string, error) { return s.scans.Cancel() }

// scanJob validates the request and describes the scan to the runner.
//
// The targets are worked out before the slot is claimed, so a bad request
// is refused at once; a change of the library folders in between (PUT
// /roots waits for a free slot, not for this) would leave the scan walking
// folders that are no longer the library's, so the run checks the folders
// again once it holds the slot and fails rather than scan stale ones.
func (s *Service) scanJob(req ScanRequest) (jobrun.Job[scanCounts, ScanError], error) {
	roots := s.roots.Roots()
	targets, err := s.targetsIn(roots, req)
	if err != nil {
		return jobrun.Job[scanCounts, ScanError]{}, err
	}
	id := uuid.NewString()
	return jobrun.Job[scanCounts, ScanError]{
		ID:      id,
		Started: domain.ScanStarted{ScanID: id, Paths: targetPaths(targets)},
		Work: func(ctx context.Context, p *scanProgress) error {
			if !slices.Equal(roots, s.roots.Roots()) {
				return errRootsChanged
			}
			return (&scanRun{s: s, ctx: ctx, id: id, targets: targets, p: p}).scan()
		},
	}, nil
}

// errRootsChanged ends a scan whose library folders changed between its
// request and its start.
var errRootsChanged = errors.New("the library folders changed as the scan started")
