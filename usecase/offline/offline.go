// Package offline is the built-in assistant that answers when no AI model is
// configured (ai.provider "offline" or empty). It is honest about what it
// is: every answer says that no model is configured. What it can do is real:
// it pulls the likely title out of the question ("есть ли у меня Матрица?",
// "do I have The Matrix"), searches the catalogue for it and lists what it
// found with year, type and category, in the language of the question.
package offline

import (
	"context"
	"fmt"
	"log/slog"
	"strings"

	"mediateka/domain"
)

// Catalog is the catalogue search the assistant needs: titles (any of
// title, title_ru, title_orig) matching query, best matches first, at most
// limit of them. Matching should be case-insensitive and Unicode-aware;
// the media catalogue use case provides it. A nil Catalog means the
// catalogue is not available, and the assistant says so.
type Catalog interface {
	SearchTitles(ctx context.Context, query string, limit int) ([]domain.Media, error)
}

// DefaultLimit is how many titles one answer lists.
const DefaultLimit = 10

// Options tune the assistant; zero values get the defaults.
type Options struct {
	Limit  int
	Logger *slog.Logger
}

// Model is the offline assistant, a domain.AIModel. It ignores the system
// instruction and the history: it has no language model to follow them.
type Model struct {
	catalog Catalog
	opt     Options
}

// New returns the assistant searching catalog (nil: no catalogue).
func New(catalog Catalog, opt Options) *Model {
	if opt.Limit <= 0 {
		opt.Limit = DefaultLimit
	}
	if opt.Logger == nil {
		opt.Logger = slog.New(slog.DiscardHandler)
	}
	return &Model{catalog: catalog, opt: opt}
}

// Name is "offline", what the chat reports as its model.
func (m *Model) Name() string { return "offline" }

// Generate answers p.Message from the catalogue. It fails only when ctx is
// done; a catalogue error becomes a sentence saying the search failed.
func (m *Model) Generate(ctx context.Context, p domain.Prompt) (string, error) {
	lines, err := m.answer(ctx, p.Message)
	if err != nil {
		return "", err
	}
	return strings.Join(lines, "\n"), nil
}

// Stream emits the same answer as Generate, one line at a time.
func (m *Model) Stream(ctx context.Context, p domain.Prompt, emit func(chunk string) error) error {
	lines, err := m.answer(ctx, p.Message)
	if err != nil {
		return err
	}
	for i, l := range lines {
		if i < len(lines)-1 {
			l += "\n"
		}
		if err := emit(l); err != nil {
			return err
		}
	}
	return nil
}

func (m *Model) answer(ctx context.Context, message string) ([]string, error) {
	q := parse(ctx, message)
	t := textsIn(q.lang)
	lines := []string{t.noModel}
	switch {
	case q.phrase == "":
		return append(lines, t.askTitle), nil
	case m.catalog == nil:
		return append(lines, fmt.Sprintf(t.noCatalog, q.phrase)), nil
	}
	found, more, err := m.search(ctx, q)
	switch {
	case ctx.Err() != nil:
		return nil, domain.ErrAIUnavailable.Wrap(ctx.Err())
	case err != nil:
		m.opt.Logger.WarnContext(ctx, "offline assistant: catalogue search failed", "err", err)
		return append(lines, fmt.Sprintf(t.failed, q.phrase)), nil
	case len(found) == 0:
		return append(lines, fmt.Sprintf(t.notFound, q.phrase)), nil
	}
	lines = append(lines, fmt.Sprintf(t.found, q.phrase))
	for _, media := range found {
		lines = append(lines, t.describe(media, q.lang))
	}
	if more {
		lines = append(lines, t.more)
	}
	return lines, nil
}

// search tries the query's terms best first and keeps the first that finds
// anything; more reports that the catalogue had more than the limit.
func (m *Model) search(ctx context.Context, q query) (found []domain.Media, more bool, err error) {
	for _, term := range q.searchTerms() {
		res, err := m.catalog.SearchTitles(ctx, term, m.opt.Limit+1)
		if err != nil {
			return nil, false, err
		}
		if len(res) > 0 {
			return res[:min(len(res), m.opt.Limit)], len(res) > m.opt.Limit, nil
		}
	}
	return nil, false, nil
}
