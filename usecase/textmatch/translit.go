package textmatch

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// romanTable is how Romanize spells each lower-case Russian letter: the
// style of release names and passports ("Belyy Veter", "Khrustalyov").
var romanTable = map[rune]string{'а': "a", 'б': "b", 'в': "v", 'г': "g", 'д': "d", 'е': "e", 'ё': "yo", 'ж': "zh",
	'з': "z", 'и': "i", 'й': "y", 'к': "k", 'л': "l", 'м': "m", 'н': "n", 'о': "o", 'п': "p", 'р': "r", 'с': "s",
	'т': "t", 'у': "u", 'ф': "f", 'х': "kh", 'ц': "ts", 'ч': "ch", 'ш': "sh", 'щ': "shch", 'ъ': "", 'ы': "y",
	'ь': "", 'э': "e", 'ю': "yu", 'я': "ya"}

// Romanize writes the Russian letters of s in Latin ones, the way
// release names and most people do ("Белый ветер" → "Belyy veter",
// "Щука" → "Shchuka"); everything else is kept. A capital keeps its
// capital ("Ж" → "Zh"). For comparing spellings use TranslitKey, which
// also accepts the other common romanisations.
func Romanize(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		lower := unicode.ToLower(r)
		t, ok := romanTable[lower]
		switch {
		case !ok:
			b.WriteRune(r)
		case lower != r && t != "":
			b.WriteString(strings.ToUpper(t[:1]) + t[1:])
		default:
			b.WriteString(t)
		}
	}
	return b.String()
}

// keyLetters is the sound each lower-case Russian letter а…я has in a
// TranslitKey, in alphabet order. Letters that romanisations spell in
// several ways get one symbol: й, ы and и are all "i" (y/j/i), х is "h"
// (kh/h), ц is "c" (ts/tz/c), ч "C" (ch/tch), ш and щ "S" (sh, shch,
// sch), ж "Z" (zh); the signs are dropped. я and ю keep an "i" glide that
// foldGlides drops, so ya/ja/ia and yu/ju/iu meet; ё (normally already
// е) is "io", which folds to e.
var keyLetters = [32]string{"a", "b", "v", "g", "d", "e", "Z", "z", "i", "i", "k", "l", "m", "n", "o", "p",
	"r", "s", "t", "u", "f", "h", "c", "C", "S", "S", "", "i", "", "e", "iu", "ia"}

// keyOfRune is the key of one non-ASCII rune: its keyLetters entry, or
// ok false for a rune that is not a Russian letter.
func keyOfRune(r rune) (string, bool) {
	switch {
	case r >= 'а' && r <= 'я':
		return keyLetters[r-'а'], true
	case r == 'ё':
		return "io", true
	}
	return "", false
}

// latinDigraphs are the Latin spellings that stand for one sound of a
// key, longest first within each start letter.
var latinDigraphs = []struct{ from, to string }{
	{"shch", "S"}, {"sch", "S"}, {"sh", "S"}, {"tch", "C"}, {"ch", "C"}, {"zh", "Z"}, {"kh", "h"},
	{"ts", "c"}, {"tz", "c"}, {"ph", "f"},
}

// latinSingles fold Latin letters that stand for a sound the key spells
// otherwise.
var latinSingles = map[byte]string{'j': "i", 'y': "i", 'w': "v", 'q': "k", 'x': "ks"}

// TranslitKey is the spelling-blind key of normalised text (see
// Normalize) in either script: a Russian word and its common
// romanisations get the same key, so "Belyy Veter", "belyj veter" and
// "Белый ветер" all give "beli veter", "Brat" and "Брат" give "brat".
// It folds y/j/i for й, kh/h for х, ts/tz/c for ц, ch, sh, shch/sch, zh,
// yu/ju/iu for ю, ya/ja/ia for я, e/ye/je for е, yo/jo for ё, drops the
// soft and hard signs and doubled letters ("Interstellar" =
// "Интерстеллар"). Different words may share a key ("быть", "бить"): it
// is for fuzzy matching, ranked below exact matches. Words keep their
// order and single spaces; digits are kept.
func TranslitKey(s string) string {
	b := make([]byte, 0, len(s)+len(s)/4)
	for i := 0; i < len(s); {
		c := s[i]
		if c < 0x80 {
			n, out := latinSound(s[i:])
			b = append(b, out...)
			i += n
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if t, ok := keyOfRune(r); ok {
			b = append(b, t...)
		} else {
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return string(foldGlides(collapseDoubles(b)))
}

// latinSound reads one sound from the start of s (ASCII first): a digraph
// of latinDigraphs or one letter, and returns how many bytes it took and
// its key symbols.
func latinSound(s string) (int, string) {
	for _, d := range latinDigraphs {
		if strings.HasPrefix(s, d.from) {
			return len(d.from), d.to
		}
	}
	if t, ok := latinSingles[s[0]]; ok {
		return 1, t
	}
	return 1, s[:1]
}

// collapseDoubles keeps one of each run of the same byte (letters only;
// "2001" keeps its zeros).
func collapseDoubles(b []byte) []byte {
	out := b[:0]
	for i, c := range b {
		if i > 0 && c == b[i-1] && isKeyLetter(c) {
			continue
		}
		out = append(out, c)
	}
	return out
}

// foldGlides drops the "i" glide before a vowel that romanisations write
// as y, j, i or not at all (я = ya/ja/ia/a), then collapses the doubles
// that leaves.
func foldGlides(b []byte) []byte {
	out := b[:0]
	for i := 0; i < len(b); i++ {
		if b[i] == 'i' && i+1 < len(b) && strings.IndexByte("aueo", b[i+1]) >= 0 {
			if b[i+1] == 'o' {
				b[i+1] = 'e' // ё: yo, jo, io and е all become e
			}
			continue
		}
		out = append(out, b[i])
	}
	return collapseDoubles(out)
}

func isKeyLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
