package rag

import (
	"runtime"
	"slices"
	"sync"
	"time"

	"mediateka/domain"
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
// identity in one flat slice, read without locks by searches; a build
// makes a new one and swaps it in whole, so a search never waits for a
// build and never sees half of one.
type index struct {
	id      identity
	ids     []int64
	kinds   []kind
	hashes  []string
	vecs    []float32 // len(ids) * id.dims
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

// newIndex packs entries (in any order) into an index.
func newIndex(id identity, entries []entry, at time.Time) *index {
	slices.SortFunc(entries, func(a, b entry) int { return int(a.id - b.id) })
	ix := &index{id: id, ids: make([]int64, len(entries)), kinds: make([]kind, len(entries)),
		hashes: make([]string, len(entries)), vecs: make([]float32, 0, len(entries)*id.dims),
		pos: make(map[int64]int, len(entries)), builtAt: at}
	for i, e := range entries {
		ix.ids[i], ix.kinds[i], ix.hashes[i], ix.pos[e.id] = e.id, e.kind, e.hash, i
		ix.vecs = append(ix.vecs, e.vec...)
	}
	return ix
}

// vector is the stored vector of entry i.
func (ix *index) vector(i int) []float32 {
	d := ix.id.dims
	return ix.vecs[i*d : (i+1)*d]
}

// hit is one scored entry of a search.
type hit struct {
	id    int64
	score float32
}

// parallelFrom is the index size from which a search is split across the
// cores: below it the goroutines cost more than they save.
const parallelFrom = 20_000

// search scores every entry of kind want (kindOther: any) against q, a
// unit vector like the stored ones, so the dot product is the cosine, and
// returns the k best with a positive score, best first. A large index is
// scored in one part per core, and the parts' best are merged.
func (ix *index) search(q []float32, want kind, k int) []hit {
	if len(q) != ix.id.dims || k <= 0 {
		return nil
	}
	parts := 1
	if len(ix.ids) >= parallelFrom {
		parts = runtime.GOMAXPROCS(0)
	}
	tops := make([][]hit, parts)
	var wg sync.WaitGroup
	step := (len(ix.ids) + parts - 1) / parts
	for p := range parts {
		from, to := p*step, min((p+1)*step, len(ix.ids))
		wg.Go(func() { tops[p] = ix.scan(q, want, k, from, to) })
	}
	wg.Wait()
	var top []hit
	for _, t := range tops {
		for _, h := range t {
			top = insertHit(top, h, k)
		}
	}
	return top
}

// scan keeps the k best of entries [from, to).
func (ix *index) scan(q []float32, want kind, k, from, to int) []hit {
	d := ix.id.dims
	top := make([]hit, 0, k+1)
	for i := from; i < to; i++ {
		if want != kindOther && ix.kinds[i] != want {
			continue
		}
		s := dot(q, ix.vecs[i*d:(i+1)*d])
		if s <= 0 || (len(top) == k && s <= top[k-1].score) {
			continue
		}
		top = insertHit(top, hit{id: ix.ids[i], score: s}, k)
	}
	return top
}

// insertHit puts h into top (best first, at most k), ties keeping the
// earlier entry first.
func insertHit(top []hit, h hit, k int) []hit {
	at, _ := slices.BinarySearchFunc(top, h.score, func(x hit, s float32) int {
		if x.score >= s {
			return -1
		}
		return 1
	})
	if at >= k {
		return top
	}
	top = slices.Insert(top, at, h)
	return top[:min(len(top), k)]
}

// dot is the dot product of two vectors of equal length, four lanes at a
// time so the compiler keeps the sums in registers.
func dot(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return s0 + s1 + s2 + s3
}
