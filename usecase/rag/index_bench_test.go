package rag

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// BenchmarkSearch scores one query against 100 000 unit vectors, the
// figure docs/PERFORMANCE.md reports, at two embedder sizes.
func BenchmarkSearch(b *testing.B) {
	for _, dims := range []int{256, 1024} {
		ix, q := benchIndex(100_000, dims)
		b.Run(fmt.Sprintf("n=100000/dims=%d", dims), func(b *testing.B) {
			b.ReportMetric(float64(len(ix.vecs)*4)/(1<<20), "MiB")
			for b.Loop() {
				if len(ix.search(q, kindOther, 10)) != 10 {
					b.Fatal("short answer")
				}
			}
		})
	}
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
