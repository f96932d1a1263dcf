package local

import (
	"context"
	"testing"

	"mediateka/usecase/rag/ragcorpus"
)

// BenchmarkEmbedRecords embeds the corpus's 310 documents per op through
// Embed (both processors); ns/record is the build's embedding cost.
func BenchmarkEmbedRecords(b *testing.B) {
	e := New()
	var texts []string
	for _, m := range ragcorpus.Corpus() {
		texts = append(texts, docText(m))
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := e.Embed(context.Background(), texts); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(texts)), "ns/record")
}

// BenchmarkEmbedQuery embeds one short query on the caller's goroutine
// and reports how many of its dimensions are not zero (what a column-wise
// search reads).
func BenchmarkEmbedQuery(b *testing.B) {
	e := New()
	const q = "что-нибудь про космос как Интерстеллар, но спокойнее"
	nz := 0
	for _, x := range e.Vector(q) {
		if x != 0 {
			nz++
		}
	}
	for b.Loop() {
		e.Vector(q)
	}
	b.ReportMetric(float64(nz), "nonzero")
}
