package release

import (
	"strings"

	"mediateka/usecase/textmatch"
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
			return len(sk) >= 2 && sk == skeleton(textmatch.Romanize(p.low(i)))
		}
	}
	return false
}

// skeleton reduces a Latin spelling to its consonants, with the letters
// transliteration schemes disagree on merged or dropped (vowels, y, h and kh, soft
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
		case strings.HasPrefix(rest, "kh"):
			c, i = 'h', i+1 // х, which other schemes spell h
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
	return len(sk) >= 3 && sk == skeleton(textmatch.Romanize(strings.ToLower(ru)))
}
