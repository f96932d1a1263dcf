package ragcorpus

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
)

// TestCorpusIsWhatTheIssueAsks: at least 300 records with titles, years,
// categories of the fixed list and plots; at least 40 queries, in both
// languages, whose relevant ids all exist.
func TestCorpusIsWhatTheIssueAsks(t *testing.T) {
	t.Parallel()
	corpus := Corpus()
	require.GreaterOrEqual(t, len(corpus), 300)
	ids := map[int64]bool{}
	for i, m := range corpus {
		assert.Equal(t, int64(i+1), m.ID)
		ids[m.ID] = true
		assert.NotEmpty(t, m.Title, m.ID)
		assert.NotEmpty(t, m.Plot, m.ID)
		require.NotNil(t, m.Year)
		assert.True(t, *m.Year >= 1900 && *m.Year <= 2030, m.ID)
		_, ok := domain.CategoryBySlug(m.MainCategory)
		assert.True(t, ok, "%d: category %q", m.ID, m.MainCategory)
		assert.True(t, domain.ValidMediaType(m.MediaType))
	}
	queries := Queries()
	require.GreaterOrEqual(t, len(queries), 40)
	langs := map[string]int{}
	for _, q := range queries {
		langs[q.Lang]++
		assert.NotEmpty(t, q.Relevant, q.Text)
		for _, id := range q.Relevant {
			assert.True(t, ids[id], "%s: %d", q.Text, id)
		}
	}
	assert.GreaterOrEqual(t, langs[domain.LangRussian], 20)
	assert.GreaterOrEqual(t, langs[domain.LangEnglish], 20)
	assert.Len(t, langs, 2)
}

// TestMeasureRecall: a search that returns the answers scores 1, one that
// returns nothing 0, and a query with more answers than k needs k of them.
func TestMeasureRecall(t *testing.T) {
	t.Parallel()
	qs := []Query{
		{Lang: "ru", Text: "a", Relevant: []int64{1, 2}},
		{Lang: "en", Text: "b", Relevant: []int64{1, 2, 3, 4, 5, 6, 7}},
	}
	perfect := map[string][]int64{"a": {2, 1, 9}, "b": {7, 6, 5, 4, 3}}
	r := MeasureRecall(qs, 5, func(q string) []int64 { return perfect[q] })
	assert.Equal(t, Recall{All: 1, RU: 1, EN: 1}, r)
	r = MeasureRecall(qs, 5, func(string) []int64 { return nil })
	assert.Equal(t, 0.0, r.All)
	assert.Len(t, r.Missed, 2)
	half := map[string][]int64{"a": {9, 8, 7, 6, 5, 1}, "b": {1, 9, 2, 8, 3}}
	r = MeasureRecall(qs, 5, func(q string) []int64 { return half[q] })
	assert.InDelta(t, 0.0, r.RU, 1e-9, "the answer at place 6 does not count")
	assert.InDelta(t, 0.6, r.EN, 1e-9)
	assert.InDelta(t, 0.3, r.All, 1e-9)
}
