package rag

import (
	"cmp"
	"runtime"
	"slices"
	"time"

	"mediateka/domain"
	"mediateka/usecase/rag/vecmath"
)

// kind is the type of an indexed entry, kept as a byte so the type filter
// costs nothing in the scoring loop.
type kind uint8

const (
	kindOther kind = iota
	kindMovie
	kindSeries
)

func kindOf(t string) kind {
	switch t {
	case domain.MediaMovie:
		return kindMovie
	case domain.MediaSeries:
		return kindSeries
	}
	return kindOther
}

// identity names what made a set of vectors: vectors of two identities
// are not comparable.
type identity struct {
	name, model string
	dims        int
}

// matches reports whether vectors of stored were made by the embedder of
// id; a remote embedder's dimensions are unknown (0) until its first
// answer, and then only name and model count.
func (id identity) matches(stored identity) bool {
	return id.name == stored.name && id.model == stored.model && (id.dims == 0 || id.dims == stored.dims)
}

func identityOf(e domain.Embedder) identity {
	return identity{name: e.Name(), model: e.Model(), dims: e.Dimensions()}
}

// index is the loaded semantic-search index: every vector of one
// identity, read without locks by searches; a build makes a new one and
// swaps it in whole, so a search never waits for a build and never sees
// half of one. Sparse vectors (the local embedder's: a query has a few
// dozen non-zero dimensions of 1024) are kept column by column, so a
// search reads only the query's columns; dense ones (a remote
// provider's) row by row in one flat slice.
type index struct {
	id      identity
	ids     []int64
	kinds   []kind
	hashes  []string
	rows    []float32        // dense: len(ids) * id.dims, row by row
	cols    *vecmath.Columns // sparse: the same, column by column
	pos     map[int64]int
	builtAt time.Time
}

// entry is one vector as a build assembles the next index.
type entry struct {
	id   int64
	kind kind
	hash string
	vec  []float32
}

// newIndex packs entries (in any order) into an index, column by column
// when they are sparse.
func newIndex(id identity, entries []entry, at time.Time) *index {
	slices.SortFunc(entries, func(a, b entry) int { return cmp.Compare(a.id, b.id) })
	ix := &index{id: id, ids: make([]int64, len(entries)), kinds: make([]kind, len(entries)),
		hashes: make([]string, len(entries)), pos: make(map[int64]int, len(entries)), builtAt: at}
	if sparse(entries) {
		ix.cols = vecmath.NewColumns(id.dims)
		ix.cols.Reserve(len(entries))
	} else {
		ix.rows = make([]float32, 0, len(entries)*id.dims)
	}
	for i, e := range entries {
		ix.ids[i], ix.kinds[i], ix.hashes[i], ix.pos[e.id] = e.id, e.kind, e.hash, i
		if ix.cols != nil {
			ix.cols.Append(e.vec)
		} else {
			ix.rows = append(ix.rows, e.vec...)
		}
	}
	return ix
}

// sparse reports whether at least half of the entries' values are zero:
// the local embedder's documents have about one dimension in eight set
// (its queries fewer), a remote provider's none at zero.
func sparse(entries []entry) bool {
	zeros, all := 0, 0
	for _, e := range entries {
		for _, x := range e.vec {
			if x == 0 {
				zeros++
			}
		}
		all += len(e.vec)
	}
	return all > 0 && 2*zeros >= all
}

// vector is the stored vector of entry i (a copy when kept by column).
func (ix *index) vector(i int) []float32 {
	if ix.cols != nil {
		return ix.cols.Row(i)
	}
	d := ix.id.dims
	return ix.rows[i*d : (i+1)*d]
}

// bytes is the memory the vectors hold.
func (ix *index) bytes() int {
	if ix.cols != nil {
		return ix.cols.Bytes()
	}
	return 4 * len(ix.rows)
}

// hit is one scored entry of a search.
type hit struct {
	id    int64
	score float32
}

// search scores every entry of kind want (kindOther: any) against q, a
// unit vector like the stored ones, so the dot product is the cosine, and
// returns the k best with a positive score, best first, ties by id. The
// work is split over the cores.
func (ix *index) search(q []float32, want kind, k int) []hit {
	if len(q) != ix.id.dims || k <= 0 || len(ix.ids) == 0 {
		return nil
	}
	var keep func(int) bool
	if want != kindOther {
		keep = func(i int) bool { return ix.kinds[i] == want }
	}
	workers := runtime.GOMAXPROCS(0)
	var top []vecmath.Hit
	if ix.cols != nil {
		top = ix.cols.TopK(q, k, workers, keep)
	} else {
		top = vecmath.TopK(ix.rows, q, k, workers, keep)
	}
	out := make([]hit, 0, len(top))
	for _, h := range top {
		if h.Score > 0 {
			out = append(out, hit{id: ix.ids[h.Row], score: h.Score})
		}
	}
	return out
}
