package catalog

import (
	"context"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"mediateka/domain"
	"mediateka/usecase/textmatch"
)

// titleIndex is the in-memory index behind by-title. Every normalised title
// of every record sits in one string, each preceded by a NUL, so a query
// is one fast substring search over the whole catalogue (strings.Index
// runs at memory speed) instead of a comparison per record. Titles are
// stored packed (see packText) so Cyrillic letters are one byte each.
type titleIndex struct {
	version string       // the store's version the index was built from
	checked atomic.Int64 // unix nanoseconds of the last version check
	corpus  string
	starts  []int32 // where each title starts in corpus
	owner   []int32 // the entry each title belongs to
	entries []indexEntry
}

type indexEntry struct {
	id   int64
	year int32
	typ  string
}

// buildIndex reads the light view of every record into a new index.
func buildIndex(ctx context.Context, repo Repository, now time.Time) (*titleIndex, error) {
	version, err := repo.Version(ctx)
	if err != nil {
		return nil, err
	}
	ix := &titleIndex{version: version}
	ix.checked.Store(now.UnixNano())
	var b strings.Builder
	err = repo.Keys(ctx, func(k domain.MediaKey) error {
		n := int32(len(ix.entries))
		ix.entries = append(ix.entries, indexEntry{id: k.ID, year: int32(k.Year), typ: k.Type})
		// Every searchable field ranks alike (an exact title_orig is as
		// good as an exact title), so the index walks them all the same
		// way and keeps a repeated value once.
		for i, t := range k.Titles {
			if t == "" || slices.Contains(k.Titles[:i], t) {
				continue
			}
			b.WriteByte(0)
			ix.starts = append(ix.starts, int32(b.Len()))
			ix.owner = append(ix.owner, n)
			b.WriteString(packText(t))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	ix.corpus = b.String()
	return ix, nil
}

// hit is one record that matches, with the grade of its best title.
type hit struct {
	entry int32
	grade textmatch.Match
}

// search returns the number of records matching query (normalised) and
// the best `keep` of them, best first: exact > prefix > word > substring,
// then movies and series before seasons and episodes, then newer first,
// then lower id.
func (ix *titleIndex) search(query, typ string, keep int) (int, []int64) {
	q := packText(query)
	if q == "" {
		return 0, nil
	}
	var hits []hit
	cur := hit{entry: -1}
	for off := 0; off < len(ix.corpus); {
		i := strings.Index(ix.corpus[off:], q)
		if i < 0 {
			break
		}
		seg := sort.Search(len(ix.starts), func(s int) bool { return int(ix.starts[s]) > off+i }) - 1
		end := len(ix.corpus)
		if seg+1 < len(ix.starts) {
			end = int(ix.starts[seg+1]) - 1
		}
		off = end // the grade looks at the rest of this title itself
		e := ix.owner[seg]
		if typ != "" && ix.entries[e].typ != typ {
			continue
		}
		g := textmatch.Grade(ix.corpus[ix.starts[seg]:end], q)
		if e == cur.entry { // an entry's titles sit next to each other
			cur.grade = min(cur.grade, g)
			continue
		}
		if cur.entry >= 0 {
			hits = append(hits, cur)
		}
		cur = hit{entry: e, grade: g}
	}
	if cur.entry >= 0 {
		hits = append(hits, cur)
	}
	return len(hits), ix.top(hits, keep)
}

// top picks the best keep hits without sorting them all.
func (ix *titleIndex) top(all []hit, keep int) []int64 {
	best := make([]hit, 0, keep+1)
	for _, h := range all {
		if len(best) == keep && !ix.less(h, best[keep-1]) {
			continue
		}
		pos := sort.Search(len(best), func(i int) bool { return ix.less(h, best[i]) })
		best = append(best, hit{})
		copy(best[pos+1:], best[pos:])
		best[pos] = h
		if len(best) > keep {
			best = best[:keep]
		}
	}
	ids := make([]int64, len(best))
	for i, h := range best {
		ids[i] = ix.entries[h.entry].id
	}
	return ids
}

func (ix *titleIndex) less(a, b hit) bool {
	if a.grade != b.grade {
		return a.grade < b.grade
	}
	ea, eb := ix.entries[a.entry], ix.entries[b.entry]
	if ra, rb := typeRank(ea.typ), typeRank(eb.typ); ra != rb {
		return ra < rb
	}
	if ea.year != eb.year {
		return ea.year > eb.year
	}
	return ea.id < eb.id
}

// typeRank puts works (movies, series) before their parts.
func typeRank(t string) int {
	if t == domain.MediaMovie || t == domain.MediaSeries {
		return 0
	}
	return 1
}
