// Package library keeps the catalogue in step with the library folders:
// the scanner (walk → parse → plan → write, see README.md), the audit and
// duplicate search, and a person's edits, which no later scan overwrites.
// It reaches the disk, the database and live listeners only through the
// ports in ports.go.
package library

import (
	"context"
	"log/slog"
	"slices"
	"sync/atomic"
	"time"

	"mediateka/domain"
	jobrun "mediateka/usecase/job"
	"mediateka/usecase/library/release"
)

// Options configure the service. Only the roots are required.
type Options struct {
	// RootStore owns the library folders (search_dirs.json in the server).
	RootStore RootStore
	// Roots are the library folders when RootStore is nil (the command
	// line, tests): a change then lasts as long as the service.
	Roots []domain.Root
	// Parser, when set, reads release names for every scan worker at once,
	// so it must be safe for concurrent use (tests inject one); nil means
	// each worker gets its own from NewParser.
	Parser Parser
	// NewParser makes the Parser of one scan worker, which need not be
	// safe for concurrent use; nil means ReleaseParsers(nil).
	NewParser func() Parser
	// Events, Lock and Listener are optional.
	Events   Publisher
	Lock     Locker
	Listener ChangeListener
	// Space measures the folders' file systems for the overview; nil: not
	// measured.
	Space  SpaceMeter
	Logger *slog.Logger
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Walkers is how many folders are read at once (default 4): reading
	// folders waits on the disk, so a few more than the cores pays off.
	Walkers int
	// BatchSize is how many writes share one transaction (default 2000:
	// fewer commits, while a cancel still loses at most a few seconds).
	BatchSize int
	// ProgressEvery is how often a running scan publishes scan_progress
	// while its counts change (default 1s).
	ProgressEvery time.Duration
}

// Service is the media library use case.
type Service struct {
	store Store
	fs    FileSystem
	roots RootStore
	opt   Options
	log   *slog.Logger
	// scans is the one scan slot.
	scans *jobrun.Runner[scanCounts, ScanError]
	// auditing is set while an audit runs: one at a time, since each walks
	// every folder and reads the whole catalogue.
	auditing atomic.Bool
	// overview keeps the admin overview's counts until the catalogue changes.
	overview overviewCache
}

// New builds the service; nothing runs until a scan starts.
func New(store Store, fsys FileSystem, opt Options) *Service {
	if p := opt.Parser; p != nil {
		opt.NewParser = func() Parser { return p }
	} else if opt.NewParser == nil {
		opt.NewParser = ReleaseParsers(nil)
	}
	if opt.Logger == nil {
		opt.Logger = slog.New(slog.DiscardHandler)
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.Walkers <= 0 {
		opt.Walkers = 4
	}
	if opt.BatchSize <= 0 {
		opt.BatchSize = 2000
	}
	if opt.ProgressEvery <= 0 {
		opt.ProgressEvery = time.Second
	}
	roots := opt.RootStore
	if roots == nil {
		roots = &memRoots{roots: slices.Clone(opt.Roots)}
	}
	return &Service{store: store, fs: fsys, roots: roots, opt: opt, log: opt.Logger, scans: newScanRunner(opt)}
}

// ReleaseParser adapts the release-name parser to the scanner's Parser;
// now, when not nil, fixes the clock that bounds plausible years. It is
// safe for concurrent use.
func ReleaseParser(now func() time.Time) Parser {
	return func(name string, parents []string) Release {
		if now != nil {
			return fromRelease(release.ParseAt(name, parents, now()))
		}
		return fromRelease(release.Parse(name, parents))
	}
}

// ReleaseParsers makes release-name parsers for scan workers, one each:
// a release.Parser reads the folders above a file once for all the files
// listed with it, so it is not safe for concurrent use. now, when not nil,
// is the clock that bounds plausible years, read once per parser.
func ReleaseParsers(now func() time.Time) func() Parser {
	return func() Parser {
		t := time.Now()
		if now != nil {
			t = now()
		}
		p := release.NewParser(t)
		return func(name string, parents []string) Release { return fromRelease(p.Parse(name, parents)) }
	}
}

// fromRelease keeps what the scanner uses of a parsed release.
func fromRelease(r release.Release) Release {
	return Release{
		Title: r.Title, TitleRu: r.TitleRu, TitleOrig: r.TitleOrig, Year: r.Year,
		Episode: r.MediaType == domain.MediaEpisode, Season: r.Season, HasSeason: r.HasSeason,
		EpisodeNum: r.Episode, EpisodeTitle: r.EpisodeTitle, SeriesTitle: r.SeriesTitle,
		Category: r.Category,
	}
}

// RootStatus is a library folder and whether it can be read now.
type RootStatus struct {
	Path      string
	Disk      string
	Available bool
	Problem   string
}

// Roots checks every library folder: a folder that is missing or not a
// folder is reported, never fatal, so an unplugged disk does not stop the
// server.
func (s *Service) Roots() []RootStatus {
	return s.rootStatuses(s.roots.Roots())
}

func (s *Service) rootStatuses(roots []domain.Root) []RootStatus {
	out := make([]RootStatus, 0, len(roots))
	for _, r := range roots {
		st := RootStatus{Path: r.Path, Disk: r.Disk, Available: true}
		info, err := s.fs.Stat(r.Path)
		switch {
		case err != nil:
			st.Available, st.Problem = false, describeFSError(err)
		case !info.IsDir():
			st.Available, st.Problem = false, "not a folder"
		}
		out = append(out, st)
	}
	return out
}

// Stop cancels a running scan and waits for it to stop (at most until ctx
// ends), so the database can close under it safely. Later scans are
// refused.
func (s *Service) Stop(ctx context.Context) error { return s.scans.Stop(ctx) }

// Close is Stop without a deadline.
func (s *Service) Close() { _ = s.Stop(context.Background()) }

func (s *Service) publish(e domain.Event) {
	if s.opt.Events != nil {
		s.opt.Events.Publish(e)
	}
}

func (s *Service) changed() {
	if s.opt.Listener != nil {
		s.opt.Listener.MediaChanged()
	}
}

// settle brings the listener's caches up to date with what was written.
// A failure only delays that: the caches catch up on their own later.
func (s *Service) settle(ctx context.Context) {
	if s.opt.Listener == nil {
		return
	}
	if err := s.opt.Listener.Settle(ctx); err != nil && ctx.Err() == nil {
		s.opt.Logger.Warn("library caches could not catch up", "err", err.Error())
	}
}
