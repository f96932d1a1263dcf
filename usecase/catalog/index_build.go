package catalog

import (
	"slices"
	"sort"
	"strings"

	"mediateka/domain"
	"mediateka/usecase/textmatch"
)

// maxTypoRunes is the longest word (in packed bytes) the typo pass
// compares (see textmatch.ByteDistance); longer words are found by their
// first letters.
const maxTypoRunes = 32

// indexBuilder collects records in id order and turns them into an index.
type indexBuilder struct {
	ix      *titleIndex
	corpus  strings.Builder
	wordIDs map[string]int32 // normalised word → id in order of first sight
	plain   []string         // those words
	occ     []occurrence     // every word of every title, in title order
}

// occurrence is one word of one title: the word's id and the title's id
// with the firstWord and onlyWord flags.
type occurrence struct {
	word  int32
	title uint32
}

func newIndexBuilder(version string) *indexBuilder {
	return &indexBuilder{ix: &titleIndex{version: version, nameIDs: map[string]uint32{}, years: map[int32][]int32{}},
		wordIDs: map[string]int32{}}
}

// add indexes one record. Every searchable field ranks alike (an exact
// title_orig is as good as an exact title), so all are indexed the same
// way and a repeated value is kept once.
func (b *indexBuilder) add(k domain.MediaKey) {
	ix := b.ix
	n := int32(len(ix.entries))
	e := indexEntry{id: k.ID, year: int32(k.Year), typ: b.intern(k.Type), cat: b.intern(k.Category), disk: b.intern(k.Disk), state: b.intern(k.Status)}
	ix.firstTitle = append(ix.firstTitle, int32(len(ix.starts)))
	for i, t := range k.Titles {
		if t == "" || slices.Contains(k.Titles[:i], t) {
			continue
		}
		words := strings.Split(t, " ")
		if e.words == 0 || len(words) < int(e.words) {
			e.words = uint8(min(len(words), 255))
		}
		b.corpus.WriteByte(0)
		title := uint32(len(ix.starts))
		ix.starts = append(ix.starts, int32(b.corpus.Len()))
		ix.owner = append(ix.owner, n)
		b.corpus.WriteString(packText(t))
		for j, w := range words {
			flags := uint32(0)
			if j == 0 {
				flags |= firstWord
			}
			if len(words) == 1 {
				flags |= onlyWord
			}
			b.occ = append(b.occ, occurrence{word: b.wordID(w), title: title | flags})
		}
	}
	if k.Year > 0 {
		ix.years[e.year] = append(ix.years[e.year], n)
	}
	ix.entries = append(ix.entries, e)
}

func (b *indexBuilder) wordID(w string) int32 {
	id, ok := b.wordIDs[w]
	if !ok {
		id = int32(len(b.plain))
		b.wordIDs[w] = id
		b.plain = append(b.plain, w)
	}
	return id
}

func (b *indexBuilder) intern(s string) uint32 {
	id, ok := b.ix.nameIDs[s]
	if !ok {
		id = uint32(len(b.ix.names))
		b.ix.nameIDs[s] = id
		b.ix.names = append(b.ix.names, s)
	}
	return id
}

// finish sorts the dictionary and builds the postings, the fuzzy tables
// and the ranking order.
func (b *indexBuilder) finish() *titleIndex {
	ix := b.ix
	ix.corpus = b.corpus.String()
	packed := make([]string, len(b.plain))
	for i, w := range b.plain {
		packed[i] = packText(w)
	}
	order := make([]int32, len(b.plain)) // dict position → first-sight id
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, c int32) int { return strings.Compare(packed[a], packed[c]) })
	pos := make([]int32, len(order)) // first-sight id → dict position
	sorted := make([]string, len(order))
	for p, id := range order {
		pos[id], sorted[p] = int32(p), packed[id]
	}
	ix.dict = newWordList(sorted).withSuffixes()
	ix.inTitle = b.titlePostings(pos)
	ix.wordsOf = b.titleWords(pos)
	ix.firstTitle = append(ix.firstTitle, int32(len(ix.starts)))
	ix.wordsPerEntry = (len(b.occ) + len(ix.entries) - 1) / max(len(ix.entries), 1)
	b.fuzzyTables(order)
	b.rankOrder()
	b.occ, b.plain, b.wordIDs = nil, nil, nil
	return ix
}

// titlePostings groups the occurrences by word (pos maps a word's first-
// sight id to its dict position); a title that has a word twice is listed
// once with the flags of both.
func (b *indexBuilder) titlePostings(pos []int32) postings {
	off := make([]int32, len(pos)+1)
	for _, o := range b.occ {
		off[pos[o.word]+1]++
	}
	for i := 1; i < len(off); i++ {
		off[i] += off[i-1]
	}
	ids := make([]uint32, len(b.occ))
	fill := slices.Clone(off[:len(pos)])
	for _, o := range b.occ {
		p := pos[o.word]
		if n := fill[p]; n > off[p] && ids[n-1]&titleMask == o.title&titleMask {
			ids[n-1] |= o.title
			continue
		}
		ids[fill[p]] = o.title
		fill[p]++
	}
	// Close the gaps the merged duplicates left.
	out, newOff := ids[:0], make([]int32, len(off))
	for p := range pos {
		out = append(out, ids[off[p]:fill[p]]...)
		newOff[p+1] = int32(len(out))
	}
	return postings{off: newOff, ids: out}
}

// titleWords lists the dict words of every title, in order (pos maps a
// word's first-sight id to its dict position).
func (b *indexBuilder) titleWords(pos []int32) postings {
	off := make([]int32, len(b.ix.starts)+1)
	ids := make([]uint32, len(b.occ))
	for i, o := range b.occ {
		off[o.title&titleMask+1]++
		ids[i] = uint32(pos[o.word])
	}
	for i := 1; i < len(off); i++ {
		off[i] += off[i-1]
	}
	return postings{off: off, ids: ids}
}

// fuzzyTables builds what the fuzzy passes look words up in: the dict
// words by packed length with their letters (typos) and the dict words of
// every transliteration key. order maps dict positions to first-sight ids.
func (b *indexBuilder) fuzzyTables(order []int32) {
	ix := b.ix
	ix.letters = make([]uint64, len(order))
	ix.byLen = make([][]int32, maxTypoRunes+1)
	byKey := map[string][]uint32{}
	for p, id := range order {
		packed := ix.dict.word(p)
		ix.letters[p] = letterSet(packed)
		if len(packed) <= maxTypoRunes {
			ix.byLen[len(packed)] = append(ix.byLen[len(packed)], int32(p))
		}
		if k := textmatch.TranslitKey(b.plain[id]); k != "" {
			byKey[k] = append(byKey[k], uint32(p))
		}
	}
	keys := make([]string, 0, len(byKey))
	for k := range byKey {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	ix.keys = newWordList(keys)
	ix.keyOf.off = make([]int32, 1, len(keys)+1)
	for _, k := range keys {
		ix.keyOf.ids = append(ix.keyOf.ids, byKey[k]...)
		ix.keyOf.off = append(ix.keyOf.off, int32(len(ix.keyOf.ids)))
	}
}

// rankOrder numbers the entries by type (works first), year desc, id, the
// order that breaks ties between equal matches.
func (b *indexBuilder) rankOrder() {
	ix := b.ix
	ranks := make([]int, len(ix.names))
	for i, n := range ix.names {
		ranks[i] = typeRank(n)
	}
	ix.byOrder = make([]int32, len(ix.entries))
	for i := range ix.byOrder {
		ix.byOrder[i] = int32(i)
	}
	slices.SortStableFunc(ix.byOrder, func(a, c int32) int {
		ea, ec := &ix.entries[a], &ix.entries[c]
		if ra, rc := ranks[ea.typ], ranks[ec.typ]; ra != rc {
			return ra - rc
		}
		return int(ec.year - ea.year) // newer first; entries are in id order already
	})
	for o, e := range ix.byOrder {
		ix.entries[e].order = int32(o)
	}
}

// letterSet is the set of bytes of a packed word folded into 64 bits
// (packed Cyrillic letters on 0–31, Latin ones on 33–58). Two words d
// edits apart differ by at most d letters each way, which rules most words
// out of a typo before their distance is computed.
func letterSet(packed string) uint64 {
	var s uint64
	for i := 0; i < len(packed); i++ {
		s |= 1 << (packed[i] % 64)
	}
	return s
}
