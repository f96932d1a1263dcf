package rag_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/repository/sqlstore/sqlstoretest"
	"mediateka/usecase/rag"
	"mediateka/usecase/rag/local"
	"mediateka/usecase/rag/ragcorpus"
)

// TestRetrievalThroughTheIndex is the acceptance end to end: the
// written catalogue stored in SQLite, built with the default (local)
// embedder from the index's own documents, and searched through Search
// finds the right films, recall@5 at least 0.8 in Russian and in English.
func TestRetrievalThroughTheIndex(t *testing.T) {
	t.Parallel()
	db := sqlstoretest.New(t, nil)
	corpusID := map[int64]int64{} // stored id → the corpus's id
	for _, m := range ragcorpus.Corpus() {
		want := m.ID
		m.ID, m.DiskName, m.Status = 0, "Disk", domain.StatusOK
		m.Path = fmt.Sprintf("/library/%d %s", want, m.Title)
		corpusID[db.Put(m).ID] = want
	}
	svc := rag.New(db.Media, db.Vectors, local.New(), rag.Options{})
	ctx := context.Background()
	st, err := svc.Run(ctx, nil)
	require.NoError(t, err)
	require.Equal(t, domain.JobCompleted, st.State, st.Failure)
	require.Equal(t, len(corpusID), st.Indexed)

	search := func(q string) []int64 {
		hits, err := svc.Search(ctx, rag.Query{Text: q})
		require.NoError(t, err)
		ids := make([]int64, len(hits))
		for i, h := range hits {
			ids[i] = corpusID[h.Media.ID]
		}
		return ids
	}
	r := ragcorpus.MeasureRecall(ragcorpus.Queries(), 5, search)
	t.Logf("recall@5 all %.3f ru %.3f en %.3f; below full: %q", r.All, r.RU, r.EN, r.Missed)
	assert.GreaterOrEqual(t, r.All, 0.8)
	assert.GreaterOrEqual(t, r.RU, 0.8)
	assert.GreaterOrEqual(t, r.EN, 0.8)
}
