package release

import "strings"

// classify marks the release tags among the word tokens and records the
// quality, source, codec and other tags they name. The first quality, source
// and codec win; later ones only land in Tags when they are different kinds.
func (p *parsed) classify() {
	for i := range p.toks {
		t := &p.toks[i]
		low := p.low(i)
		if t.kind != kWord || low == "" {
			continue
		}
		if cat := p.record(low, p.core(i)); cat != catNone {
			t.kind, t.cat = kJunk, cat
			continue
		}
		if strings.IndexByte(low, '-') > 0 {
			if cat := p.hyphenated(i); cat != catNone {
				t.kind, t.cat = kJunk, cat
			}
		}
	}
}

// record looks a word up and keeps what it names; catNone when it is no tag.
func (p *parsed) record(low, raw string) junkCat {
	cat, canon, weak := lookupTag(low)
	if cat == catNone || (weak && !isUpper(raw)) {
		return catNone
	}
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
	return cat
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
