package local

import (
	"cmp"
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/usecase/rag/ragcorpus"
)

// docText is the document text of a record for these tests: the titles
// and the year on the first line (the heading the embedder weighs up),
// then the other fields the index embeds, with the category named in both
// languages. The index builds its own; this one stands in for it here.
func docText(m domain.Media) string {
	head := []string{m.Title, m.TitleRu, m.TitleOrig}
	if m.Year != nil {
		head = append(head, strconv.Itoa(*m.Year))
	}
	body := []string{m.MediaType, m.Country, m.Plot}
	if c, ok := domain.CategoryBySlug(m.MainCategory); ok {
		body = append(body, c.NameRu, c.NameEn)
	}
	body = append(body, m.Genres...)
	body = append(body, m.Directors...)
	return strings.Join(head, ". ") + "\n" + strings.Join(body, ". ")
}

// index is a brute-force search over the embedded corpus.
type index struct {
	e    *Embedder
	ids  []int64
	vecs [][]float32
}

func newIndex(t testing.TB, e *Embedder, corpus []domain.Media) *index {
	texts := make([]string, len(corpus))
	ix := &index{e: e}
	for i, m := range corpus {
		texts[i] = docText(m)
		ix.ids = append(ix.ids, m.ID)
	}
	vecs, err := e.Embed(context.Background(), texts)
	require.NoError(t, err)
	ix.vecs = vecs
	return ix
}

// search returns the ids of the entries by cosine with the query, best
// first (ties by id).
func (ix *index) search(query string) []int64 {
	q := ix.e.Vector(query)
	type hit struct {
		id    int64
		score float32
	}
	hits := make([]hit, len(ix.vecs))
	for i, v := range ix.vecs {
		hits[i] = hit{ix.ids[i], dot(q, v)}
	}
	slices.SortFunc(hits, func(a, b hit) int { return cmp.Or(cmp.Compare(b.score, a.score), cmp.Compare(a.id, b.id)) })
	out := make([]int64, len(hits))
	for i, h := range hits {
		out[i] = h.id
	}
	return out
}

func dot(a, b []float32) float32 {
	var s float32
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// TestRetrievalRecall is the acceptance: recall@5 of at least 0.8
// on the written catalogue, in Russian and in English alike.
func TestRetrievalRecall(t *testing.T) {
	t.Parallel()
	ix := newIndex(t, New(), ragcorpus.Corpus())
	r := ragcorpus.MeasureRecall(ragcorpus.Queries(), 5, ix.search)
	t.Logf("recall@5 all %.3f ru %.3f en %.3f; below full: %q", r.All, r.RU, r.EN, r.Missed)
	assert.GreaterOrEqual(t, r.All, 0.8)
	assert.GreaterOrEqual(t, r.RU, 0.8)
	assert.GreaterOrEqual(t, r.EN, 0.8)
}

// TestRetrievalByDimension logs recall@5 at other dimensions, the numbers
// behind the choice of Dimensions (docs/PERFORMANCE.md).
func TestRetrievalByDimension(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("measurement")
	}
	corpus, queries := ragcorpus.Corpus(), ragcorpus.Queries()
	for _, dim := range []int{128, 256, 512, 1024, 4096} {
		r := ragcorpus.MeasureRecall(queries, 5, newIndex(t, newWithDim(dim), corpus).search)
		t.Logf("dim %4d: recall@5 all %.3f ru %.3f en %.3f", dim, r.All, r.RU, r.EN)
	}
}
