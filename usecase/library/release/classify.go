package release

import (
	"strings"
	"unicode"
)

// classify marks the release tags among the word tokens and records the
// quality, source, codec and other tags they name. The first quality, source
// and codec win; later ones only land in Tags when they are different kinds.
// Weak tags, which are also ordinary words ("Extended", "German", "DC"),
// are only marked here; resolveWeak decides them once the title's start is
// known.
func (p *parsed) classify() {
	for i := 0; i < len(p.toks); i++ {
		t := &p.toks[i]
		low := p.low(i)
		if t.kind != kWord || low == "" {
			continue
		}
		if n := p.phraseAt(i); n > 0 {
			i += n - 1
			continue
		}
		cat, canon, weak := lookupTag(low)
		switch {
		case cat != catNone && weak:
			t.weak = weakWord
			if isCapsWord(p.core(i)) {
				t.weak = weakCaps
			}
		case cat != catNone:
			t.kind, t.cat = kJunk, cat
			p.keep(cat, canon)
		case strings.IndexByte(low, '-') > 0:
			if cat := p.hyphenated(i); cat != catNone {
				t.kind, t.cat = kJunk, cat
			}
		}
	}
}

// Weak tag marks on a token.
const (
	weakNone uint8 = iota
	weakWord       // a weak tag written as a word: a tag only next to another tag
	weakCaps       // a weak tag in capitals: a tag unless it starts the title
)

// resolveWeak decides the weak tags, last to first: one in capitals is a
// tag, one written as a word is a tag when a tag or a season/episode marker
// follows it ("Movie.German.DL.720p", "Night Hunter Unrated DC 720p",
// "Show - Complete Season 2"). The first word of the title is always a
// word ("DC League of Heroes", "Extended Family").
func (p *parsed) resolveWeak() {
	caps := p.hasLowerWord() // capitals only stand out among words in lower case
	for i := len(p.toks) - 1; i >= 0; i-- {
		t := &p.toks[i]
		if t.weak == weakNone || t.kind != kWord || i == p.start {
			continue
		}
		if caps && t.weak == weakCaps || p.tagFollows(i) || p.editionBeforeYear(i) {
			cat, canon, _ := lookupTag(p.low(i))
			t.kind, t.cat = kJunk, cat
			p.keep(cat, canon)
		}
	}
}

// editionBeforeYear reports an edition word right before a year, after
// other title words: "Night.Falls.Unrated.2004", "Movie Extended (2004)".
func (p *parsed) editionBeforeYear(i int) bool {
	j := i + 1
	if j < len(p.toks) && p.toks[j].kind == kOpen {
		j++
	}
	if j >= len(p.toks) || p.toks[j].kind != kYear || i <= p.start || p.onlyStopWords(p.start, i-1) {
		return false
	}
	c, _ := editionTag(p.low(i))
	return c != ""
}

// tagFollows reports whether the token after i, past punctuation, is a tag
// or a marker.
func (p *parsed) tagFollows(i int) bool {
	for j := i + 1; j < len(p.toks); j++ {
		switch p.toks[j].kind {
		case kPunct:
			continue
		case kJunk, kEpisode:
			return true
		}
		return false
	}
	return false
}

// record looks a word up and keeps what it names; catNone when it is no tag
// or a weak one not in capitals.
func (p *parsed) record(low, raw string) junkCat {
	cat, canon, weak := lookupTag(low)
	if cat == catNone || (weak && !isUpper(raw)) {
		return catNone
	}
	p.keep(cat, canon)
	return cat
}

// keep files a recognised tag under its kind.
func (p *parsed) keep(cat junkCat, canon string) {
	switch cat {
	case catQuality:
		setOnce(&p.quality, canon)
	case catSource:
		setOnce(&p.source, canon)
	case catCodec:
		setOnce(&p.codec, canon)
	default:
		p.addTag(canon)
	}
}

// hyphenated reads glued tags such as x264-GROUP, BDRip-AVC or
// rutracker-123: the head must be a tag; a trailing unknown part is the
// release group. Words like Spider-Man stay words.
func (p *parsed) hyphenated(i int) junkCat {
	lows := strings.Split(p.low(i), "-")
	raws := strings.Split(p.core(i), "-")
	if len(lows) != len(raws) || len(lows) > 8 {
		return catNone
	}
	n, cat := p.tagPrefix(lows, raws)
	if n == 0 {
		return catNone
	}
	for n < len(lows) {
		m, _ := p.tagPrefix(lows[n:], raws[n:])
		if m == 0 {
			if n == len(lows)-1 {
				p.addGroup(raws[n])
			}
			break
		}
		n += m
	}
	return cat
}

// tagPrefix finds the longest run of leading parts that is one tag.
func (p *parsed) tagPrefix(lows, raws []string) (int, junkCat) {
	for n := len(lows); n >= 1; n-- {
		if cat := p.record(strings.Join(lows[:n], "-"), strings.Join(raws[:n], "-")); cat != catNone {
			return n, cat
		}
	}
	return 0, catNone
}

// addGroup keeps a scene group name (the GROUP of x264-GROUP).
func (p *parsed) addGroup(raw string) {
	if raw == "" || len(raw) > 24 || allDigits(raw) {
		return
	}
	p.addTag(raw)
}

// addTag appends a tag once.
func (p *parsed) addTag(tag string) {
	for _, t := range p.tags {
		if t == tag {
			return
		}
	}
	p.tags = append(p.tags, tag)
}

func setOnce(dst *string, v string) {
	if *dst == "" {
		*dst = v
	}
}

// hasLowerWord reports whether a word that is no tag has a lower-case
// letter, so that capitals can mark a tag ("Movie.Title.PROPER.720p", but
// not "THE.PROPER.WAY.2020.1080p").
func (p *parsed) hasLowerWord() bool {
	for i := range p.toks {
		if p.toks[i].kind != kWord || p.toks[i].weak != weakNone {
			continue
		}
		for _, r := range p.core(i) {
			if unicode.IsLower(r) {
				return true
			}
		}
	}
	return false
}

// isCapsWord reports a word in capitals with two letters or more: "DC",
// "PROPER", "iTALiAN"-style scene spellings aside. "3D" has one letter, so
// its capital says nothing.
func isCapsWord(s string) bool {
	letters := 0
	for _, r := range s {
		if unicode.IsLetter(r) {
			letters++
		}
	}
	return letters >= 2 && isUpper(s)
}

// onlyStopWords reports whether tokens a..b hold no title word but joining
// words ("The" of "The.Limited.2010").
func (p *parsed) onlyStopWords(a, b int) bool {
	for i := a; i <= b; i++ {
		if titleWord(p.toks[i].kind) && !isStopWord(p.low(i)) {
			return false
		}
	}
	return true
}
