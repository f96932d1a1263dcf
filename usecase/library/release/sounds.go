package release

import (
	"strings"
	"unicode/utf8"
)

// soundsAlike reports whether the first Cyrillic word of tokens a.. and the
// Latin word at token k are one name in two alphabets: their consonants
// agree once the Cyrillic one is written in Latin letters ("Аватар"
// avatar, "Титаник" titanic, "Джокер" joker). A translation ("Брат" brother) or an unrelated word
// ("Наша Russia") does not.
func (p *parsed) soundsAlike(a, k int) bool {
	for i := a; i < k; i++ {
		if p.tokScript(i) == scriptCyrillic {
			sk := skeleton(p.low(k))
			return len(sk) >= 2 && sk == skeleton(romanize(p.low(i), 4*len(p.low(i))))
		}
	}
	return false
}

// cyrLatin spells the Russian lower-case letters in Latin, а to я.
var cyrLatin = [...]string{"a", "b", "v", "g", "d", "e", "zh", "z", "i", "y", "k", "l", "m", "n", "o", "p",
	"r", "s", "t", "u", "f", "h", "ts", "ch", "sh", "sch", "", "y", "", "e", "yu", "ya"}

// romanize writes lower-case Russian in Latin letters, up to about limit
// bytes; other letters are kept as they are.
func romanize(w string, limit int) string {
	var b strings.Builder
	for i := 0; i < len(w) && b.Len() < limit; {
		r, n := utf8.DecodeRuneInString(w[i:])
		i += n
		switch {
		case r >= 'а' && r <= 'я':
			b.WriteString(cyrLatin[r-'а'])
		case r == 'ё':
			b.WriteByte('e')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// skeleton reduces a Latin spelling to its consonants, with the letters
// transliteration schemes disagree on merged or dropped (vowels, y, h, soft
// signs dropped; c, k, q and x alike; zh, dzh and j alike), so "Dzhentlmeny udachi" and the romanized
// "Джентльмены удачи" meet whatever scheme wrote the file's name.
func skeleton(s string) string {
	var b strings.Builder
	var last byte
	for i := 0; i < len(s); i++ {
		c := s[i] | 0x20
		switch rest := strings.ToLower(s[i:min(len(s), i+3)]); {
		case strings.HasPrefix(rest, "dzh"):
			c, i = 'j', i+2 // дж
		case strings.HasPrefix(rest, "zh"), strings.HasPrefix(rest, "dj"):
			c, i = 'j', i+1 // ж, дж
		}
		switch c {
		case 'a', 'e', 'i', 'o', 'u', 'y', 'h', 'w':
			continue
		case 'c', 'q':
			c = 'k'
		case 'x':
			c = 'k'
		}
		if c < 'a' || c > 'z' && c < 0x80 || s[i] >= 0x80 {
			if !isDigit(s[i]) {
				continue
			}
			c = s[i]
		}
		if c != last {
			b.WriteByte(c)
			last = c
		}
	}
	return b.String()
}

// translitOf reports whether the Latin title lat is the Russian title ru
// written in Latin letters, by any common scheme. One word is not enough:
// "Avatar" is the original of "Аватар" as much as its spelling.
func translitOf(lat, ru string) bool {
	if len(lat) > 4*len(ru)+8 || !strings.ContainsRune(strings.TrimSpace(lat), ' ') {
		return false
	}
	sk := skeleton(lat)
	return len(sk) >= 3 && sk == skeleton(romanize(strings.ToLower(ru), 4*len(ru)))
}
