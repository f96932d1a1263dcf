package rag

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"mediateka/domain"
)

// Top-k bounds of a search.
const (
	DefaultTopK = 5
	MaxTopK     = 50
	// maxQueryChars bounds a query: longer text is not a question.
	maxQueryChars = 1000
)

// Query is one semantic search: Text, the TopK best (0 means
// DefaultTopK), of Type movie or series when set.
type Query struct {
	Text string
	TopK int
	Type string
}

// Hit is one search result: the entry and its cosine similarity to the
// query (0–1).
type Hit struct {
	Score float64
	Media domain.Media
}

// Search embeds the query and returns the entries closest to it, best
// first, only those with a positive score. A blank query or a bad top_k
// or type is invalid input, no loaded index ErrNotBuilt. Every search is
// logged in search_history.
func (s *Service) Search(ctx context.Context, q Query) ([]Hit, error) {
	want, err := checkQuery(&q)
	if err != nil {
		return nil, err
	}
	ix := s.index.Load()
	if ix == nil || s.emb == nil {
		return nil, ErrNotBuilt
	}
	vecs, err := s.emb.Embed(ctx, []string{q.Text})
	if err != nil {
		return nil, fmt.Errorf("embed the query: %w", err)
	}
	if len(vecs) != 1 {
		return nil, fmt.Errorf("embed the query: %d vectors for one text", len(vecs))
	}
	if len(vecs[0]) != ix.id.dims {
		return nil, ErrMismatch
	}
	hits := ix.search(vecs[0], want, q.TopK)
	out, err := s.entries(ctx, hits)
	if err != nil {
		return nil, err
	}
	if s.opt.SearchLog != nil {
		s.opt.SearchLog.LogSearch(strings.ToValidUTF8(q.Text, "\uFFFD"), len(out))
	}
	return out, nil
}

// checkQuery validates q, fills the default top-k and returns the kind
// asked for.
func checkQuery(q *Query) (kind, error) {
	q.Text = strings.TrimSpace(q.Text)
	if q.Text == "" {
		return 0, domain.ErrInvalid("the query must not be empty", map[string]string{"query": "must not be empty"})
	}
	if utf8.RuneCountInString(q.Text) > maxQueryChars {
		return 0, domain.ErrInvalid("the query is too long", map[string]string{"query": "must be at most 1000 characters"})
	}
	if q.TopK == 0 {
		q.TopK = DefaultTopK
	}
	if q.TopK < 1 || q.TopK > MaxTopK {
		return 0, domain.ErrInvalid("top_k must be 1 to 50", map[string]string{"top_k": "must be 1 to 50"})
	}
	switch q.Type {
	case "":
		return kindOther, nil
	case domain.MediaMovie, domain.MediaSeries:
		return kindOf(q.Type), nil
	}
	return 0, ErrType
}

// entries loads the hits' records, dropping any deleted since the index
// was built.
func (s *Service) entries(ctx context.Context, hits []hit) ([]Hit, error) {
	out := []Hit{}
	if len(hits) == 0 {
		return out, nil
	}
	ids := make([]int64, len(hits))
	for i, h := range hits {
		ids[i] = h.id
	}
	found, err := s.media.ByIDs(ctx, ids)
	if err != nil {
		return nil, fmt.Errorf("load the search results: %w", err)
	}
	byID := make(map[int64]domain.Media, len(found))
	for _, m := range found {
		byID[m.ID] = m
	}
	for _, h := range hits {
		if m, ok := byID[h.id]; ok {
			out = append(out, Hit{Score: float64(h.score), Media: m})
		}
	}
	return out, nil
}
