package textmatch

import "unicode/utf8"

// maxDistanceRunes is the longest word Distance compares; longer words
// are never a typo of each other (Distance reports limit+1).
const maxDistanceRunes = 32

// Distance is the number of single-letter edits (insert, delete, replace,
// or swap two neighbours) that turn a into b, counted in runes
// ("интерстелар" → "интерстеллар" is 1, "матирца" → "матрица" is 1). It
// stops counting past limit and then returns limit+1, so checking a word
// against thousands costs little; words over 32 runes also give limit+1.
func Distance(a, b string, limit int) int {
	var ab, bb [maxDistanceRunes]rune
	ra, oka := runesOf(a, ab[:0])
	rb, okb := runesOf(b, bb[:0])
	if !oka || !okb {
		return limit + 1
	}
	return distance(ra, rb, limit)
}

// ByteDistance is Distance counted in bytes, for text where every letter
// is one byte: ASCII, or an encoding of its own such as the catalogue's
// packed titles. It does not decode or copy the text, so it is the one to
// run over a whole dictionary.
func ByteDistance(a, b string, limit int) int {
	if len(a) > maxDistanceRunes || len(b) > maxDistanceRunes {
		return limit + 1
	}
	var ab, bb [maxDistanceRunes]byte
	return distance(ab[:copy(ab[:], a)], bb[:copy(bb[:], b)], limit)
}

// MaxTypos is how many edits a word of n letters may be off and still be
// taken for a typo: none for up to three letters (every short word is a
// typo of many others), one for four to seven, two from eight.
func MaxTypos(n int) int {
	switch {
	case n < 4:
		return 0
	case n < 8:
		return 1
	}
	return 2
}

// runesOf decodes s into buf; false when s is longer than buf's capacity.
func runesOf(s string, buf []rune) ([]rune, bool) {
	if utf8.RuneCountInString(s) > cap(buf) {
		return nil, false
	}
	for _, r := range s {
		buf = append(buf, r)
	}
	return buf, true
}

// distance is Distance on decoded words (the optimal string alignment
// distance: Levenshtein plus the swap of two neighbours). It fills only
// the band of the dynamic programme within limit of the diagonal, three
// rows on the stack, and gives up as soon as a whole row exceeds limit.
func distance[E byte | rune](a, b []E, limit int) int {
	if d := len(a) - len(b); d > limit || -d > limit {
		return limit + 1
	}
	over := limit + 1
	var r0, r1, r2 [maxDistanceRunes + 2]int
	prev2, prev, cur := r0[:len(b)+2], r1[:len(b)+2], r2[:len(b)+2]
	for j := range prev {
		prev[j] = min(j, over)
	}
	for i := 1; i <= len(a); i++ {
		lo, hi := max(1, i-limit), min(len(b), i+limit)
		cur[lo-1] = over
		if lo == 1 {
			cur[0] = min(i, over)
		}
		low := cur[lo-1]
		for j := lo; j <= hi; j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = min(v, over)
			low = min(low, cur[j])
		}
		cur[hi+1] = over
		if low > limit {
			return over
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
