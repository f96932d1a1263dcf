package release

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// sortNumber reports whether the plain number at token i, first in the
// name, numbers the entry in a list rather than starting the title: it is
// followed by "The" ("12 The Matrix"), or by a title of two words or more
// whose first word is a capitalised Russian word that does not agree with
// the number. Russian capitalises only a title's first word, so in "9 рота",
// "12 стульев" and "28 панфиловцев" the number is the title's own, while in
// "11 Большой куш" the title starts after it. "17 Мгновений весны" keeps
// its number too: "мгновений" is the form a number asks for.
func (p *parsed) sortNumber(i int) bool {
	j := i + 1
	if j >= len(p.toks) || p.toks[j].kind != kWord || p.titleWords(j) < 2 {
		return false
	}
	word := p.core(j)
	if p.low(j) == "the" {
		return true
	}
	r, _ := utf8.DecodeRuneInString(word)
	if !unicode.Is(unicode.Cyrillic, r) || !unicode.IsUpper(r) {
		return false
	}
	return !agreesWithNumber(int(p.toks[i].num), p.low(j))
}

// titleWords counts the words from token j up to the first bracket, tag,
// marker or year.
func (p *parsed) titleWords(j int) int {
	n := 0
	for ; j < len(p.toks); j++ {
		switch p.toks[j].kind {
		case kWord, kNumber:
			n++
		case kPunct, kDash:
		default:
			return n
		}
	}
	return n
}

// agreesWithNumber reports whether a Russian word has the case a number
// before it asks for: the genitive singular after 2-4 ("3 богатыря"), the
// genitive plural after 5-20 and the tens ("12 стульев", "8 первых"). After
// 1 any word agrees, so only the capital gives a sort number away there.
func agreesWithNumber(n int, low string) bool {
	switch d := n % 10; {
	case n%100 >= 11 && n%100 <= 19, d == 0 || d >= 5:
		return hasAnySuffix(low, "ов", "ев", "ёв", "ей", "ий", "ых", "их", "ок", "ек", "ят", "ат")
	case d >= 2:
		if hasAnySuffix(low, "ая", "яя", "ые", "ие", "ой", "ый") {
			return false
		}
		return hasAnySuffix(low, "а", "я", "ы", "и", "ых", "их")
	}
	return false
}

func hasAnySuffix(s string, suffixes ...string) bool {
	for _, suf := range suffixes {
		if strings.HasSuffix(s, suf) {
			return true
		}
	}
	return false
}
