package release

import "strings"

// splitScripts files one title part, split into a Russian and an original
// title when it holds both without a "/": a Russian title followed by an
// original of its own ("Волшебная страна Finding Neverland", "Брат 2
// Brother 2"), or an original of several words followed by a Russian one
// ("Finding Neverland Волшебная страна"). Anything else stays one title,
// so "Дьявол носит Prada", "Наша Russia" and "Kingsman: Секретная служба"
// keep their Latin words.
func (p *parsed) splitScripts(a, b int) {
	if k := p.originalAfter(a, b); k > a {
		p.assignPart(a, k-1)
		p.assignPart(k, b)
		return
	}
	if k := p.russianAfter(a, b); k > a {
		p.assignPart(a, k-1)
		p.assignPart(k, b)
		return
	}
	p.assignPart(a, b)
}

// originalAfter finds where an original title starts after a Russian one:
// at the first Latin word after the last Cyrillic one, or later when the
// Russian title ends in Latin words the original repeats ("Дьявол носит
// Prada The Devil Wears Prada", "Ford против Ferrari Ford v Ferrari"). The
// original needs two words or more, or one word and the number the Russian
// title ends with ("Брат 2 Brother 2"), or one word that the Russian title's
// first word spells in Cyrillic ("Аватар Avatar", "Титаник Titanic"). It
// returns -1 when there is none.
func (p *parsed) originalAfter(a, b int) int {
	last := -1
	for i := a; i <= b; i++ {
		if p.tokScript(i) == scriptCyrillic {
			last = i
		}
	}
	if last < 0 {
		return -1
	}
	k := -1
	for i := last + 1; i <= b; i++ {
		if p.tokScript(i) == scriptLatin {
			k = i
			break
		}
	}
	if k < 0 {
		return -1
	}
	k = p.skipRepeated(k, b)
	if words := p.latinWords(k, b); words >= 2 || words == 1 && (p.sameEnding(k-1, b) || p.soundsAlike(a, k)) {
		return k
	}
	return -1
}

// skipRepeated moves the start of an original title past Latin words that
// end the Russian title and come again later in the original, but not as
// its first word ("La La Land" keeps both).
func (p *parsed) skipRepeated(k, b int) int {
	best := k
	for h := k + 1; h <= b; h++ {
		w := p.low(h - 1)
		if p.tokScript(h-1) != scriptLatin || isStopWord(w) || p.low(h) == w || !p.hasWord(h, b, w) {
			break
		}
		if p.latinWords(h, b) >= 2 {
			best = h
		}
	}
	return best
}

// russianAfter finds a Russian title that follows an original of two words
// or more, with no Latin word after it; -1 when there is none.
func (p *parsed) russianAfter(a, b int) int {
	first := -1
	for i := a; i <= b; i++ {
		switch p.tokScript(i) {
		case scriptCyrillic:
			if first < 0 {
				first = i
			}
		case scriptLatin:
			if first >= 0 {
				return -1
			}
		}
	}
	if first <= a || p.latinWords(a, first-1) < 2 {
		return -1
	}
	return first
}

// tokScript is the script of one token: Cyrillic, Latin, or none for
// numbers, Roman numerals and punctuation.
func (p *parsed) tokScript(i int) script {
	if k := p.toks[i].kind; k != kWord && k != kNumber && k != kYear {
		return scriptNone
	}
	s := p.script(i, i)
	if s&scriptCyrillic != 0 {
		return scriptCyrillic
	}
	return s
}

// latinWords counts the words with letters in tokens a..b, Roman numerals
// included ("Rocky II" is two).
func (p *parsed) latinWords(a, b int) int {
	n := 0
	for i := a; i <= b; i++ {
		if p.toks[i].kind == kWord && (p.tokScript(i) == scriptLatin || isRoman(p.core(i))) {
			n++
		}
	}
	return n
}

// sameEnding reports whether the tokens ending at i and at b are the same
// number or Roman numeral, as in "Брат 2 Brother 2".
func (p *parsed) sameEnding(i, b int) bool {
	if i < 0 || i == b {
		return false
	}
	x, y := p.core(i), p.core(b)
	return x == y && (allDigits(x) || isRoman(x))
}

// hasWord reports whether tokens a..b hold the lower-case word w.
func (p *parsed) hasWord(a, b int, w string) bool {
	for i := a; i <= b; i++ {
		if p.low(i) == w {
			return true
		}
	}
	return false
}

// isStopWord lists the short English words that join a title's words and
// so say nothing about where a title starts.
func isStopWord(w string) bool {
	switch strings.Trim(w, ":,.") {
	case "the", "a", "an", "of", "and", "in", "on", "at", "to", "for", "with", "from", "by", "v", "vs":
		return true
	}
	return false
}
