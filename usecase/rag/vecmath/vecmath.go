// Package vecmath is the arithmetic of semantic search over unit vectors:
// the dot product (the cosine, for L2-normalised vectors) and the top k of
// a flat matrix of vectors, spread over the processors. It knows nothing
// of embedders or records, so every index of vectors can use it.
package vecmath

import (
	"cmp"
	"slices"
	"sync"
)

// Dot is the dot product of a and b (of equal length), unrolled by four
// with four partial sums; a and b of other lengths use the shorter.
func Dot(a, b []float32) float32 {
	n := min(len(a), len(b))
	a, b = a[:n], b[:n]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= n; i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < n; i++ {
		s0 += a[i] * b[i]
	}
	return s0 + s1 + s2 + s3
}

// Hit is one row of a search: its index in the matrix and its score.
type Hit struct {
	Row   int
	Score float32
}

// TopK returns the k rows of matrix (rows of len(q) float32s, back to back)
// with the highest dot product with q, best first, ties by row. keep, when
// not nil, says which rows may be returned (a type filter). The rows are
// split over workers goroutines (1 or less: the caller's only).
func TopK(matrix, q []float32, k, workers int, keep func(row int) bool) []Hit {
	dim := len(q)
	if dim == 0 || k <= 0 {
		return nil
	}
	rows := len(matrix) / dim
	workers = max(1, min(workers, rows/1024+1))
	parts := make([][]Hit, workers)
	var wg sync.WaitGroup
	for w := range workers {
		from, to := rows*w/workers, rows*(w+1)/workers
		wg.Go(func() { parts[w] = topRange(matrix, q, from, to, k, keep) })
	}
	wg.Wait()
	return merge(parts, k)
}

// merge sorts the hits of the parts best first and keeps k.
func merge(parts [][]Hit, k int) []Hit {
	all := slices.Concat(parts...)
	slices.SortFunc(all, better)
	return all[:min(k, len(all))]
}

// push offers hit to the min-heap h of at most k hits.
func push(h []Hit, k int, hit Hit) []Hit {
	switch {
	case len(h) < k:
		h = append(h, hit)
		up(h, len(h)-1)
	case better(hit, h[0]) < 0:
		h[0] = hit
		down(h, 0)
	}
	return h
}

// topRange is TopK over rows from…to-1 on the calling goroutine: a small
// min-heap of the best k seen.
func topRange(matrix, q []float32, from, to, k int, keep func(int) bool) []Hit {
	dim := len(q)
	h := make([]Hit, 0, k)
	for r := from; r < to; r++ {
		if keep != nil && !keep(r) {
			continue
		}
		h = push(h, k, Hit{r, Dot(q, matrix[r*dim:(r+1)*dim])})
	}
	return h
}

// better orders hits best first, ties by row.
func better(a, b Hit) int { return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(a.Row, b.Row)) }

// worse is the heap's order: the root is the worst hit kept.
func worse(a, b Hit) bool { return better(a, b) > 0 }

func up(h []Hit, i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !worse(h[i], h[p]) {
			return
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
}

func down(h []Hit, i int) {
	for {
		l, m := 2*i+1, i
		if l < len(h) && worse(h[l], h[m]) {
			m = l
		}
		if l+1 < len(h) && worse(h[l+1], h[m]) {
			m = l + 1
		}
		if m == i {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}
