package library

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"time"

	"mediateka/domain"
)

// Kinds of audit issues.
const (
	IssueMissingFile        = "missing_file"
	IssueUnregisteredFile   = "unregistered_file"
	IssueDuplicate          = "duplicate"
	IssueIncompleteMetadata = "incomplete_metadata"
	IssueOrphan             = "orphan"
)

// maxIssues bounds one report; Summary still counts every issue.
const maxIssues = 10000

// Issue is one problem the audit found. An issue about an entry names its
// id, title and path (a series or season without a folder has a
// "<folder>#…" path); MediaID is 0 and Title empty for a file the
// catalogue lacks.
type Issue struct {
	Kind    string
	MediaID int64
	Title   string
	Path    string
	Detail  string
}

// AuditReport is the outcome of an audit: Checked records, the issues
// (at most maxIssues listed), how many of each kind, and how long it took
// by the service's clock.
type AuditReport struct {
	Checked  int
	Total    int
	Issues   []Issue
	Summary  map[string]int
	Duration time.Duration
}

func (r *AuditReport) add(i Issue) {
	r.Total++
	r.Summary[i.Kind]++
	if len(r.Issues) < maxIssues {
		r.Issues = append(r.Issues, i)
	}
}

// Audit compares the catalogue with the disk and with itself: files that
// are gone, video files under the roots the catalogue lacks, records
// without a title (or, for movies and series, a year), records whose
// parent does not exist, and duplicates. It reads, and stores content
// hashes for the duplicate search; it changes no record. One audit runs at
// a time: another one meanwhile is ErrAuditRunning.
func (s *Service) Audit(ctx context.Context) (AuditReport, error) {
	if !s.auditing.CompareAndSwap(false, true) {
		return AuditReport{}, domain.ErrAuditRunning
	}
	defer s.auditing.Store(false)
	started := s.opt.Now()
	rep, err := s.audit(ctx)
	if err != nil {
		return AuditReport{}, err
	}
	rep.Duration = s.opt.Now().Sub(started)
	s.publish(domain.AuditCompleted{Total: rep.Total, Checked: rep.Checked, MissingFile: rep.Summary[IssueMissingFile],
		UnregisteredFile: rep.Summary[IssueUnregisteredFile], Duplicate: rep.Summary[IssueDuplicate],
		IncompleteMetadata: rep.Summary[IssueIncompleteMetadata], Orphan: rep.Summary[IssueOrphan],
		DurationMS: rep.Duration.Milliseconds()})
	return rep, nil
}

// audit runs the checks in turn.
func (s *Service) audit(ctx context.Context) (AuditReport, error) {
	rep := AuditReport{Summary: map[string]int{}}
	for _, k := range []string{IssueMissingFile, IssueUnregisteredFile, IssueDuplicate, IssueIncompleteMetadata, IssueOrphan} {
		rep.Summary[k] = 0
	}
	files := map[string]int64{}
	err := s.store.ScanState(ctx, nil, func(m domain.Media) error {
		rep.Checked++
		if m.HasFile() {
			files[m.Path] = m.ID
			if _, err := s.fs.Stat(m.Path); err != nil {
				rep.add(Issue{Kind: IssueMissingFile, MediaID: m.ID, Path: m.Path, Detail: "the file " + describeFSError(err)})
			}
		}
		return nil
	})
	if err != nil {
		return AuditReport{}, fmt.Errorf("audit: %w", err)
	}
	if err := s.auditUnregistered(ctx, files, &rep); err != nil {
		return AuditReport{}, err
	}
	if err := s.auditRecords(ctx, &rep); err != nil {
		return AuditReport{}, err
	}
	groups, err := s.duplicateGroups(ctx)
	if err != nil {
		return AuditReport{}, err
	}
	for _, g := range groups {
		for _, id := range g.ids[1:] {
			rep.add(Issue{Kind: IssueDuplicate, MediaID: id, Detail: fmt.Sprintf("%s as media %d", describeReason(g.reason), g.ids[0])})
		}
	}
	return rep, s.nameIssues(ctx, &rep)
}

// nameIssues adds the title and path of each listed issue's entry, so a
// person sees what an issue is about without looking ids up.
func (s *Service) nameIssues(ctx context.Context, rep *AuditReport) error {
	var ids []int64
	for _, i := range rep.Issues {
		if i.MediaID != 0 {
			ids = append(ids, i.MediaID)
		}
	}
	byID := make(map[int64]domain.Media, len(ids))
	for chunk := range slices.Chunk(ids, 500) {
		entries, err := s.store.ByIDs(ctx, chunk)
		if err != nil {
			return fmt.Errorf("audit: name the entries: %w", err)
		}
		for _, m := range entries {
			byID[m.ID] = m
		}
	}
	for k := range rep.Issues {
		if m, ok := byID[rep.Issues[k].MediaID]; ok {
			rep.Issues[k].Title = firstOf(m.Title, m.TitleRu, m.TitleOrig)
			rep.Issues[k].Path = m.Path
		}
	}
	return nil
}

// auditUnregistered walks the available roots for video files the
// catalogue has no record of.
func (s *Service) auditUnregistered(ctx context.Context, files map[string]int64, rep *AuditReport) error {
	var targets []target
	for _, r := range s.Roots() {
		if r.Available {
			targets = append(targets, target{path: r.Path, root: domain.Root{Path: r.Path, Disk: r.Disk}})
		}
	}
	out := make(chan listing, 64)
	go newWalker(s.fs, collapse(targets), quietSink{}, out).walk(ctx, s.opt.Walkers)
	var found []string
	for l := range out {
		for _, f := range l.files {
			if _, ok := files[f.path]; !ok {
				found = append(found, f.path)
			}
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	sort.Strings(found)
	for _, p := range found {
		rep.add(Issue{Kind: IssueUnregisteredFile, Path: p, Detail: "a video file under the library folders is not in the catalogue"})
	}
	return nil
}

// auditRecords checks titles, years and parents.
func (s *Service) auditRecords(ctx context.Context, rep *AuditReport) error {
	var keys []domain.MediaKey
	ids := map[int64]bool{}
	err := s.store.Keys(ctx, func(k domain.MediaKey) error {
		keys = append(keys, k)
		ids[k.ID] = true
		return nil
	})
	if err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	// "No title" means no display title: title is the name an entry is
	// shown and filed under, the other searchable fields are optional
	// translations, so the check names title rather than walking them.
	title := slices.Index(domain.MediaFieldNames(domain.FieldSearchable), "title")
	for _, k := range keys {
		topLevel := k.Type == domain.MediaMovie || k.Type == domain.MediaSeries
		switch {
		case k.Title(title) == "":
			rep.add(Issue{Kind: IssueIncompleteMetadata, MediaID: k.ID, Detail: "no title"})
		case topLevel && k.Year == 0:
			rep.add(Issue{Kind: IssueIncompleteMetadata, MediaID: k.ID, Detail: "no year"})
		}
		if k.ParentID != 0 && !ids[k.ParentID] {
			rep.add(Issue{Kind: IssueOrphan, MediaID: k.ID, Detail: fmt.Sprintf("parent %d does not exist", k.ParentID)})
		}
	}
	return nil
}

// quietSink ignores what the audit's walk cannot read: the audit reports
// catalogue problems, and a later scan reports unreadable folders.
type quietSink struct{}

func (quietSink) fail(string, error)     {}
func (quietSink) problem(string, string) {}
func (quietSink) reading(string)         {}

func describeReason(reason string) string {
	if reason == DuplicateSameContent {
		return "same size and content"
	}
	return "same title, year and type"
}
