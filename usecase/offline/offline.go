// Package offline is the built-in assistant that answers when no AI model is
// configured (ai.provider "offline" or empty). It is honest about what it
// is: the first answer of a conversation says that no model is configured.
// What it can do is real, and all of it comes from the catalogue: it finds
// titles ("есть ли у меня Матрица?"), counts what a question narrows the
// catalogue to ("сколько серий в Кухне?", "how many films are on Disk 2"),
// suggests something to watch from categories, genres and years ("посоветуй
// комедию", "what can I watch tonight") and, once the semantic index is
// built, by meaning when the words name no title or genre, lists the subtitle files of a film,
// and answers a greeting or thanks in kind — in the language of the question.
package offline

import (
	"context"
	"log/slog"
	"strings"
	"time"

	"mediateka/domain"
)

// Defaults of Options.
const (
	// DefaultLimit is how many titles one answer lists.
	DefaultLimit = 10
	// DefaultPicks is how many titles a recommendation suggests.
	DefaultPicks = 3
)

// Options tune the assistant; zero values get the defaults.
type Options struct {
	Limit  int
	Picks  int
	Logger *slog.Logger
	// Now is the clock; the day it tells varies the suggestions among
	// equally good titles. nil means time.Now.
	Now func() time.Time
	// Roots lists the library folders with their disk names, so "on Disk
	// 2" is read as a disk and not as a title. nil: no disks are known.
	Roots func() []domain.Root
	// Watching is the per-person watching state (see the Watching port);
	// nil: suggestions come from the catalogue alone.
	Watching Watching
	// Semantic is semantic search (see the Semantic port); nil: none.
	Semantic Semantic
}

// Model is the offline assistant, a domain.AIModel. It ignores the system
// instruction (it has no language model to follow it) and reads the
// history only to say its disclaimer once and to tell what it has already
// suggested.
type Model struct {
	catalog Catalog
	opt     Options
}

// New returns the assistant over catalog (nil: no catalogue).
func New(catalog Catalog, opt Options) *Model {
	if opt.Limit <= 0 {
		opt.Limit = DefaultLimit
	}
	if opt.Picks <= 0 {
		opt.Picks = DefaultPicks
	}
	if opt.Logger == nil {
		opt.Logger = slog.New(slog.DiscardHandler)
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.Roots == nil {
		opt.Roots = func() []domain.Root { return nil }
	}
	return &Model{catalog: catalog, opt: opt}
}

// Name is "offline", what the chat reports as its model.
func (m *Model) Name() string { return "offline" }

// Generate answers p.Message from the catalogue. It fails only when ctx is
// done; a catalogue error becomes a sentence saying the search failed.
func (m *Model) Generate(ctx context.Context, p domain.Prompt) (string, error) {
	lines, err := m.answer(ctx, p)
	if err != nil {
		return "", err
	}
	return strings.Join(lines, "\n"), nil
}

// Stream emits the same answer as Generate, one line at a time.
func (m *Model) Stream(ctx context.Context, p domain.Prompt, emit func(chunk string) error) error {
	lines, err := m.answer(ctx, p)
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

// answer is the reply's lines: what the question asks, then, in the first
// answer of a conversation only, the sentence saying that no AI model is
// configured.
func (m *Model) answer(ctx context.Context, p domain.Prompt) ([]string, error) {
	q := m.read(ctx, p)
	lines, err := m.reply(ctx, q)
	switch {
	case ctx.Err() != nil:
		return nil, domain.ErrAIUnavailable.Wrap(ctx.Err())
	case err != nil:
		m.opt.Logger.WarnContext(ctx, "offline assistant: catalogue read failed", "err", err)
		lines = []string{catalogFailed.In(q.lang)}
	}
	if !answeredBefore(p.History) {
		lines = append(lines, noModel.In(q.lang))
	}
	return lines, nil
}

// answeredBefore reports whether the history holds an earlier answer of
// the assistant: the disclaimer was said in it.
func answeredBefore(history []domain.ChatTurn) bool {
	for _, t := range history {
		if t.Role == domain.TurnModel || t.Role == domain.TurnAssistant {
			return true
		}
	}
	return false
}

// reply answers what q asks.
func (m *Model) reply(ctx context.Context, q question) ([]string, error) {
	if q.intent.smallTalk() {
		return smallTalk(q), nil
	}
	if m.catalog == nil {
		return []string{noCatalogue(q)}, nil
	}
	switch q.intent {
	case intentSubtitles:
		return m.subtitles(ctx, q)
	case intentCount:
		return m.count(ctx, q)
	case intentRecommend, intentList:
		return m.suggest(ctx, q)
	}
	return m.search(ctx, q)
}
