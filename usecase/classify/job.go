package classify

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"mediateka/domain"
	"mediateka/usecase/job"
)

// counts are the job's own counters on the runner; Failed is the runner's
// error count, one error per entry.
type counts struct {
	Model        string
	Total        int
	Classified   int
	Skipped      int
	FieldsFilled int
}

// progress is how a running job reports to the runner.
type progress = job.Progress[counts, EntryError]

// Start begins a job in the background. With ids it classifies exactly
// those entries (an unknown id is a validation error and nothing starts;
// seasons, episodes and entries with nothing to fill are skipped); without
// ids it takes every movie and series on disk that the model has not
// answered for and that has a field to fill. No model is ErrNoModel, a job
// already running ErrRunning. ctx bounds only the check of the ids: the
// job outlives the request and ends with Stop or Cancel.
func (s *Service) Start(ctx context.Context, ids []int64) error {
	if s.model == nil {
		return ErrNoModel
	}
	ids, err := s.checkIDs(ctx, ids)
	if err != nil {
		return err
	}
	return s.jobs.Start(context.Background(), job.Job[counts, EntryError]{
		Counters: counts{Model: s.model.Name()},
		Started:  domain.ClassifyStarted{Model: s.model.Name(), IDs: len(ids)},
		Work:     func(ctx context.Context, p *progress) error { return s.work(ctx, ids, p) },
	})
}

// checkIDs validates a requested id list: positive, at most maxIDs, every
// one an existing entry. Duplicates are dropped.
func (s *Service) checkIDs(ctx context.Context, ids []int64) ([]int64, error) {
	if ids == nil {
		return nil, nil
	}
	if len(ids) == 0 || len(ids) > maxIDs {
		return nil, domain.ErrInvalid("ids must list 1 to "+strconv.Itoa(maxIDs)+" entries, or be left out",
			map[string]string{"ids": "must list 1 to " + strconv.Itoa(maxIDs) + " entry ids"})
	}
	var uniq []int64
	for _, id := range ids {
		if id <= 0 {
			return nil, domain.ErrInvalid("ids must be entry ids", map[string]string{"ids": "must be positive entry ids"})
		}
		if !slices.Contains(uniq, id) {
			uniq = append(uniq, id)
		}
	}
	found, err := s.store.ByIDs(ctx, uniq)
	if err != nil {
		return nil, fmt.Errorf("load the entries to classify: %w", err)
	}
	if len(found) == len(uniq) {
		return uniq, nil
	}
	known := map[int64]bool{}
	for _, m := range found {
		known[m.ID] = true
	}
	var missing []string
	for _, id := range uniq {
		if !known[id] {
			missing = append(missing, strconv.FormatInt(id, 10))
		}
	}
	return nil, domain.ErrInvalid("some ids name no entry", map[string]string{"ids": "no entry has id " + strings.Join(missing, ", ")})
}

// work selects the entries and classifies them one after another: one
// call at a time is kind to a provider's rate limits, and the model, not
// the database, is the slow part.
func (s *Service) work(ctx context.Context, ids []int64, p *progress) error {
	explicit := ids != nil
	if !explicit {
		var err error
		if ids, err = s.pending(ctx); err != nil {
			return err
		}
	}
	p.Update(func(c *counts) { c.Total = len(ids) })
	schema := Schema(s.opt.Now().Year())
	for _, id := range ids {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := s.one(ctx, id, schema, p); err != nil {
			return err
		}
	}
	return nil
}

// pending lists the unclassified movies and series with a field to fill.
func (s *Service) pending(ctx context.Context) ([]int64, error) {
	var ids []int64
	err := s.store.Unclassified(ctx, func(m domain.Media) error {
		if len(missingFields(m)) > 0 {
			ids = append(ids, m.ID)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list the entries to classify: %w", err)
	}
	return ids, nil
}

// one classifies entry id. It returns an error only when the whole job must
// stop (cancelled, the model unavailable, the database failing); a bad
// answer is recorded against the entry and the job goes on.
func (s *Service) one(ctx context.Context, id int64, schema []byte, p *progress) error {
	found, err := s.store.ByIDs(ctx, []int64{id})
	if err != nil {
		return fmt.Errorf("load media %d: %w", id, err)
	}
	if len(found) == 0 {
		skip(p) // deleted meanwhile
		return nil
	}
	m := found[0]
	want := missingFields(m)
	if (m.MediaType != domain.MediaMovie && m.MediaType != domain.MediaSeries) || len(want) == 0 {
		skip(p)
		return nil
	}
	text, err := s.model.Generate(ctx, promptFor(m, schema))
	if err != nil {
		return s.modelFailed(ctx, m, err, p)
	}
	values, err := decodeAnswer(text, s.opt.Now().Year())
	if err != nil {
		s.log.Warn("classification answer rejected", "media_id", m.ID, "reason", err.Error())
		fail(p, m, "rejected the model's answer: "+err.Error())
		return nil
	}
	written, err := s.store.FillMissing(ctx, m.ID, values, want)
	if errors.Is(err, domain.ErrMediaNotFound) {
		skip(p)
		return nil
	}
	if err != nil {
		return fmt.Errorf("write the classification of media %d: %w", m.ID, err)
	}
	if len(written) > 0 && s.opt.Listener != nil {
		s.opt.Listener.MediaChanged()
	}
	p.Update(func(c *counts) { c.Classified++; c.FieldsFilled += len(written) })
	return nil
}

// modelFailed records a failed model call. A cancelled job or an
// unavailable model (no key left, provider down) stops the job: every
// later entry would fail the same way. Only the typed error's message is
// recorded, never the provider's raw text, which could echo a key.
func (s *Service) modelFailed(ctx context.Context, m domain.Media, err error, p *progress) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	reason := "the model call failed"
	var de *domain.Error
	if errors.As(err, &de) {
		reason = de.Message
	}
	s.log.Warn("classification model call failed", "media_id", m.ID, "err", err.Error())
	fail(p, m, reason)
	if domain.IsKind(err, domain.KindUnavailable) {
		return &modelDown{reason: reason}
	}
	return nil
}

// modelDown ends a job whose model cannot answer.
type modelDown struct{ reason string }

func (e *modelDown) Error() string { return "the AI model is unavailable: " + e.reason }

func skip(p *progress) { p.Update(func(c *counts) { c.Skipped++ }) }

func fail(p *progress, m domain.Media, reason string) {
	p.Error(EntryError{ID: m.ID, Title: m.Title, Error: reason})
}

// failure is the reason a stopped job's status shows: never the raw error,
// which could carry a provider's text.
func failure(state domain.JobState, err error) string {
	var down *modelDown
	switch {
	case state == domain.JobCancelled:
		return "the job was cancelled (the server is shutting down)"
	case errors.As(err, &down):
		return down.Error()
	default:
		return "the job could not read or write the catalogue"
	}
}
