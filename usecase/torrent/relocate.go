package torrent

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"

	"mediateka/domain"
	jobrun "mediateka/usecase/job"
)

// Bounds of a relocation request.
const (
	maxRelocateDirs = 100
	maxPathLength   = 4096
)

// Relocated is a torrent whose files were found: the client now looks
// for them in To and rechecks them.
type Relocated struct {
	Hash, Name, To string
}

// NotFound is a torrent with missing files that the walk did not find.
type NotFound struct {
	Hash, Name string
}

// RelocateError is a torrent whose files were found but the client
// refused the new location or the recheck.
type RelocateError struct {
	Hash, Name, Error string
}

// RelocateResult is what a relocation did. Truncated says the walk
// stopped at its depth or entry bound, so files beyond it were not seen.
type RelocateResult struct {
	Relocated []Relocated
	NotFound  []NotFound
	Truncated bool
}

// RelocateOutcome is Relocate's answer: the result when it ran within the
// request, or the id of the background job and how many torrents it took.
type RelocateOutcome struct {
	Result RelocateResult
	JobID  string
	Total  int
}

// RelocateStatus is the state of the current or last relocation job.
type RelocateStatus struct {
	State      domain.JobState
	ID         string
	StartedAt  time.Time
	FinishedAt time.Time
	// Total torrents with missing files taken on; Checked of them looked up.
	Total   int
	Checked int
	Result  RelocateResult
	Errors  []RelocateError
	Failure string
}

// relocateCounts are the relocation's counters on the job runner.
type relocateCounts struct {
	Total, Checked int
	Result         RelocateResult
}

// newRelocateRunner builds the one relocation slot.
func newRelocateRunner(opt Options) *jobrun.Runner[relocateCounts, RelocateError] {
	return jobrun.New(jobrun.Options[relocateCounts, RelocateError]{
		Name: "torrent relocation", Conflict: domain.ErrRelocateRunning, Logger: opt.Logger, Now: opt.Now,
		Failure: func(state domain.JobState, err error) string {
			if state != domain.JobFailed {
				return ""
			}
			if errors.Is(err, domain.ErrTorrentClientUnavailable) {
				return "the torrent client became unreachable"
			}
			return "the relocation failed; the log has the details"
		},
	})
}

// Relocate finds the files of the torrents in MissingFiles under dirs
// (the library folders when empty) by name and size, points each torrent
// at the folder that holds them and rechecks it. Up to
// Options.RelocateInline torrents are handled before it returns; more run
// as a background job (RelocateStatus). dirs outside the library folders
// are refused before the client is asked anything.
func (s *Service) Relocate(ctx context.Context, dirs []string) (RelocateOutcome, error) {
	dirs, err := s.relocateDirs(dirs)
	if err != nil {
		return RelocateOutcome{}, err
	}
	if s.client == nil {
		return RelocateOutcome{}, errNotConfigured
	}
	all, err := s.client.List(ctx)
	if err != nil {
		return RelocateOutcome{}, fmt.Errorf("list torrents: %w", err)
	}
	missing := slices.DeleteFunc(all, func(t domain.Torrent) bool { return t.State != domain.TorrentMissingFiles })
	var failed error
	j := jobrun.Job[relocateCounts, RelocateError]{ID: uuid.NewString(), Counters: relocateCounts{Total: len(missing)},
		Work: func(ctx context.Context, p *relocateProgress) error {
			failed = (&relocation{s: s, dirs: dirs, torrents: missing, p: p}).run(ctx)
			return failed
		}}
	if len(missing) > s.opt.RelocateInline {
		if err := s.relocates.Start(context.Background(), j); err != nil {
			return RelocateOutcome{}, err
		}
		return RelocateOutcome{JobID: j.ID, Total: len(missing)}, nil
	}
	st, err := s.relocates.Run(ctx, j, nil)
	switch {
	case err != nil:
		return RelocateOutcome{}, err
	case failed != nil:
		return RelocateOutcome{}, failed
	case st.State != domain.JobCompleted:
		return RelocateOutcome{}, fmt.Errorf("relocation %s", st.State)
	}
	return RelocateOutcome{Result: st.Counters.Result}, nil
}

// RelocateStatus returns the current or last relocation's status.
func (s *Service) RelocateStatus() RelocateStatus {
	st := s.relocates.Status()
	c := st.Counters
	return RelocateStatus{State: st.State, ID: st.ID, StartedAt: st.StartedAt, FinishedAt: st.FinishedAt,
		Total: c.Total, Checked: c.Checked, Result: RelocateResult{Relocated: slices.Clone(c.Result.Relocated),
			NotFound: slices.Clone(c.Result.NotFound), Truncated: c.Result.Truncated},
		Errors: st.Errors, Failure: st.Failure}
}

// Stop ends a running relocation job and refuses new ones (shutdown).
func (s *Service) Stop(ctx context.Context) error { return s.relocates.Stop(ctx) }

// relocateDirs checks the requested folders: absolute, inside a library
// folder as written and once every link is resolved, present. Empty means
// the library folders. Nested folders collapse into the outer one.
func (s *Service) relocateDirs(dirs []string) ([]string, error) {
	roots := s.opt.Roots()
	if len(roots) == 0 {
		return nil, domain.ErrNoRoots
	}
	rootPaths := make([]string, len(roots))
	for i, r := range roots {
		rootPaths[i] = filepath.Clean(r.Path)
	}
	if len(dirs) == 0 {
		return collapseDirs(rootPaths), nil
	}
	if len(dirs) > maxRelocateDirs {
		return nil, invalidDirs("invalid_input", "at most 100 folders")
	}
	realRoots := s.realPaths(rootPaths)
	out := make([]string, 0, len(dirs))
	for _, d := range dirs {
		clean, err := s.checkDir(d, rootPaths, realRoots)
		if err != nil {
			return nil, err
		}
		out = append(out, clean)
	}
	return collapseDirs(out), nil
}

// checkDir checks one requested folder.
func (s *Service) checkDir(d string, roots, realRoots []string) (string, error) {
	switch {
	case len(d) > maxPathLength || strings.ContainsRune(d, 0):
		return "", invalidDirs("invalid_input", "a folder is too long or contains a NUL byte")
	case !filepath.IsAbs(d):
		return "", invalidDirs("path_not_absolute", "must be absolute paths: "+quoteShort(d))
	}
	clean := filepath.Clean(d)
	outside := invalidDirs("path_outside_roots", "is not inside a library folder: "+quoteShort(clean))
	if !slices.ContainsFunc(roots, func(r string) bool { return domain.PathWithin(r, clean) }) {
		return "", outside
	}
	real, err := s.opt.FS.RealPath(clean)
	if err != nil {
		return "", invalidDirs("path_not_found", "does not exist or cannot be read: "+quoteShort(clean))
	}
	if !slices.ContainsFunc(realRoots, func(r string) bool { return domain.PathWithin(r, real) }) {
		return "", outside // a link inside the library that leads out of it
	}
	if info, err := s.opt.FS.Stat(clean); err != nil || !info.IsDir() {
		return "", invalidDirs("path_not_found", "is not a folder: "+quoteShort(clean))
	}
	return clean, nil
}

// realPaths resolves the links of each path; one that fails stays as it is.
func (s *Service) realPaths(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = p
		if rp, err := s.opt.FS.RealPath(p); err == nil {
			out[i] = rp
		}
	}
	return out
}

// collapseDirs sorts dirs and drops those inside another.
func collapseDirs(dirs []string) []string {
	dirs = slices.Clone(dirs)
	slices.Sort(dirs)
	out := dirs[:0]
	for _, d := range dirs {
		if len(out) > 0 && domain.PathWithin(out[len(out)-1], d) {
			continue
		}
		out = append(out, d)
	}
	return out
}

func invalidDirs(code, reason string) error {
	return &domain.Error{Kind: domain.KindInvalid, Code: code, Message: "the relocation request is invalid: " + reason,
		Fields: map[string]string{"dirs": reason}}
}

// quoteShort quotes a path for a message, shortened so an error body
// stays small whatever a client sends.
func quoteShort(p string) string {
	if len(p) > 200 {
		p = p[:200] + "…"
	}
	return `"` + strings.ToValidUTF8(p, "?") + `"`
}
