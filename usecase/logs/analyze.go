package logs

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"mediateka/domain"
	"mediateka/usecase/job"
)

// ErrAnalysisRunning is the answer to analysing a file whose analysis is
// still running.
var ErrAnalysisRunning = domain.NewError(domain.KindConflict, "analysis_running", "an analysis of this file is already running")

// errShuttingDown is the answer to an analysis asked for once the server
// has begun to stop: no analysis runs, but not because of another one.
var errShuttingDown = domain.ErrUnavailable("unavailable", "the server is shutting down", nil)

// maxAnalysedName is the longest file name whose report name
// (report_<name>_<time>.md) still fits in the 255 bytes of a file name.
var maxAnalysedName = 255 - len(ReportName("", time.Time{}))

// counts are an analysis run's counters, carried into its end event.
type counts struct {
	Filename  string
	Report    string
	Lines     int
	Errors    int
	AISummary bool
}

// summaryInstruction is the system instruction of the AI summary.
const summaryInstruction = "You read the statistics of a media server's log for its administrator. " +
	"Answer in at most five plain sentences: what went wrong, how often, since when, and what to look at first. " +
	"Do not invent causes the statistics do not show."

// Analyze starts the analysis of a log file on its job runner and returns
// the name its report will have. A running analysis of the same file is
// ErrAnalysisRunning; other files may be analysed meanwhile.
func (s *Service) Analyze(_ context.Context, name string) (string, error) {
	if err := CheckName(name); err != nil {
		return "", err
	}
	if len(name) > maxAnalysedName {
		return "", domain.ErrInvalid("filename is too long to name its report",
			map[string]string{"filename": fmt.Sprintf("at most %d bytes to be analysed", maxAnalysedName)})
	}
	fi, err := s.folder.Stat(name)
	if err != nil {
		return "", err
	}
	started := s.opt.Now().UTC()
	report := ReportName(name, started)
	c := counts{Filename: name, Report: report}
	s.mu.Lock()
	defer s.mu.Unlock() // held across Start, so a runner seen idle below is idle
	r, err := s.runnerLocked(name)
	if err != nil {
		return "", err
	}
	err = r.Start(context.Background(), job.Job[counts, string]{ID: report, Counters: c,
		Work: func(ctx context.Context, p *job.Progress[counts, string]) error {
			return s.analyze(ctx, fi, report, started, p)
		}})
	if err != nil {
		return "", err
	}
	return report, nil
}

// ReportName is report_<file>_<time>.md, the time in UTC to the
// millisecond so two runs in one second do not collide.
func ReportName(file string, t time.Time) string {
	return "report_" + file + "_" + t.UTC().Format("20060102T150405.000Z") + ".md"
}

// runnerLocked is the file's analysis runner, made on first use. The
// runners of other files that are not running are dropped first, so the
// map holds the analyses going on (and this file's), not every name ever
// analysed. This file's own runner is kept, idle or not: its lock orders
// a run's end event before the next run's start. The caller holds s.mu
// until it has started the run.
func (s *Service) runnerLocked(name string) (*job.Runner[counts, string], error) {
	if s.stop {
		return nil, errShuttingDown
	}
	for n, r := range s.jobs {
		if n != name && !r.Running() {
			delete(s.jobs, n)
		}
	}
	r, ok := s.jobs[name]
	if !ok {
		r = job.New(job.Options[counts, string]{Name: "log analysis", Conflict: ErrAnalysisRunning,
			Events: s.opt.Events, Logger: s.log, Now: s.opt.Now, Finished: analyzedEvent, Failure: failure})
		s.jobs[name] = r
	}
	return r, nil
}

func analyzedEvent(st job.Status[counts, string]) domain.Event {
	c := st.Counters
	return domain.LogAnalyzed{Filename: c.Filename, Report: c.Report, State: st.State, Lines: c.Lines,
		Errors: c.Errors, AISummary: c.AISummary, DurationMS: st.Duration().Milliseconds()}
}

func failure(state domain.JobState, _ error) string {
	if state == domain.JobCancelled {
		return "the analysis was cancelled"
	}
	return "the log file could not be read or the report not written"
}

// analyze is one run: stream the file, ask the model, write the report.
func (s *Service) analyze(ctx context.Context, fi domain.LogFile, report string, started time.Time, p *job.Progress[counts, string]) error {
	r, err := s.folder.Open(fi.Name)
	if err != nil {
		return err
	}
	defer r.Close()
	a := newAnalysis(s.opt.Redactor)
	err = a.run(r, func() bool { return ctx.Err() != nil }, func(n int) { p.Update(func(c *counts) { c.Lines = n }) })
	if err != nil {
		return fmt.Errorf("read %s: %w", fi.Name, err)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	var body bytes.Buffer
	a.body(&body)
	h := reportHeader{File: fi.Name, Size: fi.Size, Started: started}
	h.Summary, h.Note = s.summarise(ctx, a, body.String())
	h.Duration = s.opt.Now().Sub(started)
	p.Update(func(c *counts) { c.Lines, c.Errors, c.AISummary = a.Lines, a.ByLevel["error"], h.Summary != "" })
	return s.folder.WriteReport(report, func(w io.Writer) error { return a.write(w, h, body.Bytes()) })
}

// summarise asks the model for a short summary of the statistics (already
// templated, and redacted again here: nothing the logger would mask goes
// to the model). Without a model there is no summary and no note; a model
// that fails leaves a note instead of failing the analysis.
func (s *Service) summarise(ctx context.Context, a *analysis, stats string) (summary, note string) {
	if s.model == nil {
		return "", ""
	}
	ctx, cancel := context.WithTimeout(ctx, s.opt.SummaryTimeout)
	defer cancel()
	msg := fmt.Sprintf("Log file statistics: %d lines from %s to %s.\n\n%s", a.Lines, when(a.First), when(a.Last), stats)
	out, err := s.model.Generate(ctx, domain.Prompt{System: summaryInstruction, Message: s.opt.Redactor.Scrub(msg)})
	if err != nil {
		if !errors.Is(err, context.Canceled) {
			s.log.Warn("log analysis: the AI summary failed", "model", s.model.Name(), "err", err)
		}
		return "", "No AI summary: the model (" + s.model.Name() + ") did not answer."
	}
	if out = strings.TrimSpace(out); out == "" {
		return "", "No AI summary: the model (" + s.model.Name() + ") answered nothing."
	}
	return out + "\n\n_Summary by " + s.model.Name() + "._", ""
}
