package catalog

import (
	"slices"
	"sort"
)

// mark is what one search knows of one entry.
type mark struct {
	mask uint16 // the query words it matched in the running word pass
	kind score  // the worst score of those words
	best score  // its best score so far + 1; 0: no match yet
}

// scratch is the per-search state: a mark per entry and the entries
// touched, so clearing costs what the search found, not the catalogue.
// Searches take one from the index's pool, so a search allocates almost
// nothing however many entries it looks at.
type scratch struct {
	marks   []mark
	touched []int32
}

func (ix *titleIndex) getScratch() *scratch {
	if sc, ok := ix.scratch.Get().(*scratch); ok {
		return sc
	}
	return &scratch{marks: make([]mark, len(ix.entries))}
}

func (ix *titleIndex) putScratch(sc *scratch) {
	for _, e := range sc.touched {
		sc.marks[e] = mark{}
	}
	sc.touched = sc.touched[:0]
	ix.scratch.Put(sc)
}

// better records that entry e matches at score s, if that is its best.
func (sc *scratch) better(e int32, s score) {
	m := &sc.marks[e]
	if *m == (mark{}) {
		sc.touched = append(sc.touched, e)
	}
	if m.best == 0 || s+1 < m.best {
		m.best = s + 1
	}
}

// mark records that entry e has the word of bit at score s, provided it
// has every word of need and not this one yet; it reports whether it did.
func (sc *scratch) mark(e int32, bit, need uint16, s score) bool {
	m := &sc.marks[e]
	if m.mask != need {
		return false
	}
	if *m == (mark{}) {
		sc.touched = append(sc.touched, e)
	}
	m.mask |= bit
	m.kind = max(m.kind, s)
	return true
}

// settle ends a word pass: an entry with every word (full) matches at its
// worst word's grade, one with all but the year (yearBit) at gradeNoYear
// plus that; the pass's marks are cleared and entries that did not match
// leave the touched list.
func (sc *scratch) settle(full, yearBit uint16) {
	keep := sc.touched[:0]
	for _, e := range sc.touched {
		m := &sc.marks[e]
		switch {
		case m.mask == full:
			sc.better(e, m.kind)
		case yearBit != 0 && m.mask == full&^yearBit:
			sc.better(e, scoreOf(gradeNoYear+m.kind.grade()-gradeWords, m.kind&1 != 0))
		}
		m.mask, m.kind = 0, 0
		if m.best != 0 {
			keep = append(keep, e)
		}
	}
	sc.touched = keep
}

// rank counts the matching entries want keeps (nil: all) and returns the
// best keep of their ids, best first: by grade; for the fuzzy grades
// then whole words before words only begun (score), then by how few
// words the entry's shortest title has beyond the query's; then works
// (movies, series) before seasons and episodes, newer first, lower id
// first (indexEntry.order).
func (ix *titleIndex) rank(sc *scratch, q query, want func(*indexEntry) bool, keep int) (int, []int64) {
	words := 0 // the query's words that are not years
	for _, w := range q.words {
		if w.year == 0 {
			words++
		}
	}
	best := make([]uint64, 0, keep+1)
	total := 0
	for _, i := range sc.touched {
		e := &ix.entries[i]
		if want != nil && !want(e) {
			continue
		}
		total++
		s := sc.marks[i].best - 1
		extra := 0
		if s.grade() >= gradeWords {
			extra = min(max(int(e.words)-words, 0), 15)
		}
		key := uint64(s)<<40 | uint64(extra)<<32 | uint64(e.order)
		if len(best) == keep && key >= best[keep-1] {
			continue
		}
		at := sort.Search(len(best), func(j int) bool { return best[j] > key })
		best = slices.Insert(best, at, key)
		best = best[:min(len(best), keep)]
	}
	ids := make([]int64, len(best))
	for j, key := range best {
		ids[j] = ix.entries[ix.byOrder[uint32(key)]].id
	}
	return total, ids
}

// matching returns the ids of every matching entry want keeps (nil:
// all), in id order.
func (ix *titleIndex) matching(sc *scratch, want func(*indexEntry) bool) []int64 {
	found := make([]int32, 0, len(sc.touched))
	for _, i := range sc.touched {
		if want == nil || want(&ix.entries[i]) {
			found = append(found, i)
		}
	}
	slices.Sort(found) // entries are in id order
	ids := make([]int64, len(found))
	for j, i := range found {
		ids[j] = ix.entries[i].id
	}
	return ids
}

// search returns how many entries match raw (of type typ, when set) and
// the best keep of them, best first (see rank).
func (ix *titleIndex) search(raw, typ string, keep int) (total int, ids []int64) {
	want := ix.typeFilter(typ)
	ix.find(raw, func(sc *scratch, q query) { total, ids = ix.rank(sc, q, want, keep) })
	return total, ids
}

// typeFilter keeps entries of type typ; "" keeps all.
func (ix *titleIndex) typeFilter(typ string) func(*indexEntry) bool {
	if typ == "" {
		return nil
	}
	id, ok := ix.name(typ)
	return func(e *indexEntry) bool { return ok && e.typ == id }
}
