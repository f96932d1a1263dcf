// Package textmatch normalises titles and queries so that people find what
// they mean whatever the case, accents, punctuation or release-name dots:
// "Ёлки" finds "елки", "the.matrix" finds "The Matrix", "Amélie" finds
// "Amelie". The catalogue search, the files filter and duplicate detection
// all compare through Normalize, so they agree with each other.
package textmatch

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Normalize lower-cases s, folds ё to е, strips accents (but keeps the
// breve of й, which is a letter of its own in Russian), turns every rune
// that is not a letter or digit into a space and collapses the spaces.
// Invalid UTF-8 bytes count as separators.
func Normalize(s string) string {
	if isPlainASCII(s) {
		return normalizeASCII(s)
	}
	var b strings.Builder
	b.Grow(len(s))
	pendingSpace := false
	var prev rune
	for _, r := range norm.NFKD.String(strings.ToValidUTF8(s, " ")) {
		if unicode.Is(unicode.Mn, r) {
			if r == '\u0306' && (prev == 'и' || prev == 'И') {
				replaceLast(&b, 'й')
			}
			continue
		}
		prev = r
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			pendingSpace = b.Len() > 0
			continue
		}
		if pendingSpace {
			b.WriteByte(' ')
			pendingSpace = false
		}
		r = unicode.ToLower(r)
		if r == 'ё' {
			r = 'е'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// replaceLast swaps the last rune written to b (an и) for r.
func replaceLast(b *strings.Builder, r rune) {
	s := b.String()
	_, size := utf8.DecodeLastRuneInString(s)
	s = s[:len(s)-size] + string(r)
	b.Reset()
	b.WriteString(s)
}

func isPlainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// normalizeASCII is Normalize for pure ASCII input, which is most release
// names; it avoids the Unicode decomposition.
func normalizeASCII(s string) string {
	b := make([]byte, 0, len(s))
	pendingSpace := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'A' && c <= 'Z':
			c += 'a' - 'A'
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
		default:
			pendingSpace = len(b) > 0
			continue
		}
		if pendingSpace {
			b = append(b, ' ')
			pendingSpace = false
		}
		b = append(b, c)
	}
	return string(b)
}

// Match is how well a normalised field matches a normalised query; lower is
// better.
type Match int

// The match grades of the catalogue's ranking, best first.
const (
	Exact     Match = iota // the field is the query
	Prefix                 // the field starts with the query
	Word                   // the query starts at a later word of the field
	Substring              // the query is inside a word of the field
	NoMatch
)

// Grade reports how field matches query; both must already be normalised.
// An empty query matches nothing.
func Grade(field, query string) Match {
	if query == "" || len(query) > len(field) {
		return NoMatch
	}
	if field == query {
		return Exact
	}
	if strings.HasPrefix(field, query) {
		return Prefix
	}
	best := NoMatch
	for i := strings.Index(field, query); i >= 0; {
		if field[i-1] == ' ' {
			return Word
		}
		best = Substring
		next := strings.Index(field[i+1:], query)
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return best
}
