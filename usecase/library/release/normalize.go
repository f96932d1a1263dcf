package release

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Limits that keep the parser's work bounded whatever a disk throws at it.
const (
	maxNameBytes = 512 // longer names are cut; real release names are shorter
	maxTokens    = 96  // tokens past this are ignored
	maxParents   = 16  // folder levels looked at for a category
)

// normalize turns a raw name into the single-spaced form the tokenizer reads:
// valid UTF-8 in NFC (macOS writes names decomposed), the video extension of a
// file and a leading site name ("www.site.org - ") dropped, underscores and
// word-separating dots turned into spaces, every dash variant written as '-',
// control and format characters gone.
func normalize(name string, file bool) string {
	if len(name) > maxNameBytes {
		name = name[:maxNameBytes]
	}
	if !isASCII(name) { // ASCII is valid UTF-8 in NFC already
		name = norm.NFC.String(strings.ToValidUTF8(name, ""))
	}
	if file {
		name = stripExt(name)
	}
	name = stripSite(name)
	if file {
		name = spacePartSuffix(name)
	}
	if dashJoined(name) {
		name = strings.ReplaceAll(name, "-", " ")
	}
	dotted := dotsAreSpaces(name)
	if isClean(name) {
		return name
	}
	var b strings.Builder
	b.Grow(len(name))
	space := true // drops leading spaces and collapses runs
	for i, r := range name {
		switch {
		case r == '_' || r == ' ' || r < 0x20 || r >= 0x7f && (unicode.IsSpace(r) || unicode.IsControl(r)),
			r == '.' && dotSeparates(name, i, dotted):
			if !space {
				b.WriteByte(' ')
				space = true
			}
			continue
		case r < 0x80:
			b.WriteByte(byte(r))
		case unicode.Is(unicode.Cf, r) || r == '\uFFFD':
			continue
		case isDashVariant(r):
			b.WriteByte('-')
		default:
			b.WriteRune(r)
		}
		space = false
	}
	return strings.TrimRight(b.String(), " ")
}

// isClean reports whether normalize would leave name as it is, which is
// the common case and saves building a copy.
func isClean(name string) bool {
	if name == "" || name[0] == ' ' || name[len(name)-1] == ' ' {
		return name == ""
	}
	for i, r := range name {
		switch {
		case r == ' ':
			if name[i+1] == ' ' {
				return false
			}
		case r == '_' || r == '.' || r < 0x20 || r == 0x7f:
			return false
		case r >= 0x80 && (unicode.IsSpace(r) || unicode.IsControl(r) || unicode.Is(unicode.Cf, r) ||
			r == '\uFFFD' || isDashVariant(r)):
			return false
		}
	}
	return true
}

func isDashVariant(r rune) bool {
	return r == '–' || r == '—' || r == '‒' || r == '−' || r == '‐'
}

// stripExt drops a known media extension, so ".mkv" never reaches the tokens
// while "Dr.No" or "Movie.1999" keep their last part.
func stripExt(name string) string {
	i := strings.LastIndexByte(name, '.')
	if i < 0 || len(name)-i > 8 {
		return name
	}
	switch strings.ToLower(name[i+1:]) {
	case "mkv", "mp4", "m4v", "avi", "mov", "wmv", "ts", "m2ts", "mts", "mpg", "mpeg",
		"vob", "webm", "flv", "3gp", "divx", "ogm", "ogv", "rm", "rmvb", "iso", "asf",
		"f4v", "torrent":
		return name[:i]
	}
	return name
}

// dashJoined reports a name whose words are joined by hyphens alone, as
// some groups name files ("series-s09e14-1080p"): no space, dot or
// underscore, and one of the parts is a season/episode marker.
func dashJoined(s string) bool {
	if strings.ContainsAny(s, " ._") || strings.Count(s, "-") < 2 {
		return false
	}
	for part := range strings.SplitSeq(s, "-") {
		if _, ok := compactMarker(asciiMarker(strings.ToLower(part))); ok && part != "" {
			return true
		}
	}
	return false
}

// dotsAreSpaces reports whether dots separate words everywhere, as in scene
// names (The.Matrix.1999, show_name_2005.8x12), rather than only between
// words of a spaced name (As Good as It Gets.1997.HDRip, House M.D.).
func dotsAreSpaces(s string) bool {
	dots, spaces := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ':
			spaces++
		case '.':
			if i > 0 && i < len(s)-1 && s[i-1] != '.' && s[i+1] != '.' && s[i-1] != ' ' && s[i+1] != ' ' {
				dots++
			}
		}
	}
	return dots > 0 && dots >= spaces
}

// dotSeparates reports whether the dot at i separates two words. In a
// dotted name every dot does; in a spaced one only a dot between two
// letters or digits ("Gets.1997.HDRip"), so "Mr. Smith" and "Vol. 1" keep
// theirs. Either way a dot stays in H.264, DD5.1 and decimals (4.0, 5.1)
// and between single letters (L.A., S.H.I.E.L.D).
func dotSeparates(s string, i int, dotted bool) bool {
	if keepDot(s, i) {
		return false
	}
	prev, pw := utf8.DecodeLastRuneInString(s[:i])
	next, nw := utf8.DecodeRuneInString(s[i+1:])
	if !isAlnum(prev) || !isAlnum(next) {
		return dotted
	}
	if isDigit(s[i-1]) && isDigit(s[i+1]) {
		return !shortRun(s, i-1, -1) || !shortRun(s, i+1, 1)
	}
	return !(isLetter(prev) && isLetter(next) && singleLetter(s, i-pw, -1) && singleLetter(s, i+1+nw-1, 1))
}

// shortRun reports whether the digit run through s[i], walking in
// direction dir, has one or two digits and is not part of a longer word.
func shortRun(s string, i, dir int) bool {
	n := 0
	for i >= 0 && i < len(s) && isDigit(s[i]) {
		n++
		i += dir
	}
	return n <= 2 && (i < 0 || i >= len(s) || !isASCIILetter(s[i]))
}

// singleLetter reports whether the letter ending (dir -1) or starting
// (dir 1) at byte i stands alone between separators, as in L.A.
func singleLetter(s string, i, dir int) bool {
	var r rune
	if dir < 0 {
		if i <= 0 {
			return true
		}
		r, _ = utf8.DecodeLastRuneInString(s[:i])
	} else {
		if i+1 >= len(s) {
			return true
		}
		r, _ = utf8.DecodeRuneInString(s[i+1:])
	}
	return r == '.' || r == ' ' || r == '_' || r == '-' || r == '(' || r == '[' || r == ')' || r == ']'
}

func isAlnum(r rune) bool { return isLetter(r) || unicode.IsDigit(r) }

// keepDot reports whether the dot at i belongs to a tag that needs it:
// H.264/H.265 and audio channel counts such as DD5.1 or AAC2.0.
func keepDot(s string, i int) bool {
	if i < 1 || i+1 >= len(s) {
		return false
	}
	prev, next := s[i-1], s[i+1]
	if (prev == 'h' || prev == 'H') && (i < 2 || !isASCIILetter(s[i-2])) && strings.HasPrefix(s[i+1:], "26") {
		return true
	}
	if isDigit(prev) && isDigit(next) && i >= 2 && isASCIILetter(s[i-2]) {
		return i+2 >= len(s) || !isDigit(s[i+2])
	}
	return false
}

func isDigit(c byte) bool       { return c >= '0' && c <= '9' }
func isASCIILetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// allDigits reports whether s is a non-empty run of ASCII digits.
func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

// atoi reads a short run of ASCII digits; callers check allDigits and length
// first, so there is no overflow to care about.
func atoi(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		n = n*10 + int(s[i]-'0')
	}
	return n
}

// leadingDigits splits s into its leading digits' value and the rest, failing
// when the run is shorter than lo or longer than hi digits.
func leadingDigits(s string, lo, hi int) (int, string, bool) {
	n := 0
	for n < len(s) && isDigit(s[n]) {
		n++
	}
	if n < lo || n > hi {
		return 0, s, false
	}
	return atoi(s[:n]), s[n:], true
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// spacePartSuffix splits a disc part glued to the title by a hyphen,
// "memento-cd1", so the part reads as a tag and not as the title's end.
func spacePartSuffix(name string) string {
	i := strings.LastIndexByte(name, '-')
	if i <= 0 || len(name)-i > 7 {
		return name
	}
	var buf [8]byte
	low := buf[:0]
	for j := i + 1; j < len(name); j++ {
		low = append(low, name[j]|0x20)
	}
	if partTag(string(low)) == "" {
		return name
	}
	return name[:i] + " " + name[i+1:]
}
