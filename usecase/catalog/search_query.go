package catalog

import (
	"math/bits"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"mediateka/usecase/textmatch"
)

// query is a search as typed, read against one index.
type query struct {
	packed string      // the whole query, normalised and packed
	words  []queryWord // its words (at most maxQueryWords)
	layout []queryWord // the words retyped on the other keyboard layout, if different
}

// queryWord is one word of a query and the dictionary words it reaches.
type queryWord struct {
	plain, packed string
	year          int32   // the year the word names (1880–2100), or 0
	lo, hi        int     // the dict words it starts
	translit      []int32 // other dict words whose key its key starts
	translitWhole int     // how many of them (first) have its key itself
	typos         []int32 // dict words a typo away, when nothing else matches
	cost          int     // titles to walk, to take the rarest word first
}

// read normalises raw and looks its words up. The layout variant is read
// from raw itself, since keys that are punctuation on one layout are
// letters on the other; when it finds every word, the words as typed are
// not hunted for typos.
func (ix *titleIndex) read(raw string) query {
	norm := textmatch.Normalize(raw)
	if norm == "" {
		return query{}
	}
	q := query{packed: packText(norm)}
	if utf8.RuneCountInString(norm) >= 2 { // one letter on the other layout is just another letter
		if alt := textmatch.Normalize(textmatch.SwapLayout(raw)); alt != "" && alt != norm {
			q.layout = ix.lookup(alt, noSpellings)
		}
	}
	fuzzy := withTypos
	if allFound(q.layout) {
		fuzzy = withSpellings
	}
	q.words = ix.lookup(norm, fuzzy)
	return q
}

// How far lookup looks for a word.
const (
	noSpellings   = iota // the word as written
	withSpellings        // and its transliterations
	withTypos            // and, when nothing else matches, its typos
)

// lookup finds the dictionary words each word of norm starts and, as far
// as fuzzy says, its other spellings and typos.
func (ix *titleIndex) lookup(norm string, fuzzy int) []queryWord {
	plain := strings.Split(norm, " ")
	plain = plain[:min(len(plain), maxQueryWords)]
	out := make([]queryWord, len(plain))
	for i, p := range plain {
		w := &out[i]
		w.plain, w.packed, w.year = p, packText(p), yearOf(p)
		w.lo, w.hi = ix.dict.prefixed(w.packed)
		w.cost = int(ix.inTitle.off[w.hi]-ix.inTitle.off[w.lo]) + len(ix.years[w.year])
		if fuzzy != noSpellings && hasLetter(p) {
			ix.spellings(w, fuzzy == withTypos)
		}
	}
	return out
}

// allFound reports whether ws has words and each starts a dict word or
// names a year.
func allFound(ws []queryWord) bool {
	for _, w := range ws {
		if w.lo == w.hi && w.year == 0 {
			return false
		}
	}
	return len(ws) > 0
}

// spellings adds the dict words w reaches by transliteration (whose key
// its key starts; for a word of one or two letters, whose key it is) and,
// with typos and when nothing else matches it, by a typo.
func (ix *titleIndex) spellings(w *queryWord, typos bool) {
	if k := textmatch.TranslitKey(w.plain); k != "" {
		klo, khi := ix.keyRange(k, utf8.RuneCountInString(w.plain) < 3)
		for i := klo; i < khi; i++ {
			for _, d := range ix.keyOf.of(i) {
				if int(d) < w.lo || int(d) >= w.hi {
					w.translit = append(w.translit, int32(d))
					w.cost += len(ix.inTitle.of(int(d)))
				}
			}
			if i == klo && ix.keys.word(i) == k {
				w.translitWhole = len(w.translit)
			}
		}
		slices.Sort(w.translit[:w.translitWhole]) // for queryWord.scoreFor
		slices.Sort(w.translit[w.translitWhole:])
	}
	if typos && w.lo == w.hi && len(w.translit) == 0 && w.year == 0 && !hasDigit(w.plain) {
		w.typos = ix.typos(w)
		for _, d := range w.typos {
			w.cost += len(ix.inTitle.of(int(d)))
		}
	}
}

// keyRange returns the keys that start with k, or with whole only k.
func (ix *titleIndex) keyRange(k string, whole bool) (int, int) {
	if !whole {
		return ix.keys.prefixed(k)
	}
	if i := ix.keys.find(k); i >= 0 {
		return i, i + 1
	}
	return 0, 0
}

// typos returns the dict words within textmatch.MaxTypos edits of w (none
// for words of three letters or fewer). Only words of a near length whose
// letters differ by few are compared, on their packed bytes (one per
// letter for Russian and Latin words).
func (ix *titleIndex) typos(w *queryWord) []int32 {
	k := textmatch.MaxTypos(utf8.RuneCountInString(w.plain))
	n := len(w.packed)
	if k == 0 || n > maxTypoRunes {
		return nil
	}
	set := letterSet(w.packed)
	var out []int32
	for l := max(1, n-k); l <= min(maxTypoRunes, n+k); l++ {
		for _, d := range ix.byLen[l] {
			if bits.OnesCount64(set&^ix.letters[d]) > k || bits.OnesCount64(ix.letters[d]&^set) > k {
				continue
			}
			if textmatch.ByteDistance(w.packed, ix.dict.word(int(d)), k) <= k {
				out = append(out, d)
			}
		}
	}
	slices.Sort(out) // for queryWord.scoreFor
	return out
}

// yearOf returns the year a word of four digits names, or 0.
func yearOf(w string) int32 {
	if len(w) != 4 {
		return 0
	}
	y := int32(0)
	for i := 0; i < 4; i++ {
		if w[i] < '0' || w[i] > '9' {
			return 0
		}
		y = y*10 + int32(w[i]-'0')
	}
	if y < 1880 || y > 2100 {
		return 0
	}
	return y
}

func hasLetter(w string) bool { return strings.IndexFunc(w, unicode.IsLetter) >= 0 }

func hasDigit(w string) bool { return strings.IndexFunc(w, unicode.IsDigit) >= 0 }
