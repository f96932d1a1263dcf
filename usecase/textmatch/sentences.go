package textmatch

import (
	"strings"
	"unicode"
)

// Sentences splits Russian or English text into sentences, for speech
// spoken one sentence at a time and for engines that take short texts.
// A sentence ends at . ! ? … or "..." (with any quotes and closing
// brackets after the mark) followed by a space, and at every line break.
// It does not end after an abbreviation (т. е., т.к., им., Mr., e.g., vs.),
// an initial (А. С. Пушкин, J. R. R. Tolkien), inside a number (3.14),
// or when the next word starts with a small letter ("г. вышел",
// "Ну… может"). An abbreviation that can close a sentence (др., т. д.,
// etc., and г. after a year: "в 1999 г.") ends one when a capital follows;
// "г. Москва" stays one sentence. Sentences come back trimmed,
// blank ones dropped.
func Sentences(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		out = appendSentences(out, []rune(line))
	}
	return out
}

// appendSentences adds the sentences of one line to out.
func appendSentences(out []string, r []rune) []string {
	start := 0
	for i := 0; i < len(r); i++ {
		if !isTerminator(r[i]) {
			continue
		}
		end := i
		for end < len(r) && isTerminator(r[end]) {
			end++
		}
		for end < len(r) && isCloser(r[end]) {
			end++
		}
		if end < len(r) && !unicode.IsSpace(r[end]) {
			i = end - 1
			continue // 3.14, "e.g.," or a mark inside a word
		}
		if endsSentence(r, i, end) {
			out = appendTrimmed(out, r[start:end])
			start = end
		}
		i = end - 1
	}
	return appendTrimmed(out, r[start:])
}

// endsSentence decides a mark run r[mark:end] followed by a space or the
// end of the line.
func endsSentence(r []rune, mark, end int) bool {
	next := nextWordStart(r, end)
	if next == 0 {
		return true // the end of the line
	}
	if unicode.IsLower(next) {
		return false
	}
	if r[mark] != '.' || end-mark > 1 && r[mark+1] == '.' {
		return true // ! ? … or an ellipsis before a capital
	}
	word := strings.ToLower(wordBefore(r, mark))
	switch {
	case isInitials(wordBefore(r, mark)):
		return false
	case neverFinal[word]:
		return false
	case word == "г" || word == "гг":
		// "1999 г." (a year) may close a sentence; "г. Москва" (город)
		// names a city and never does.
		return endsWithDigit(r[:mark-len([]rune(word))])
	}
	return true
}

// endsWithDigit reports whether the last word of r, past spaces, ends in
// a digit: "в 1999 " or "1990–2000 ".
func endsWithDigit(r []rune) bool {
	i := len(r) - 1
	for i >= 0 && unicode.IsSpace(r[i]) {
		i--
	}
	return i >= 0 && unicode.IsDigit(r[i])
}

// nextWordStart is the first letter or digit after r[from:], past spaces,
// dashes, quotes and brackets; 0 when there is none.
func nextWordStart(r []rune, from int) rune {
	for _, c := range r[from:] {
		if unicode.IsLetter(c) || unicode.IsDigit(c) {
			return c
		}
	}
	return 0
}

// wordBefore is the run of non-space runes before r[mark], without
// opening quotes and brackets: "т.е" for "(т.е.", "Mr" for "Mr.".
func wordBefore(r []rune, mark int) string {
	start := mark
	for start > 0 && !unicode.IsSpace(r[start-1]) {
		start--
	}
	return strings.TrimLeft(string(r[start:mark]), "([{«\"'“„‘")
}

// isInitials reports whether w is one or more single capitals joined by
// dots: "А", "J", "А.С".
func isInitials(w string) bool {
	if w == "" {
		return false
	}
	for _, part := range strings.Split(w, ".") {
		p := []rune(part)
		if len(p) != 1 || !unicode.IsUpper(p[0]) {
			return false
		}
	}
	return true
}

// neverFinal are abbreviations (lower-cased, without the last dot) that do
// not end a sentence even before a capital: a name or a clause follows.
// Those that may end one (др., т. д., ч., etc.) are left out, so a capital
// after them starts a new sentence; a small letter never does. г. and гг.
// end one only after a year (endsSentence).
var neverFinal = map[string]bool{
	"т": true, "т.е": true, "т.к": true, "т.н": true, "т.ч": true, "е": true, "к": true,
	"им": true, "ул": true, "проф": true, "акад": true, "см": true, "ср": true, "напр": true,
	"стр": true, "гл": true, "рис": true, "св": true, "тов": true, "г-н": true, "г-жа": true,
	"mr": true, "mrs": true, "ms": true, "dr": true, "prof": true, "st": true, "vs": true,
	"e.g": true, "i.e": true, "cf": true, "fig": true, "sr": true, "mt": true,
}

// isTerminator reports a rune that may end a sentence.
func isTerminator(c rune) bool { return c == '.' || c == '!' || c == '?' || c == '…' }

// isCloser reports a closing quote or bracket that stays with the
// sentence it closes: «Стой!» or (see above.)
func isCloser(c rune) bool {
	switch c {
	case '"', '\'', '»', '“', '”', '’', ')', ']', '}':
		return true
	}
	return false
}

// appendTrimmed adds s to out unless it is blank.
func appendTrimmed(out []string, s []rune) []string {
	if t := strings.TrimSpace(string(s)); t != "" {
		out = append(out, t)
	}
	return out
}
