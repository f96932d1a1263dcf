package offline

import (
	"context"
	"fmt"
	"strings"

	"mediateka/domain"
	"mediateka/usecase/rag"
	"mediateka/usecase/textmatch"
)

// Semantic is semantic search over the catalogue (usecase/rag), the same
// search as POST /api/media/search and the rag plugin. With it, a
// suggestion whose words name no title and no genre ("посоветуй что-нибудь
// про бурю в пустыне") is answered by meaning once the index is built;
// without it (nil) or before a build, the assistant says it found no such
// title or genre and suggests from the rest of the scope.
type Semantic interface {
	Built() bool
	Search(ctx context.Context, q rag.Query) ([]rag.Hit, error)
}

// semanticMinScore is the least similarity a semantic match needs to be
// suggested.
const semanticMinScore = 0.12

var byMeaning = textmatch.Phrase{RU: "По смыслу «%s» в каталоге нашлось:", EN: "Found in the catalogue for “%s” by meaning:"}

// bySemantics suggests from semantic search for the suggestion's words,
// leaving out what the conversation named and what the caller finished;
// ok is false when there is no index or nothing scores.
func (m *Model) bySemantics(ctx context.Context, sg *suggestion) (lines []string, ok bool, err error) {
	sem := m.opt.Semantic
	if sem == nil || !sem.Built() || len(sg.s.title) == 0 {
		return nil, false, nil
	}
	words := strings.Join(sg.s.title, " ")
	q := rag.Query{Text: words, TopK: 20}
	if len(sg.units) == 1 {
		q.Type = unitType(sg.units[0])
	}
	hits, err := sem.Search(ctx, q)
	if err != nil {
		return nil, false, fmt.Errorf("semantic search: %w", err)
	}
	said := saidBefore(sg.q.history)
	var pool []candidate
	for _, h := range hits {
		if h.Score >= semanticMinScore && h.Media.Status != domain.StatusMissing && !said(h.Media) {
			pool = append(pool, candidate{media: h.Media, score: h.Score})
		}
	}
	if pool, err = m.applyWatching(ctx, sg.q.caller, pool); err != nil || len(pool) == 0 {
		return nil, false, err
	}
	lines = []string{fmt.Sprintf(byMeaning.In(sg.q.lang), words)}
	for _, c := range choose(pool, m.opt.Picks) {
		lines = append(lines, "• "+why(c, sg.q.lang))
	}
	return lines, true, nil
}
