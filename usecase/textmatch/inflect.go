package textmatch

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Helpers for reading the words of questions people type: whether a word
// is another form of a dictionary word ("комедий" of "комедия",
// "comedies" of "comedy") and which ordinal number a word names ("второй",
// "2nd"). The chat's assistants use them to read "сколько комедий во
// втором сезоне"; the bot and speech will.

// formEndings are Russian noun and adjective endings, longest first, that
// Inflects strips from both words before comparing them. Longer than
// Stem's list on purpose: Stem trims one ending to widen a title search,
// Inflects decides that two words are one word, so it must reach the same
// stem from every form ("комедия", "комедии", "комедий" → "комед").
var formEndings = []string{
	"иями", "ями", "ами", "ого", "его", "ому", "ему", "ыми", "ими", "иях", "иям", "ией",
	"ия", "ии", "ию", "ие", "ий", "ья", "ье", "ьи", "ью", "ые", "ых", "ым", "ый", "ой", "ая", "ую",
	"их", "им", "ей", "ом", "ем", "ам", "ям", "ах", "ях", "ов", "ев", "юю", "яя",
	"а", "я", "у", "ю", "ы", "и", "е", "о", "ь", "й",
}

// minFormStem is the shortest stem Inflects compares: shorter stems say
// too little ("шоу" and "шок" must not be one word).
const minFormStem = 3

// Inflects reports whether word is base in another grammatical form. Both
// are normalised, lower-case single words (see Normalize). Russian words
// match when they reach the same stem once a case or number ending is cut
// from each ("фантастику", "научной", "боевиков", "военных" for
// "фантастика", "научная", "боевик", "военные"); English words when one is
// the other's plural ("comedies", "thrillers" for "comedy", "thriller").
// Different words that share a beginning stay apart ("сериал" is not
// "серия"). A Russian stem under three letters, or an English word under
// three, matches only itself.
func Inflects(word, base string) bool {
	if word == base {
		return true
	}
	if IsCyrillic(word) != IsCyrillic(base) {
		return false
	}
	if IsCyrillic(word) {
		sw, sb := FormStem(word), FormStem(base)
		return utf8.RuneCountInString(sb) >= minFormStem && sw == sb
	}
	return englishPlural(word, base) || englishPlural(base, word)
}

// FormStem is the stem Inflects compares: a Russian word without its
// longest case or number ending, at least three letters long ("тьме",
// "тьмы" → "тьм"; "комедий" → "комед"). Unlike Stem it also cuts short
// words, so a search by it finds a short title asked in another case;
// other words come back unchanged.
func FormStem(w string) string {
	if !IsCyrillic(w) {
		return w
	}
	for _, e := range formEndings {
		if strings.HasSuffix(w, e) && utf8.RuneCountInString(w)-utf8.RuneCountInString(e) >= minFormStem {
			return strings.TrimSuffix(w, e)
		}
	}
	return w
}

// englishPlural reports whether plural is the regular plural of one.
func englishPlural(plural, one string) bool {
	if len(one) < 3 {
		return false
	}
	switch plural {
	case one + "s", one + "es":
		return true
	}
	return strings.HasSuffix(one, "y") && plural == one[:len(one)-1]+"ies"
}

// ordinalStems are the beginnings of the Russian and English ordinal words
// from one to twelve, in order.
var ordinalStems = [...][2]string{
	{"перв", "first"}, {"втор", "second"}, {"трет", "third"}, {"четверт", "fourth"},
	{"пят", "fifth"}, {"шест", "sixth"}, {"седьм", "seventh"}, {"восьм", "eighth"},
	{"девят", "ninth"}, {"десят", "tenth"}, {"одиннадцат", "eleventh"}, {"двенадцат", "twelfth"},
}

// Ordinal reads the number a word names as a position: "второй",
// "второго", "втором" and "second" are 2; digits with or without an
// English suffix ("3", "3rd", "21st") are their value. Russian forms are
// matched by their stem and must be whole words, so "пятница" is not 5.
// The second result is false for anything else.
func Ordinal(word string) (int, bool) {
	if n, ok := digitsOrdinal(word); ok {
		return n, true
	}
	for i, st := range ordinalStems {
		if word == st[1] {
			return i + 1, true
		}
		if rest, ok := strings.CutPrefix(word, st[0]); ok && isOrdinalEnding(rest) {
			return i + 1, true
		}
	}
	return 0, false
}

// isOrdinalEnding reports whether rest is what follows an ordinal's stem:
// "ой", "ого", "ом", "ая", "ый"… ("трет" takes "ий", "его", "ьем").
func isOrdinalEnding(rest string) bool {
	switch rest {
	case "ой", "ый", "ий", "ая", "ое", "ого", "ому", "ом", "ые", "ых", "ую",
		"ья", "ье", "ьего", "ьем", "ьему", "ьей", "ью", "ьи", "ьих", "ем", "его", "ему":
		return true
	}
	return false
}

// digitsOrdinal reads "3", "3rd", "21st", "2nd", "4th".
func digitsOrdinal(word string) (int, bool) {
	digits := strings.TrimRight(word, "abcdefghijklmnopqrstuvwxyz")
	suffix := word[len(digits):]
	if digits == "" || len(digits) > 4 {
		return 0, false
	}
	// Digits only: Atoi alone would take "-1" and "+2".
	if strings.TrimLeft(digits, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.Atoi(digits)
	if err != nil {
		return 0, false
	}
	switch suffix {
	case "", "st", "nd", "rd", "th":
		return n, true
	}
	return 0, false
}
