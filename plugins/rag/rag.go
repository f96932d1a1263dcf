// Package rag is the rag plugin (registry slot 4): it answers
// recommendation-style messages ("посоветуй что-нибудь про космос",
// "что посмотреть вроде Интерстеллара", "find me something like Alien",
// "something for kids") with the catalogue entries semantic search finds
// closest, each with its year and one line on why; with an AI model
// configured, a short answer grounded in those entries comes first, and
// anything it names outside them is dropped. Other messages, an index not
// built yet, and a search that finds nothing pass to the next plugin.
package rag

import (
	"context"
	"log/slog"

	"mediateka/domain"
	ragindex "mediateka/usecase/rag"
)

// Name is the plugin's name in the registry and in the admin API.
const Name = "rag"

// defaultMinScore is the least cosine similarity a match needs to be
// suggested: below it the words merely brush the query.
const defaultMinScore = 0.12

// picks is how many matches an answer names.
const picks = 5

// Searcher is semantic search over the catalogue.
type Searcher interface {
	Search(ctx context.Context, q ragindex.Query) ([]ragindex.Hit, error)
	// Built reports whether an index is loaded.
	Built() bool
}

// Deps are what the plugin uses. Without a Searcher it does not load. A
// nil Model (or the offline assistant) gives the plain list.
type Deps struct {
	Search Searcher
	Model  domain.AIModel
	Logger *slog.Logger
	// MinScore overrides defaultMinScore (tests).
	MinScore float64
}

// Plugin is the rag plugin.
type Plugin struct {
	domain.NoBackground
	d Deps
}

// New builds the plugin.
func New(d Deps) *Plugin {
	if d.Logger == nil {
		d.Logger = slog.New(slog.DiscardHandler)
	}
	if d.MinScore <= 0 {
		d.MinScore = defaultMinScore
	}
	if d.Model != nil && d.Model.Name() == "offline" {
		d.Model = nil // it cannot write a grounded answer; the list is the answer
	}
	return &Plugin{d: d}
}

// Name implements domain.Plugin.
func (p *Plugin) Name() string { return Name }

// Description implements domain.Plugin.
func (p *Plugin) Description() string {
	return "Suggests films and series from the library by meaning (semantic search): \"find me something like …\", \"посоветуй …\""
}

// Setup implements domain.Plugin: the plugin loads when semantic search
// is wired.
func (p *Plugin) Setup(context.Context) (bool, error) { return p.d.Search != nil, nil }

// Handle implements domain.Plugin.
func (p *Plugin) Handle(ctx context.Context, message string) (string, error) {
	query, ok := recommendation(message)
	if !ok || !p.d.Search.Built() {
		return "", nil
	}
	hits, err := p.d.Search.Search(ctx, ragindex.Query{Text: query, TopK: picks + 1})
	if err != nil {
		return "", err
	}
	hits = p.relevant(hits, query, message)
	if len(hits) == 0 {
		return "", nil
	}
	lang := answerLang(ctx, message)
	list := listAnswer(lang, hits)
	if p.d.Model == nil {
		return list, nil
	}
	grounded, err := p.grounded(ctx, message, lang, hits)
	if err != nil || grounded == "" {
		if err != nil {
			p.d.Logger.Warn("rag plugin: the model's grounded answer failed, answering with the list", "err", err.Error())
		}
		return list, nil
	}
	return grounded, nil
}

// relevant keeps the matches that score enough, leaving out the title the
// person compares with ("похожее на Матрицу" does not suggest The Matrix).
func (p *Plugin) relevant(hits []ragindex.Hit, query, message string) []ragindex.Hit {
	var out []ragindex.Hit
	for _, h := range hits {
		if h.Score < p.d.MinScore || isTheTitle(h.Media, query, message) {
			continue
		}
		out = append(out, h)
	}
	return out[:min(len(out), picks)]
}
