package catalog

import (
	"index/suffixarray"
	"slices"
	"sort"
	"strings"
)

// wordList is a sorted list of distinct strings kept in one string, each
// preceded by a NUL, so that a prefix is a binary search; with a suffix
// array (withSuffixes) a part of a word is a binary search too.
type wordList struct {
	text     string
	at       []int32 // where word i starts; at[len] = len(text)+1
	suffixes *suffixarray.Index
}

// newWordList keeps words, which must be sorted and distinct.
func newWordList(words []string) wordList {
	var b strings.Builder
	at := make([]int32, 0, len(words)+1)
	for _, w := range words {
		b.WriteByte(0)
		at = append(at, int32(b.Len()))
		b.WriteString(w)
	}
	at = append(at, int32(b.Len()+1))
	return wordList{text: b.String(), at: at}
}

func (l wordList) len() int { return len(l.at) - 1 }

func (l wordList) word(i int) string { return l.text[l.at[i] : l.at[i+1]-1] }

// prefixed returns the range [lo, hi) of the words that start with p.
func (l wordList) prefixed(p string) (lo, hi int) {
	lo = sort.Search(l.len(), func(i int) bool { return l.word(i) >= p })
	// A one-letter prefix starts thousands of words: search the end too.
	hi = lo + sort.Search(l.len()-lo, func(i int) bool { return !strings.HasPrefix(l.word(lo+i), p) })
	return lo, hi
}

// find returns the index of word w, or -1.
func (l wordList) find(w string) int {
	if lo, hi := l.prefixed(w); lo < hi && l.word(lo) == w {
		return lo
	}
	return -1
}

// withSuffixes adds the suffix array that containing searches.
func (l wordList) withSuffixes() wordList {
	l.suffixes = suffixarray.New([]byte(l.text))
	return l
}

// containing calls fn with every word that contains s, in order: through
// the suffix array when there is one and s has three letters or more,
// else by one scan of every word (for one or two letters, which are in
// most words, the scan stops once per word, the array once per letter).
func (l wordList) containing(s string, fn func(i int)) {
	if l.suffixes == nil || len(s) < 3 {
		l.scan(s, fn)
		return
	}
	offs := l.suffixes.Lookup([]byte(s), -1)
	words := make([]int, 0, len(offs))
	for _, off := range offs {
		words = append(words, l.wordAt(off))
	}
	slices.Sort(words)
	for i, w := range words {
		if i == 0 || w != words[i-1] {
			fn(w)
		}
	}
}

// scan is containing by strings.Index over the whole text.
func (l wordList) scan(s string, fn func(i int)) {
	for off := 0; off < len(l.text); {
		p := strings.Index(l.text[off:], s)
		if p < 0 {
			return
		}
		i := l.wordAt(off + p)
		fn(i)
		off = int(l.at[i+1]) - 1 // the next word's NUL
	}
}

// wordAt returns the word the byte at off belongs to.
func (l wordList) wordAt(off int) int {
	return sort.Search(l.len(), func(i int) bool { return int(l.at[i]) > off }) - 1
}

// postings lists, for each word of a wordList, the items it is in, all in
// one slice (item ids of word i are ids[off[i]:off[i+1]]), so that the
// items of a range of words are one contiguous run.
type postings struct {
	off []int32
	ids []uint32
}

func (p postings) of(i int) []uint32 { return p.ids[p.off[i]:p.off[i+1]] }

// span returns the items of the words lo…hi-1.
func (p postings) span(lo, hi int) []uint32 { return p.ids[p.off[lo]:p.off[hi]] }

// Flags of a title in the postings of a word (the rest is the title id).
const (
	firstWord = 1 << 31 // the word is the title's first
	onlyWord  = 1 << 30 // the title is this one word
	titleMask = onlyWord - 1
)
