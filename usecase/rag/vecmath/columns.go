package vecmath

import "sync"

// Columns keeps vectors of one dimension column by column: the values of
// dimension d of every row are back to back. A query from the local
// embedder is sparse (a few dozen non-zero dimensions of 1024), and a
// search then reads only those columns: 30 columns of 100 000 rows are
// 12 MB instead of the whole 400 MB matrix. A dense query costs what the
// row-wise loop costs. Not safe for concurrent use with Append or Set;
// the index guards it.
type Columns struct {
	dim, rows, capRows int
	data               []float32 // dim columns of capRows values
}

// NewColumns returns an empty store for vectors of dim values.
func NewColumns(dim int) *Columns { return &Columns{dim: dim} }

// Reserve makes room for rows rows in all, so a store filled to a known
// size holds no spare capacity (Append doubles it).
func (c *Columns) Reserve(rows int) {
	if rows > c.capRows {
		c.grow(rows)
	}
}

// Dim is the length of the vectors.
func (c *Columns) Dim() int { return c.dim }

// Len is the number of rows.
func (c *Columns) Len() int { return c.rows }

// Bytes is the memory the values hold, spare capacity included.
func (c *Columns) Bytes() int { return 4 * len(c.data) }

// Append adds v (dim values) as a new row and returns its index. Growth
// doubles the capacity, so a build of n rows copies O(n) values.
func (c *Columns) Append(v []float32) int {
	if c.rows == c.capRows {
		c.grow(max(1024, 2*c.capRows))
	}
	c.rows++
	c.Set(c.rows-1, v)
	return c.rows - 1
}

// Set overwrites row (re-embedded record) with v.
func (c *Columns) Set(row int, v []float32) {
	for d := range c.dim {
		c.data[d*c.capRows+row] = v[d]
	}
}

// Row returns a copy of one row.
func (c *Columns) Row(row int) []float32 {
	v := make([]float32, c.dim)
	for d := range c.dim {
		v[d] = c.data[d*c.capRows+row]
	}
	return v
}

func (c *Columns) grow(capRows int) {
	data := make([]float32, c.dim*capRows)
	for d := range c.dim {
		copy(data[d*capRows:d*capRows+c.rows], c.data[d*c.capRows:d*c.capRows+c.rows])
	}
	c.data, c.capRows = data, capRows
}

// TopK is the TopK of the package over the stored rows: the k rows with
// the highest dot product with q (dim values), best first, ties by row,
// only rows keep allows (nil: all), split over workers goroutines.
func (c *Columns) TopK(q []float32, k, workers int, keep func(row int) bool) []Hit {
	if len(q) != c.dim || k <= 0 || c.rows == 0 {
		return nil
	}
	var nz []int
	for d, x := range q {
		if x != 0 {
			nz = append(nz, d)
		}
	}
	workers = max(1, min(workers, c.rows/4096+1))
	parts := make([][]Hit, workers)
	var wg sync.WaitGroup
	for w := range workers {
		from, to := c.rows*w/workers, c.rows*(w+1)/workers
		wg.Go(func() { parts[w] = c.topRange(q, nz, from, to, k, keep) })
	}
	wg.Wait()
	return merge(parts, k)
}

// topRange scores rows from…to-1 column by column over the non-zero
// dimensions nz of q, then keeps the best k.
func (c *Columns) topRange(q []float32, nz []int, from, to, k int, keep func(int) bool) []Hit {
	scores := make([]float32, to-from)
	for _, d := range nz {
		axpy(scores, q[d], c.data[d*c.capRows+from:d*c.capRows+to])
	}
	h := make([]Hit, 0, k)
	for i, s := range scores {
		if keep != nil && !keep(from+i) {
			continue
		}
		h = push(h, k, Hit{from + i, s})
	}
	return h
}

// axpy adds a·x to y, unrolled by four.
func axpy(y []float32, a float32, x []float32) {
	x = x[:len(y)]
	i := 0
	for ; i+4 <= len(y); i += 4 {
		y[i] += a * x[i]
		y[i+1] += a * x[i+1]
		y[i+2] += a * x[i+2]
		y[i+3] += a * x[i+3]
	}
	for ; i < len(y); i++ {
		y[i] += a * x[i]
	}
}
