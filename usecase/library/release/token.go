package release

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// kind is what the parser has decided a token is.
type kind uint8

const (
	kWord    kind = iota // an ordinary word: may be part of a title
	kNumber              // digits only, not a plausible year
	kYear                // a year in range: 1999, 2008-2013, 2006г (see yearWord)
	kJunk                // quality, source, codec or another release tag
	kEpisode             // part of a season or episode marker
	kOpen                // ( [ {
	kClose               // ) ] }
	kSlash               // / | \ between alternative titles
	kPunct               // , ; or a word with no letters or digits
	kDash                // a free-standing dash
)

// token is one piece of the normalised name, by byte offsets, so a title cut
// from the name keeps the name's own spelling and punctuation. Tokens hold
// no pointers, which keeps the per-name slice cheap for the collector.
type token struct {
	start, end int32 // the token in the normalised name
	cs, ce     int32 // its core: the token without surrounding punctuation
	group      int32 // innermost bracket group, -1 at top level
	num        int32 // value of a number or year; group index of an opening bracket
	kind       kind
	cat        junkCat // for kJunk: which kind of tag
	weak       uint8   // weakWord or weakCaps for a weak tag not yet decided
}

// group is one bracketed part of the name, by token indices.
type group struct {
	open, close int // close is -1 when the bracket never closes
	paren       bool
}

// core is token i without surrounding punctuation, as written.
func (p *parsed) core(i int) string { return p.norm[p.toks[i].cs:p.toks[i].ce] }

// low is token i's core in lower case, for matching.
func (p *parsed) low(i int) string { return p.lower[p.toks[i].cs:p.toks[i].ce] }

// tokenize splits the normalised name into tokens and bracket groups. Only
// ASCII bytes delimit, so multi-byte runes are never cut.
func (p *parsed) tokenize(maxYear int) {
	s := p.norm
	p.lower = lowerSameLen(s)
	p.toks = make([]token, 0, tokenEstimate(s))
	var stack []int32 // open bracket groups, innermost last
	for i := 0; i < len(s) && len(p.toks) < maxTokens; {
		cur := int32(-1)
		if len(stack) > 0 {
			cur = stack[len(stack)-1]
		}
		switch c := s[i]; {
		case c == ' ':
			i++
		case isDelim(c):
			stack = p.delimiter(c, i, cur, stack)
			i++
		default:
			j := i
			for j < len(s) && !isDelim(s[j]) {
				j++
			}
			p.toks = append(p.toks, p.word(i, j, cur, maxYear))
			i = j
		}
	}
}

// delimiter appends the one-byte token c at i, opening or closing a bracket
// group on the stack, and returns the stack.
func (p *parsed) delimiter(c byte, i int, cur int32, stack []int32) []int32 {
	t := token{start: int32(i), end: int32(i + 1), cs: int32(i), ce: int32(i + 1), group: cur}
	switch c {
	case '(', '[', '{':
		p.groups = append(p.groups, group{open: len(p.toks), close: -1, paren: c == '('})
		t.kind, t.num = kOpen, int32(len(p.groups)-1)
		stack = append(stack, t.num)
	case ')', ']', '}':
		t.kind = kClose
		if cur >= 0 {
			p.groups[cur].close = len(p.toks)
			stack = stack[:len(stack)-1]
		}
	case '/', '|', '\\':
		t.kind = kSlash
	default: // , ;
		t.kind = kPunct
	}
	p.toks = append(p.toks, t)
	return stack
}

// tokenEstimate bounds the number of tokens of s, to size the slice once.
func tokenEstimate(s string) int {
	n := 1
	for i := 0; i < len(s); i++ {
		if isDelim(s[i]) {
			n += 2
		}
	}
	return min(n, maxTokens)
}

func isDelim(c byte) bool {
	switch c {
	case ' ', '(', ')', '[', ']', '{', '}', '/', '|', '\\', ',', ';':
		return true
	}
	return false
}

// lowerSameLen lower-cases s once for all tokens, keeping every byte offset:
// the rare rune whose lower case has another length (İ) stays as it is.
func lowerSameLen(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if b.Cap() > 0 {
				b.WriteByte(lowerASCII(c))
			} else if 'A' <= c && c <= 'Z' {
				b.Grow(len(s))
				b.WriteString(s[:i])
				b.WriteByte(c + 'a' - 'A')
			}
			i++
			continue
		}
		r, w := utf8.DecodeRuneInString(s[i:])
		l := unicode.ToLower(r)
		if utf8.RuneLen(l) != w {
			l = r
		}
		if b.Cap() == 0 && l != r {
			b.Grow(len(s))
			b.WriteString(s[:i])
		}
		if b.Cap() > 0 {
			b.WriteRune(l)
		}
		i += w
	}
	if b.Cap() == 0 {
		return s
	}
	return b.String()
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// isTrimmed reports the characters dropped from both ends of a word for
// matching.
func isTrimmed(r rune) bool {
	switch r {
	case '.', ':', '!', '?', '"', '\'', '*', '#', '№', '~', '`', '«', '»', '„', '“', '”':
		return true
	}
	return false
}

// isDashes reports whether s is all dashes.
func isDashes(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != '-' {
			return false
		}
	}
	return true
}

// word builds the token for s[i:j] and gives it its first kind from its shape.
func (p *parsed) word(i, j int, grp int32, maxYear int) token {
	text := p.norm[i:j]
	left := strings.TrimLeftFunc(text, isTrimmed)
	core := strings.TrimRightFunc(left, isTrimmed)
	cs := i + len(text) - len(left)
	t := token{start: int32(i), end: int32(j), cs: int32(cs), ce: int32(cs + len(core)), group: grp}
	switch {
	case isDashes(text):
		t.kind = kDash
	case core == "" || !hasAlnum(core):
		t.kind = kPunct
	case allDigits(core) && len(core) <= 9:
		t.kind, t.num = kNumber, int32(atoi(core))
		if len(core) == 4 && validYear(int(t.num), maxYear) {
			t.kind = kYear
		}
	case isVersioned(core):
		t.kind, t.num = kNumber, int32(atoi(core[:len(core)-2]))
	case len(core) >= 5 && isDigit(core[0]):
		if y, ok := yearWord(core, maxYear); ok {
			t.kind, t.num = kYear, int32(y)
		}
	}
	return t
}

func hasAlnum(s string) bool {
	for _, r := range s {
		if isLetter(r) || (r >= '0' && r <= '9') {
			return true
		}
	}
	return false
}

// validYear keeps years to film history: 1900 up to next year. 1080, 2160 and
// 720 fall outside by construction.
func validYear(y, maxYear int) bool { return y >= 1900 && y <= maxYear }

// groupEnd is the index of the token that closes group g, or the last token
// when the bracket never closes.
func groupEnd(toks []token, groups []group, g int) int {
	if c := groups[g].close; c >= 0 {
		return c
	}
	return len(toks) - 1
}

// isVersioned reports a fansub's versioned episode number: "05v2".
func isVersioned(s string) bool {
	n := len(s)
	return n >= 3 && n <= 6 && (s[n-2] == 'v' || s[n-2] == 'V') && isDigit(s[n-1]) && allDigits(s[:n-2])
}
