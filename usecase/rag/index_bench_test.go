package rag

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"mediateka/domain"
	"mediateka/repository/sqlstore/sqlstoretest"
	"mediateka/usecase/rag/local"
	"mediateka/usecase/rag/ragcorpus"
)

// BenchmarkSearch scores one query against 100 000 random (dense) unit
// vectors, as a remote embedder's, at two embedder sizes: the row-wise
// loop, the figure docs/PERFORMANCE.md reports.
func BenchmarkSearch(b *testing.B) {
	for _, dims := range []int{256, 1024} {
		ix, q := benchIndex(100_000, dims)
		b.Run(fmt.Sprintf("n=100000/dims=%d", dims), func(b *testing.B) {
			for b.Loop() {
				if len(ix.search(q, kindOther, 10)) != 10 {
					b.Fatal("short answer")
				}
			}
			b.ReportMetric(float64(ix.bytes())/(1<<20), "MiB")
		})
	}
}

// BenchmarkServiceSearchLocal is a whole Search through the Service over
// 100 000 records of a real SQLite catalogue with the local embedder:
// embedding the query, scoring the column-wise index, loading the hits.
// The records are the retrieval test's 310, each repeated with a number
// in its title; the index is made from the service's own documents (the
// vectors are not written to the store, which a search does not read).
func BenchmarkServiceSearchLocal(b *testing.B) {
	const n = 100_000
	ctx := context.Background()
	db := sqlstoretest.New(b, nil)
	corpus := ragcorpus.Corpus()
	for from := 0; from < n; from += 5000 {
		changes := make([]domain.MediaChange, 0, 5000)
		for i := from; i < from+5000; i++ {
			m := corpus[i%len(corpus)]
			m.ID, m.DiskName, m.Status = 0, "Disk", domain.StatusOK
			m.Title = fmt.Sprintf("%s %d", m.Title, i/len(corpus))
			m.Path = fmt.Sprintf("/library/%d", i)
			changes = append(changes, domain.MediaChange{Media: m})
		}
		if _, err := db.Media.ApplyScan(ctx, changes); err != nil {
			b.Fatal(err)
		}
	}
	emb := local.New()
	s := New(db.Media, db.Vectors, emb, Options{})
	cols := embeddedIndex(b, s, emb)
	rows := *cols // the same vectors row by row, what a dense embedder gets
	rows.cols, rows.rows = nil, make([]float32, 0, len(cols.ids)*cols.id.dims)
	for i := range cols.ids {
		rows.rows = append(rows.rows, cols.vector(i)...)
	}
	queries := ragcorpus.Queries()
	for _, ix := range []*index{cols, &rows} {
		s.index.Store(ix)
		b.Run(map[bool]string{true: "columns", false: "rows"}[ix.cols != nil], func(b *testing.B) {
			i := 0
			for b.Loop() {
				hits, err := s.Search(ctx, Query{Text: queries[i%len(queries)].Text, TopK: 10})
				if err != nil || len(hits) == 0 {
					b.Fatalf("%d hits, %v", len(hits), err)
				}
				i++
			}
			b.ReportMetric(float64(ix.bytes())/(1<<20), "MiB")
		})
	}
}

// embeddedIndex embeds the service's documents with emb into an index.
func embeddedIndex(b *testing.B, s *Service, emb domain.Embedder) *index {
	docs, err := documents(context.Background(), s.media)
	if err != nil {
		b.Fatal(err)
	}
	texts := make([]string, len(docs))
	for i, d := range docs {
		texts[i] = d.text
	}
	vecs, err := emb.Embed(context.Background(), texts)
	if err != nil {
		b.Fatal(err)
	}
	entries := make([]entry, len(docs))
	for i, d := range docs {
		entries[i] = entry{id: d.id, kind: d.kind, hash: d.hash, vec: vecs[i]}
	}
	ix := newIndex(identityOf(emb), entries, time.Time{})
	if ix.cols == nil {
		b.Fatal("the local embedder's vectors were not kept by column")
	}
	return ix
}

// benchIndex is n random unit vectors (a fixed seed) and a query.
func benchIndex(n, dims int) (*index, []float32) {
	r := rand.New(rand.NewPCG(1, 2))
	unit := func() []float32 {
		v := make([]float32, dims)
		var s float64
		for i := range v {
			v[i] = float32(r.NormFloat64())
			s += float64(v[i] * v[i])
		}
		for i := range v {
			v[i] /= float32(math.Sqrt(s))
		}
		return v
	}
	entries := make([]entry, n)
	for i := range entries {
		entries[i] = entry{id: int64(i + 1), kind: kindMovie, vec: unit()}
	}
	return newIndex(identity{name: "bench", dims: dims}, entries, time.Time{}), unit()
}
