package catalog

import (
	"strings"
	"unicode/utf8"
)

// packText re-encodes normalised text so that substring search over
// Russian titles is fast: in UTF-8 every Cyrillic letter starts with one
// of two bytes, so strings.Index finds a candidate at nearly every letter;
// packed, the 32 lower-case letters а…я are the single bytes 0x80…0x9F.
// ASCII (letters, digits, space) stays as it is; any other rune becomes
// 0xFE and four base-62 digits in 0xC0…0xFD. The codes never overlap and
// 0xFE appears only as a marker, so a match always starts on a letter and
// substring, prefix and word relations are exactly those of the original.
func packText(s string) string {
	if isASCII(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case r < utf8.RuneSelf:
			b.WriteByte(byte(r))
		case r >= 'а' && r <= 'я':
			b.WriteByte(byte(0x80 + r - 'а'))
		default:
			v := int(r)
			b.WriteByte(0xFE)
			b.WriteByte(byte(0xC0 + v/(62*62*62)%62))
			b.WriteByte(byte(0xC0 + v/(62*62)%62))
			b.WriteByte(byte(0xC0 + v/62%62))
			b.WriteByte(byte(0xC0 + v%62))
		}
	}
	return b.String()
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
