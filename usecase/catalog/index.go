package catalog

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"mediateka/domain"
)

// titleIndex is the in-memory index behind title search (by-title, the
// file list's text filter and the chat). It holds every normalised title
// of every record, packed (see packText) so Cyrillic letters are one byte
// each, and a dictionary of every distinct word of those titles with the
// titles each word is in. A search looks its words up in the dictionary
// (a binary search for a word start, one scan of the dictionary for a
// part of a word) and walks only the titles of the words it finds, so its
// cost follows the matches, not the size of the catalogue. The fuzzy
// kinds look up other spellings of the query's words in the same
// dictionary (see search.go). An index never changes once built; a
// change to the catalogue builds a new one.
type titleIndex struct {
	version string       // the store's version the index was built from
	changes uint64       // the service's change count when the build began
	builtAt time.Time    // when it was built (wall clock: only for pacing rebuilds)
	checked atomic.Int64 // unix nanoseconds of the last version check

	corpus     string   // every title, packed, each preceded by a NUL
	starts     []int32  // where title t starts in corpus
	owner      []int32  // the entry title t belongs to
	firstTitle []int32  // entry e's titles are firstTitle[e] … firstTitle[e+1]-1
	wordsOf    postings // the dict words of each title, in order
	// wordsPerEntry is the mean number of title words of an entry,
	// rounded up: what reading an entry's words costs against walking
	// a word's titles.
	wordsPerEntry int

	entries []indexEntry
	byOrder []int32 // entries in the order of indexEntry.order

	dict    wordList  // every distinct word of the titles, packed, sorted
	inTitle postings  // the titles each dict word is in (with firstWord, onlyWord)
	letters []uint64  // each dict word's set of letters (see letterSet)
	byLen   [][]int32 // dict words by packed length, up to maxTypoRunes
	keys    wordList  // the TranslitKey of every dict word, sorted
	keyOf   postings  // the dict words of each key
	years   map[int32][]int32

	// names interns the type, category and disk of the entries.
	names   []string
	nameIDs map[string]uint32

	scratch sync.Pool // of *scratch sized for this index
	cached  entryCache
}

// indexEntry is one record as the index sees it.
type indexEntry struct {
	id    int64
	year  int32
	order int32 // rank among all entries by type (works first), year desc, id
	words uint8 // words of the entry's shortest title
	typ   uint32
	cat   uint32
	disk  uint32
	state uint32 // the record's status, interned like the names above
}

// buildIndex reads the light view of every record into a new index.
func buildIndex(ctx context.Context, repo Repository, now time.Time) (*titleIndex, error) {
	version, err := repo.Version(ctx)
	if err != nil {
		return nil, err
	}
	b := newIndexBuilder(version)
	if err := repo.Keys(ctx, func(k domain.MediaKey) error { b.add(k); return nil }); err != nil {
		return nil, err
	}
	ix := b.finish()
	ix.checked.Store(now.UnixNano())
	return ix, nil
}

// title returns the packed text of title t.
func (ix *titleIndex) title(t uint32) string {
	end := len(ix.corpus)
	if int(t)+1 < len(ix.starts) {
		end = int(ix.starts[t+1]) - 1
	}
	return ix.corpus[ix.starts[t]:end]
}

// name returns the interned id of s, or false when no entry has it.
func (ix *titleIndex) name(s string) (uint32, bool) {
	id, ok := ix.nameIDs[s]
	return id, ok
}

// typeRank puts works (movies, series) before their parts.
func typeRank(t string) int {
	if t == domain.MediaMovie || t == domain.MediaSeries {
		return 0
	}
	return 1
}
