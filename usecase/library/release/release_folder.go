package release

import (
	"slices"
	"strings"
)

// fromReleaseFolder returns the parse of the release folder a file sits in
// when the file's own name says less and looks obfuscated or abbreviated:
// "Show.S17E08.1080p-GRP/c48db7d2e1.mkv", "Film.Name.DVDRip-GRP/grp-fn.avi".
// The folder must read as a release (a tag, a marker), and the file must
// carry no year and no marker of its own. The file's own tags are kept.
// Otherwise it returns f.
func fromReleaseFolder(f, d *parsed) *parsed {
	if d == nil || f.year != 0 || f.hasSeason || f.hasEpisode || f.display() == "" || sameTitle(f, d) ||
		!d.isRelease() || !f.obfuscated() {
		return f
	}
	g := *d
	g.toks = slices.Clone(d.toks)
	g.tags = slices.Clone(d.tags)
	for _, t := range f.tags {
		g.addTag(t)
	}
	setOnce(&g.quality, f.quality)
	setOnce(&g.source, f.source)
	setOnce(&g.codec, f.codec)
	return &g
}

// isRelease reports a name that reads as a release: it has a title and a
// quality, source, codec or season/episode marker.
func (p *parsed) isRelease() bool {
	return p.display() != "" && (p.quality != "" || p.source != "" || p.codec != "" || p.hasSeason || p.hasEpisode)
}

// obfuscated reports a file title that names nothing a person would read:
// a hash ("c48db7d2e1", "5d41402abc4b2a76"), a short mix of letters and
// digits ("hp309"), initials in lower case before a disc part ("mim-cd1";
// alone, "brat" may be a title), or a scene group's
// abbreviation in lower case ("grp-fn", "arw-qh", "sparks-tshr-720p", "esd-somestory").
func (p *parsed) obfuscated() bool {
	t := p.titleRaw
	if t == "" {
		t = p.display()
	}
	if strings.ContainsRune(t, ' ') {
		first, _, _ := strings.Cut(t, " ")
		return groupPrefixed(first) && isLowerASCII(t)
	}
	return isHashLike(t) || isShortCode(t) || isLowerInitials(t) && p.hasPartTag() || groupPrefixed(t) && isLowerASCII(t)
}

// hasPartTag reports a disc part among the name's tags (CD1, Disc2).
func (p *parsed) hasPartTag() bool {
	for _, t := range p.tags {
		if partTag(strings.ToLower(t)) != "" {
			return true
		}
	}
	return false
}

// isLowerInitials reports a title's initials in lower case, "mim" for
// "Мастер и Маргарита": two to four letters and nothing else.
func isLowerInitials(s string) bool {
	if len(s) < 2 || len(s) > 4 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return true
}

// isHashLike reports letters and digits mixed the way a hash mixes them:
// at least six characters with two digits or more and a letter, and no
// run of more than four letters.
func isHashLike(s string) bool {
	if len(s) < 6 {
		return false
	}
	digits, letters, run := 0, 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case isDigit(c):
			digits, run = digits+1, 0
		case isASCIILetter(c):
			letters, run = letters+1, run+1
			if run > 4 {
				return false
			}
		default:
			return false
		}
	}
	return digits >= 2 && letters >= 1
}

// isShortCode reports an abbreviation such as "hp309": two to four letters
// followed by digits, six characters at most.
func isShortCode(s string) bool {
	if len(s) > 6 {
		return false
	}
	n := 0
	for n < len(s) && isASCIILetter(s[n]) {
		n++
	}
	return n >= 2 && n <= 4 && n < len(s) && allDigits(s[n:])
}

// groupPrefixed reports a word that starts with a scene group's tag and a
// hyphen: "grp-fn", "dmd-lr", "sparks-tshr-720p".
func groupPrefixed(s string) bool {
	head, rest, ok := strings.Cut(s, "-")
	if !ok || rest == "" || len(head) < 2 || len(head) > 9 {
		return false
	}
	for i := 0; i < len(head); i++ {
		if !isASCIILetter(head[i]) {
			return false
		}
	}
	return true
}

func isLowerASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x80 || 'A' <= c && c <= 'Z' {
			return false
		}
	}
	return true
}

// isGenericTitle reports a file title that only says what the file is
// ("movie.mkv", "Фильм.avi"), which a movie folder's title replaces.
func isGenericTitle(s string) bool {
	var buf [shortName]byte
	switch string(lowerShort(&buf, s)) {
	case "movie", "film", "video", "фильм", "видео", "main", "feature", "full movie", "main movie":
		return true
	}
	return false
}

// isPartFolder reports a folder that holds one part of a film ("CD1",
// "Disc 2", "DVD1"): it names nothing, the folder above it does.
func isPartFolder(name string) bool {
	var buf [shortName]byte
	low := strings.ReplaceAll(string(lowerShort(&buf, name)), " ", "")
	return partTag(low) != ""
}
