// Package classify fills the missing metadata of catalogue entries (movies
// and series) from an AI model: a background job that asks the model about
// one entry at a time with a strict JSON schema, validates the whole answer
// before anything is written, and writes only fields that are still empty
// and that no person edited. Seasons and episodes are left alone: their
// series carries the metadata, and asking about every episode would spend
// a provider's quota on names like "Серия 3".
package classify

import (
	"context"
	"log/slog"
	"time"

	"mediateka/domain"
	"mediateka/usecase/job"
)

// Job states of GET /api/media-admin/classify/status: the job states every
// background job shares, named here for the job's callers.
const (
	StateIdle      = domain.JobIdle
	StateRunning   = domain.JobRunning
	StateCompleted = domain.JobCompleted
	StateFailed    = domain.JobFailed
	StateCancelled = domain.JobCancelled
)

// maxErrors bounds the per-entry problems a status keeps; Failed counts all.
const maxErrors = 100

// maxIDs bounds one request's id list.
const maxIDs = 10000

// Errors of the classification job; their codes are part of the API.
var (
	ErrRunning = domain.NewError(domain.KindConflict, "classify_running", "a classification job is already running")
	ErrNoModel = domain.ErrUnavailable(domain.ErrAIUnavailable.Code,
		"no AI model is configured (config ai.provider is offline): classification needs gemini or openai", nil)
)

// Options configure the service. All are optional.
type Options struct {
	Events   Publisher
	Listener ChangeListener
	Logger   *slog.Logger
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// EntryError is one entry the job could not classify.
type EntryError struct {
	ID    int64
	Title string
	Error string
}

// Status is the progress and outcome of the current or last job. Total is
// how many entries the job took on; Classified of them got a valid answer
// (whether or not it filled anything), Failed did not, Skipped needed
// nothing (every field set or edited, or not a movie or series).
type Status struct {
	State        domain.JobState
	Model        string
	Total        int
	Classified   int
	Failed       int
	Skipped      int
	FieldsFilled int
	StartedAt    time.Time
	FinishedAt   time.Time
	// Failure says why a failed job stopped early.
	Failure string
	Errors  []EntryError
}

// Service runs classification jobs, one at a time.
type Service struct {
	store Store
	model domain.AIModel
	opt   Options
	log   *slog.Logger
	// jobs is the one classification slot.
	jobs *job.Runner[counts, EntryError]
}

// New builds the service. model nil means no model is configured: every
// Start answers ErrNoModel.
func New(store Store, model domain.AIModel, opt Options) *Service {
	if opt.Logger == nil {
		opt.Logger = slog.New(slog.DiscardHandler)
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	return &Service{store: store, model: model, opt: opt, log: opt.Logger, jobs: job.New(job.Options[counts, EntryError]{
		Name: "classification", Conflict: ErrRunning, Events: opt.Events, Logger: opt.Logger, Now: opt.Now,
		MaxErrors: maxErrors, Progress: progressEvent, Finished: completedEvent, Failure: failure,
	})}
}

// progressEvent and completedEvent are the job's events on the runner.
func progressEvent(st job.Status[counts, EntryError]) domain.Event {
	return domain.ClassifyProgress{ClassifyCounts: eventCounts(st)}
}

func completedEvent(st job.Status[counts, EntryError]) domain.Event {
	return domain.ClassifyCompleted{ClassifyCounts: eventCounts(st), State: st.State, DurationMS: st.Duration().Milliseconds()}
}

func eventCounts(st job.Status[counts, EntryError]) domain.ClassifyCounts {
	c := st.Counters
	return domain.ClassifyCounts{Model: c.Model, Total: c.Total, Classified: c.Classified, Failed: st.ErrorCount,
		Skipped: c.Skipped, FieldsFilled: c.FieldsFilled}
}

// Available reports whether a model is configured.
func (s *Service) Available() bool { return s.model != nil }

// Status returns a copy of the current status.
func (s *Service) Status() Status {
	js := s.jobs.Status()
	c := eventCounts(js)
	return Status{State: js.State, Model: c.Model, Total: c.Total, Classified: c.Classified, Failed: c.Failed,
		Skipped: c.Skipped, FieldsFilled: c.FieldsFilled, StartedAt: js.StartedAt, FinishedAt: js.FinishedAt,
		Failure: js.Failure, Errors: js.Errors}
}

// Stop cancels a running job and waits for it to stop (at most until ctx
// ends), so the database can close under it safely. Later jobs are
// refused.
func (s *Service) Stop(ctx context.Context) error { return s.jobs.Stop(ctx) }

// Close is Stop without a deadline.
func (s *Service) Close() { _ = s.Stop(context.Background()) }

// Wait blocks until the running job, if any, has finished.
func (s *Service) Wait() { s.jobs.Wait() }
