package catalog

import (
	"strings"

	"mediateka/usecase/textmatch"
)

// grade is how an entry matches a query; lower is better. The first four
// are textmatch's grades of the whole query inside one title; the rest
// are the fuzzy kinds, each below every exact one.
type grade uint8

// The grades of title search, best first (API.md §3 lists them).
const (
	gradeExact     = grade(textmatch.Exact)     // a title is the query
	gradePrefix    = grade(textmatch.Prefix)    // a title starts with the query
	gradeWord      = grade(textmatch.Word)      // the query starts at a later word of a title
	gradeSubstring = grade(textmatch.Substring) // the query is inside a word of a title
	// gradeWords: every word of the query starts a word of the entry's
	// titles or is its year, in any order, over any of its titles.
	gradeWords grade = iota
	// gradeTranslit: as gradeWords, some words in the other script.
	gradeTranslit
	// gradeLayout: as gradeWords, typed on the other keyboard layout.
	gradeLayout
	// gradeTypo: as gradeWords, some words a typo away.
	gradeTypo
	// gradeNoYear + (g - gradeWords): every word but the year the query
	// ends with matched at grade g (the entry has another year, or none).
	gradeNoYear
)

// score is a grade and, below it, whether some word of the query only
// started a word of the entry rather than being one (score = grade<<1 |
// partial), so that within a fuzzy grade "brat" puts Брат before Братва.
type score uint8

func scoreOf(g grade, partial bool) score {
	if partial {
		return score(g)<<1 | 1
	}
	return score(g) << 1
}

func (s score) grade() grade { return grade(s >> 1) }

// maxQueryWords is how many words of a query the word passes look at
// (one bit each in mark.mask); the whole query is still matched exactly.
const maxQueryWords = 16

// find searches the index for raw (as typed) and hands the marks to fn;
// an entry in sc.touched with a non-zero mark.best matched. The passes:
// exact (the whole query inside one title), words (every word, in any
// order, with other spellings and typos), and the same words retyped on
// the other keyboard layout. Each marks an entry at its best grade.
func (ix *titleIndex) find(raw string, fn func(sc *scratch, q query)) {
	q := ix.read(raw)
	sc := ix.getScratch()
	defer ix.putScratch(sc)
	if len(q.words) > 0 {
		ix.exactPass(sc, q)
		// A single word's exact matches are all in the exact pass already.
		ix.wordsPass(sc, q.words, gradeWords, len(q.words) == 1)
		if len(q.layout) > 0 {
			ix.wordsPass(sc, q.layout, gradeLayout, false)
		}
	}
	fn(sc, q)
}

// exactPass grades the entries that hold the whole query in one title
// (textmatch.Grade). One word: the dictionary words containing it, graded
// by where they sit in each title. Several: in a title that holds the
// query, every query word after the first starts a word of the title (is
// one, unless it is the last), so only the titles of the rarest of those
// are compared.
func (ix *titleIndex) exactPass(sc *scratch, q query) {
	ws := q.words
	if len(ws) == 1 {
		w := ws[0].packed
		ix.dict.containing(w, func(d int) {
			word := ix.dict.word(d)
			for _, t := range ix.inTitle.of(d) {
				sc.better(ix.owner[t&titleMask], scoreOf(wordGrade(word, w, t), false))
			}
		})
		return
	}
	candidates := ix.inTitle.span(ws[len(ws)-1].lo, ws[len(ws)-1].hi)
	for _, w := range ws[1 : len(ws)-1] {
		d := ix.dict.find(w.packed)
		if d < 0 {
			return
		}
		if ts := ix.inTitle.of(d); len(ts) < len(candidates) {
			candidates = ts
		}
	}
	for _, t := range candidates {
		if g := textmatch.Grade(ix.title(t&titleMask), q.packed); g != textmatch.NoMatch {
			sc.better(ix.owner[t&titleMask], scoreOf(grade(g), false))
		}
	}
}

// wordGrade grades a one-word query w found in dictionary word word of
// the title posting t (textmatch.Grade without reading the title).
func wordGrade(word, w string, t uint32) grade {
	switch {
	case !strings.HasPrefix(word, w):
		return gradeSubstring
	case t&firstWord == 0:
		return gradeWord
	case t&onlyWord != 0 && word == w:
		return gradeExact
	}
	return gradePrefix
}
