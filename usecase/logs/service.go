// Package logs is the administrator's window into the server's own log
// folder: listing, reading (tail, filters), clearing, statistics and the
// analysis job that writes Markdown reports. The folder sits behind the
// Folder port (repository/logfile); what leaves this package, in answers,
// reports or prompts to an AI model, passes the same domain.Redactor the
// logger applies when writing.
package logs

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"mediateka/domain"
	"mediateka/usecase/job"
)

// Options configure the service; all are optional.
type Options struct {
	// Redactor is the logger's rule (nil: nothing known to scrub).
	Redactor *domain.Redactor
	Events   Publisher
	Logger   *slog.Logger
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// SummaryTimeout bounds the AI summary (default 60s).
	SummaryTimeout time.Duration
}

// Service answers the logs API.
type Service struct {
	folder Folder
	model  domain.AIModel
	opt    Options
	log    *slog.Logger

	mu   sync.Mutex
	jobs map[string]*job.Runner[counts, string] // the runners of the files being analysed
	stop bool
}

// New builds the service over folder. model nil means no AI summary (the
// offline assistant is no summariser either: pass nil for it).
func New(folder Folder, model domain.AIModel, opt Options) *Service {
	if opt.Logger == nil {
		opt.Logger = slog.New(slog.DiscardHandler)
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.Redactor == nil {
		opt.Redactor = domain.NewRedactor(nil)
	}
	if opt.SummaryTimeout <= 0 {
		opt.SummaryTimeout = time.Minute
	}
	return &Service{folder: folder, model: model, opt: opt, log: opt.Logger, jobs: map[string]*job.Runner[counts, string]{}}
}

// Files lists the log files with an allowed name, newest first.
func (s *Service) Files(context.Context) ([]domain.LogFile, error) {
	all, err := s.folder.List()
	if err != nil {
		return nil, fmt.Errorf("list the log files: %w", err)
	}
	return newestFirst(slices.DeleteFunc(all, func(f domain.LogFile) bool { return CheckName(f.Name) != nil })), nil
}

// Reports lists the analysis reports, newest first.
func (s *Service) Reports(context.Context) ([]domain.LogFile, error) {
	all, err := s.folder.Reports()
	if err != nil {
		return nil, fmt.Errorf("list the reports: %w", err)
	}
	return newestFirst(slices.DeleteFunc(all, func(f domain.LogFile) bool { return CheckName(f.Name) != nil })), nil
}

// newestFirst sorts by modification time, then by name (report names
// carry their time, so equal times still come out newest first).
func newestFirst(files []domain.LogFile) []domain.LogFile {
	slices.SortFunc(files, func(a, b domain.LogFile) int {
		if c := b.Modified.Compare(a.Modified); c != 0 {
			return c
		}
		return strings.Compare(b.Name, a.Name)
	})
	return files
}

// maxReport bounds a report as the API returns it.
const maxReport = 4 << 20

// Report returns a report's Markdown.
func (s *Service) Report(_ context.Context, name string) (string, error) {
	if err := CheckName(name); err != nil {
		return "", err
	}
	b, err := s.folder.ReadReport(name, maxReport)
	if err != nil {
		return "", err
	}
	return s.opt.Redactor.Scrub(string(b)), nil
}

// Clear empties one file, or every log file when name is empty, and
// returns the names it cleared; clearing all skips a file that went away
// after the listing (rotation deletes the oldest backup). The logger keeps writing into the active
// file.
func (s *Service) Clear(ctx context.Context, name string) ([]string, error) {
	names := []string{name}
	if name == "" {
		files, err := s.Files(ctx)
		if err != nil {
			return nil, err
		}
		names = names[:0]
		for _, f := range files {
			names = append(names, f.Name)
		}
	} else if err := CheckName(name); err != nil {
		return nil, err
	}
	cleared := []string{}
	for _, n := range names {
		err := s.folder.Truncate(n)
		if name == "" && errors.Is(err, domain.ErrLogFileNotFound) {
			continue // rotation removed an old backup since the listing: nothing left to clear
		}
		if err != nil {
			return cleared, fmt.Errorf("clear %s: %w", n, err)
		}
		cleared = append(cleared, n)
	}
	s.log.Info("log files cleared", "files", cleared)
	return cleared, nil
}

// Stop cancels the analyses that run and refuses new ones; it returns once
// they have finished (or ctx ends).
func (s *Service) Stop(ctx context.Context) error {
	s.mu.Lock()
	s.stop = true
	runners := make([]*job.Runner[counts, string], 0, len(s.jobs))
	for _, r := range s.jobs {
		runners = append(runners, r)
	}
	s.mu.Unlock()
	for _, r := range runners {
		if err := r.Stop(ctx); err != nil {
			return err
		}
	}
	return nil
}
