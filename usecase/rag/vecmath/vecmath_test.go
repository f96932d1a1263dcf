package vecmath

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// randomUnit returns rows random unit vectors of dim, back to back, from a
// fixed seed.
func randomUnit(rows, dim int, seed uint64) []float32 {
	r := rand.New(rand.NewPCG(seed, seed))
	m := make([]float32, rows*dim)
	for i := range rows {
		v := m[i*dim : (i+1)*dim]
		var s float64
		for j := range v {
			v[j] = float32(r.NormFloat64())
			s += float64(v[j]) * float64(v[j])
		}
		for j := range v {
			v[j] = float32(float64(v[j]) / math.Sqrt(s))
		}
	}
	return m
}

// plainTopK is the plain loop: every row's dot product, all sorted.
func plainTopK(matrix, q []float32, k int) []Hit {
	dim := len(q)
	hits := make([]Hit, 0, len(matrix)/dim)
	for r := 0; r*dim < len(matrix); r++ {
		var s float32
		for j, x := range q {
			s += x * matrix[r*dim+j]
		}
		hits = append(hits, Hit{r, s})
	}
	slices.SortFunc(hits, better)
	return hits[:min(k, len(hits))]
}

func TestTopKMatchesThePlainLoop(t *testing.T) {
	t.Parallel()
	const dim = 64
	m := randomUnit(5000, dim, 1)
	q := randomUnit(1, dim, 2)
	want := plainTopK(m, q, 10)
	for _, workers := range []int{1, 2, 7} {
		got := TopK(m, q, 10, workers, nil)
		require.Len(t, got, 10)
		for i := range want {
			assert.Equal(t, want[i].Row, got[i].Row, "workers %d, place %d", workers, i)
			assert.InDelta(t, want[i].Score, got[i].Score, 1e-5)
		}
	}
}

func TestTopKKeepsOnlyWhatItIsTold(t *testing.T) {
	t.Parallel()
	const dim = 16
	m := randomUnit(3000, dim, 3)
	got := TopK(m, m[:dim], 5, 2, func(r int) bool { return r%2 == 1 })
	require.Len(t, got, 5)
	for _, h := range got {
		assert.Equal(t, 1, h.Row%2)
	}
	self := TopK(m, m[:dim], 1, 2, nil)
	assert.Equal(t, 0, self[0].Row, "a vector is nearest to itself")
	assert.Len(t, TopK(m[:3*dim], m[:dim], 10, 2, nil), 3, "fewer rows than k")
	assert.Empty(t, TopK(m, nil, 5, 2, nil))
	assert.Empty(t, TopK(m, m[:dim], 0, 2, nil))
}

func TestTopKBreaksTiesByRow(t *testing.T) {
	t.Parallel()
	m := []float32{1, 0, 0, 1, 1, 0, 1, 0}
	got := TopK(m, []float32{1, 0}, 3, 1, nil)
	assert.Equal(t, []Hit{{0, 1}, {2, 1}, {3, 1}}, got)
}

func TestDot(t *testing.T) {
	t.Parallel()
	assert.Equal(t, float32(1*4+2*5+3*6+4*7+5*8), Dot([]float32{1, 2, 3, 4, 5}, []float32{4, 5, 6, 7, 8}))
	assert.Equal(t, float32(0), Dot(nil, []float32{1}))
}

// The search benchmarks: one query over 100 000 unit vectors of the local
// embedder's dimension (1024) and of half of it, top 10.
func benchTopK(b *testing.B, dim int, search func(m, q []float32) []Hit) {
	m := randomUnit(100_000, dim, 4)
	q := randomUnit(1, dim, 5)
	b.ResetTimer()
	for b.Loop() {
		if len(search(m, q)) != 10 {
			b.Fatal("short result")
		}
	}
}

func BenchmarkPlainLoop1024(b *testing.B) {
	benchTopK(b, 1024, func(m, q []float32) []Hit { return plainTopK(m, q, 10) })
}

func BenchmarkTopK1024Workers1(b *testing.B) {
	benchTopK(b, 1024, func(m, q []float32) []Hit { return TopK(m, q, 10, 1, nil) })
}

func BenchmarkTopK1024Workers2(b *testing.B) {
	benchTopK(b, 1024, func(m, q []float32) []Hit { return TopK(m, q, 10, 2, nil) })
}

func BenchmarkPlainLoop512(b *testing.B) {
	benchTopK(b, 512, func(m, q []float32) []Hit { return plainTopK(m, q, 10) })
}

func BenchmarkTopK512Workers2(b *testing.B) {
	benchTopK(b, 512, func(m, q []float32) []Hit { return TopK(m, q, 10, 2, nil) })
}

// sparseQuery is a unit vector of dim with n non-zero values, like a
// short query of the local embedder.
func sparseQuery(dim, n int, seed uint64) []float32 {
	r := rand.New(rand.NewPCG(seed, seed))
	q := make([]float32, dim)
	for range n {
		q[r.IntN(dim)] = float32(r.NormFloat64())
	}
	var s float64
	for _, x := range q {
		s += float64(x) * float64(x)
	}
	for i := range q {
		q[i] = float32(float64(q[i]) / math.Sqrt(s))
	}
	return q
}

func columnsOf(m []float32, dim int) *Columns {
	c := NewColumns(dim)
	for r := 0; r*dim < len(m); r++ {
		c.Append(m[r*dim : (r+1)*dim])
	}
	return c
}

func TestColumnsMatchThePlainLoop(t *testing.T) {
	t.Parallel()
	const dim = 64
	m := randomUnit(5000, dim, 6)
	c := columnsOf(m, dim)
	require.Equal(t, 5000, c.Len())
	assert.Equal(t, m[7*dim:8*dim], c.Row(7))
	for _, q := range [][]float32{randomUnit(1, dim, 7), sparseQuery(dim, 5, 8)} {
		want := plainTopK(m, q, 10)
		for _, workers := range []int{1, 2} {
			got := c.TopK(q, 10, workers, nil)
			require.Len(t, got, 10)
			for i := range want {
				assert.Equal(t, want[i].Row, got[i].Row)
				assert.InDelta(t, want[i].Score, got[i].Score, 1e-5)
			}
		}
	}
	c.Set(3, m[:dim])
	assert.ElementsMatch(t, []int{0, 3}, []int{c.TopK(m[:dim], 2, 2, nil)[0].Row, c.TopK(m[:dim], 2, 2, nil)[1].Row}, "a row set to another's vector ties with it")
	assert.Empty(t, c.TopK(m[:dim], 3, 2, func(int) bool { return false }))
	assert.Empty(t, NewColumns(dim).TopK(m[:dim], 3, 2, nil))
}

func benchColumns(b *testing.B, dim, nonZero, workers int) {
	c := columnsOf(randomUnit(100_000, dim, 4), dim)
	q := sparseQuery(dim, nonZero, 9)
	if nonZero >= dim {
		q = randomUnit(1, dim, 5)
	}
	b.ReportMetric(float64(c.Bytes())/(1<<20), "MiB")
	b.ResetTimer()
	for b.Loop() {
		if len(c.TopK(q, 10, workers, nil)) != 10 {
			b.Fatal("short result")
		}
	}
}

func BenchmarkColumns1024Sparse30Workers1(b *testing.B)  { benchColumns(b, 1024, 30, 1) }
func BenchmarkColumns1024Sparse30Workers2(b *testing.B)  { benchColumns(b, 1024, 30, 2) }
func BenchmarkColumns1024Sparse100Workers2(b *testing.B) { benchColumns(b, 1024, 100, 2) }
func BenchmarkColumns1024DenseWorkers2(b *testing.B)     { benchColumns(b, 1024, 1024, 2) }

func TestReserveHoldsNoSpareCapacity(t *testing.T) {
	c := NewColumns(4)
	c.Reserve(3)
	for i := range 3 {
		c.Append([]float32{float32(i), 1, 2, 3})
	}
	if c.Bytes() != 3*4*4 {
		t.Fatalf("%d bytes for 3 rows of 4", c.Bytes())
	}
	if got := c.Row(2); got[0] != 2 || got[3] != 3 {
		t.Fatalf("row 2 is %v", got)
	}
	c.Append([]float32{9, 9, 9, 9})
	if got := c.Row(3); got[0] != 9 || c.Len() != 4 {
		t.Fatalf("row 3 is %v of %d", got, c.Len())
	}
}
