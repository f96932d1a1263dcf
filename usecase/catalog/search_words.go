package catalog

import "slices"

// wordsPass marks the entries every word of ws matches: the word starts
// a word of one of the entry's titles (at grade base), or is its year,
// or (on the query as typed) its transliteration key starts a word's key
// (gradeTranslit) or it is a typo of a word (gradeTypo). An entry's grade
// is its worst word's. When the query ends with a year the entry lacks,
// it matches at gradeNoYear. The rarest word goes first; each next word
// only looks at the entries that matched all before it, either by
// walking the titles of its dictionary words or, when fewer entries are
// left than those titles, by reading the words of each entry left.
func (ix *titleIndex) wordsPass(sc *scratch, ws []queryWord, base grade, skipExact bool) {
	yearAt := -1
	for i := len(ws) - 1; i >= 0 && len(ws) > 1; i-- {
		if ws[i].year > 0 {
			yearAt = i
			break
		}
	}
	var need, yearBit uint16
	live := 0 // entries that have every word so far
	for n, i := range processingOrder(ws, yearAt) {
		bit := uint16(1) << i
		if n > 0 && len(sc.touched)+live*ix.wordsPerEntry < ws[i].cost {
			live = ix.probeWord(sc, &ws[i], bit, need, base)
		} else {
			live = ix.markWord(sc, &ws[i], bit, need, base, skipExact)
		}
		need |= bit
		if i == yearAt {
			yearBit = bit
		}
	}
	sc.settle(need, yearBit)
}

// markWord marks the entries that have word w (bit) and every word
// before it (need), walking the titles of w's dictionary words: whole
// matches first, then words it only starts, each kind best first, so an
// entry keeps the best way it has the word. It returns how many entries
// it marked.
func (ix *titleIndex) markWord(sc *scratch, w *queryWord, bit, need uint16, base grade, skipExact bool) int {
	marked := 0
	titles := func(ts []uint32, s score) {
		for _, t := range ts {
			if sc.mark(ix.owner[t&titleMask], bit, need, s) {
				marked++
			}
		}
	}
	lo := w.lo
	if !skipExact && lo < w.hi && ix.dict.word(lo) == w.packed {
		titles(ix.inTitle.of(lo), scoreOf(base, false))
		lo++
	}
	for _, e := range ix.years[w.year] {
		if sc.mark(e, bit, need, scoreOf(base, false)) {
			marked++
		}
	}
	if !skipExact {
		titles(ix.inTitle.span(lo, w.hi), scoreOf(base, true))
	}
	for i, d := range w.translit {
		titles(ix.inTitle.of(int(d)), scoreOf(gradeTranslit, i >= w.translitWhole))
	}
	for _, d := range w.typos {
		titles(ix.inTitle.of(int(d)), scoreOf(gradeTypo, false))
	}
	return marked
}

// probeWord is markWord for few entries left: it reads the words of each
// entry that has every word of need and marks it with the best way it
// has w.
func (ix *titleIndex) probeWord(sc *scratch, w *queryWord, bit, need uint16, base grade) int {
	marked := 0
	for _, e := range sc.touched {
		if sc.marks[e].mask != need {
			continue
		}
		if s, ok := ix.bestFor(e, w, base); ok && sc.mark(e, bit, need, s) {
			marked++
		}
	}
	return marked
}

// bestFor is the best score by which entry e has word w, if it has it.
func (ix *titleIndex) bestFor(e int32, w *queryWord, base grade) (score, bool) {
	if w.year > 0 && ix.entries[e].year == w.year {
		return scoreOf(base, false), true
	}
	best, found := score(0), false
	for t := ix.firstTitle[e]; t < ix.firstTitle[e+1]; t++ {
		for _, d := range ix.wordsOf.of(int(t)) {
			if s, ok := w.scoreFor(int(d), ix, base); ok && (!found || s < best) {
				best, found = s, true
			}
		}
	}
	return best, found
}

// scoreFor is the score of dict word d for this query word, if it is one
// of the word's matches (see markWord).
func (w *queryWord) scoreFor(d int, ix *titleIndex, base grade) (score, bool) {
	if d >= w.lo && d < w.hi {
		return scoreOf(base, d != w.lo || ix.dict.word(d) != w.packed), true
	}
	if _, ok := slices.BinarySearch(w.translit[:w.translitWhole], int32(d)); ok {
		return scoreOf(gradeTranslit, false), true
	}
	if _, ok := slices.BinarySearch(w.translit[w.translitWhole:], int32(d)); ok {
		return scoreOf(gradeTranslit, true), true
	}
	if _, ok := slices.BinarySearch(w.typos, int32(d)); ok {
		return scoreOf(gradeTypo, false), true
	}
	return 0, false
}

// processingOrder lists the word indexes cheapest first, the optional
// year (yearAt, or -1) last.
func processingOrder(ws []queryWord, yearAt int) []int {
	order := make([]int, 0, len(ws))
	for i := range ws {
		if i != yearAt {
			order = append(order, i)
		}
	}
	for i := 1; i < len(order); i++ { // insertion sort: a few words
		for j := i; j > 0 && ws[order[j]].cost < ws[order[j-1]].cost; j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	if yearAt >= 0 {
		order = append(order, yearAt)
	}
	return order
}
