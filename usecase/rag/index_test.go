package rag

import (
	"cmp"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bruteForce is the k best positive scores of entries of kind want, by
// plain loop and full sort: what every layout must answer.
func bruteForce(ix *index, q []float32, want kind, k int) []hit {
	var all []hit
	for i, id := range ix.ids {
		if want != kindOther && ix.kinds[i] != want {
			continue
		}
		var s float32
		for d, x := range ix.vector(i) {
			s += x * q[d]
		}
		if s > 0 {
			all = append(all, hit{id, s})
		}
	}
	slices.SortStableFunc(all, func(a, b hit) int { return cmp.Compare(b.score, a.score) })
	return all[:min(k, len(all))]
}

func assertSameHits(t *testing.T, want, got []hit) {
	t.Helper()
	require.Len(t, got, len(want))
	for i := range want {
		assert.Equal(t, want[i].id, got[i].id, "rank %d", i)
		assert.InDelta(t, want[i].score, got[i].score, 1e-5, "rank %d", i)
	}
}

func TestDenseVectorsAreSearchedRowByRow(t *testing.T) {
	ix, q := benchIndex(5000, 64)
	require.Nil(t, ix.cols, "random vectors have no zeros")
	for i := range ix.kinds {
		if i%3 == 0 {
			ix.kinds[i] = kindSeries
		}
	}
	for _, want := range []kind{kindOther, kindSeries} {
		got := ix.search(q, want, 20)
		assert.Len(t, got, 20)
		assertSameHits(t, bruteForce(ix, q, want, 20), got)
	}
}

func TestSparseVectorsAreSearchedByColumn(t *testing.T) {
	dense, q := benchIndex(5000, 64)
	entries := make([]entry, len(dense.ids))
	for i, id := range dense.ids {
		v := dense.vector(i)
		for d := range v {
			if (d+i)%4 != 0 { // three in four values zero
				v[d] = 0
			}
		}
		k := kindMovie
		if i%3 == 0 {
			k = kindSeries
		}
		entries[i] = entry{id: id, kind: k, vec: v}
	}
	ix := newIndex(identity{name: "sparse", dims: 64}, entries, time.Time{})
	require.NotNil(t, ix.cols)
	for _, want := range []kind{kindOther, kindSeries} {
		got := ix.search(q, want, 20)
		assert.Len(t, got, 20)
		assertSameHits(t, bruteForce(ix, q, want, 20), got)
	}
	assert.Empty(t, ix.search(make([]float32, 64), kindOther, 5), "a zero query scores nothing")
}
