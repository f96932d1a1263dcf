package release

import (
	"strings"
	"unicode"
)

// script is a bit set of the alphabets a run of tokens is written in.
type script uint8

const (
	scriptNone     script = 0
	scriptCyrillic script = 1 << iota
	scriptLatin
)

// script tells which alphabets the tokens a..b use. Roman numerals in
// capitals (II, IV) count as neither, so "Рокки II Rocky II" still splits.
func (p *parsed) script(a, b int) script {
	var s script
	for i := a; i <= b; i++ {
		core := p.core(i)
		if isRoman(core) {
			continue
		}
		for _, r := range core {
			switch {
			case r < 0x80:
				if isASCIILetter(byte(r)) {
					s |= scriptLatin
				}
			case unicode.Is(unicode.Cyrillic, r):
				s |= scriptCyrillic
			case unicode.Is(unicode.Latin, r):
				s |= scriptLatin
			}
		}
	}
	return s
}

func isLetter(r rune) bool {
	if r < 0x80 {
		return isASCIILetter(byte(r))
	}
	return unicode.IsLetter(r)
}

// isRoman reports whether s is a capital Roman numeral such as II or XIV.
func isRoman(s string) bool {
	if s == "" || len(s) > 6 {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case 'I', 'V', 'X', 'L':
		default:
			return false
		}
	}
	return true
}

// looksTranslit guesses whether the Latin title in tokens a..b is Russian
// written in Latin letters ("Polnoch' v Parizhe", "Ironiya sud'by"). It
// scores Russian prepositions and spellings English almost never has (zh,
// kh, shch, a soft sign written as an apostrophe, -aya/-iy/-ogo endings) and
// needs two hits, so "Doctor Zhivago" alone stays English.
func (p *parsed) looksTranslit(a, b int) bool {
	score := 0
	for i := a; i <= b && i < len(p.toks); i++ {
		w := strings.Trim(p.low(i), "-")
		if w == "" {
			continue
		}
		if russianShortWord(w) {
			score++
		}
		score += translitSpelling(w)
		if score >= 2 {
			return true
		}
	}
	return false
}

func russianShortWord(w string) bool {
	switch w {
	case "v", "vo", "na", "ne", "k", "ot", "za", "iz", "bez", "dlya", "ili", "kak",
		"eto", "vse", "vsyo", "chto", "gde", "kto", "moya", "moy", "moi", "tvoy", "ya", "nas", "nam":
		return true
	}
	return false
}

// translitSpelling scores one word: 1 when it has a Russian-only spelling.
func translitSpelling(w string) int {
	if i := strings.IndexByte(w, '\''); i > 0 && !englishApostrophe(w[i+1:]) {
		return 1
	}
	if strings.Contains(w, "zh") || strings.Contains(w, "kh") || strings.Contains(w, "shch") {
		return 1
	}
	if len(w) > 3 {
		for _, end := range [...]string{"yy", "iy", "aya", "ogo", "ykh", "iye", "oye"} {
			if strings.HasSuffix(w, end) {
				return 1
			}
		}
	}
	return 0
}

// englishApostrophe reports whether what follows an apostrophe is an English
// contraction or possessive (Ocean's, Don't, We're).
func englishApostrophe(rest string) bool {
	switch rest {
	case "s", "t", "d", "m", "ll", "re", "ve":
		return true
	}
	return false
}
