package release

import "strings"

// findTitleStart skips what comes before a title: a leading bracket group
// ("[AniLibria]", "[rutracker.org]"), stray punctuation, and a collection's
// track number ("05 Прослушка", "17. Джеки Браун", "03 - Title"). A number
// only counts as a track number when it looks like one (zero-padded,
// followed by a dot or a dash, or see sortNumber), so "12 Angry Men" and
// "9 рота" keep theirs; it is still remembered in p.lead so a season context
// can make it an episode. A number before a colon is the title's, and so is
// 007, which starts the Russian titles of the Bond films.
func (p *parsed) findTitleStart() {
	i, first := 0, -1
	for i < len(p.toks) {
		switch p.toks[i].kind {
		case kOpen:
			if first < 0 {
				first = i
			}
			i = groupEnd(p.toks, p.groups, int(p.toks[i].num)) + 1
			continue
		case kClose, kPunct, kDash, kSlash:
			i++
			continue
		}
		break
	}
	p.start, p.lead = i, -1
	if first >= 0 && (i >= len(p.toks) || !titleWord(p.toks[i].kind)) && p.wordsOnly(first) {
		p.start = first + 1 // "[REC] (2007)": the bracket held the title
		return
	}
	if i >= len(p.toks) || p.toks[i].kind != kNumber || len(p.core(i)) > 3 {
		return
	}
	t, core := p.toks[i], p.core(i)
	p.lead = i
	padded := len(core) >= 2 && core[0] == '0'
	text := p.norm[t.start:t.end]
	dotted := strings.HasSuffix(text, ".") || strings.HasSuffix(text, ")")
	dashed := i+1 < len(p.toks) && p.toks[i+1].kind == kDash
	if core == "007" || strings.HasSuffix(text, ":") {
		return // the Bond films' "007 Спектр", "007: Координаты «Скайфолл»"
	}
	if padded || dotted || dashed || p.sortNumber(i) {
		p.start = p.skipSeparators(i + 1)
	}
}

// wordsOnly reports whether the bracket group opening at token i holds
// words and no tag.
func (p *parsed) wordsOnly(i int) bool {
	end := groupEnd(p.toks, p.groups, int(p.toks[i].num))
	words := 0
	for j := i + 1; j < end; j++ {
		switch p.toks[j].kind {
		case kWord:
			words++
		case kPunct, kDash:
		default:
			return false
		}
	}
	return words > 0
}

// skipSeparators moves past dashes and commas.
func (p *parsed) skipSeparators(i int) int {
	for i < len(p.toks) && (p.toks[i].kind == kDash || p.toks[i].kind == kPunct) {
		i++
	}
	return i
}

// findTitleEnd ends the title at the first bracket, release tag, season or
// episode marker, the chosen year, or an "aka" that starts another title,
// whichever comes first. A country in brackets right after the title is
// part of it, as in "The Office (US)", which tells two series apart.
func (p *parsed) findTitleEnd() {
	p.end = len(p.toks)
	for j := p.start; j < len(p.toks); j++ {
		if j > p.start && p.countryGroup(j) {
			j += 2
			continue
		}
		if k := p.toks[j].kind; k == kOpen || k == kJunk || k == kEpisode || j == p.yearIdx ||
			j > p.start && k == kWord && p.low(j) == "aka" {
			p.end = j
			return
		}
	}
}

// lostFilmSeason reads LostFilm-style packs, "1883 1 - LostFilm.TV [1080p]":
// a small number ending the title, then a dash and a studio tag, is the
// season, not part of the title.
func (p *parsed) lostFilmSeason() {
	e := p.end
	if e >= len(p.toks) || p.toks[e].cat != catStudio || e-2 <= p.start {
		return
	}
	dash, num := p.toks[e-1], p.toks[e-2]
	if dash.kind != kDash || num.kind != kNumber || len(p.core(e-2)) > 2 {
		return
	}
	p.apply(marker{season: int(num.num), hasSeason: true})
	p.toks[e-2].kind = kEpisode
	if p.marker < 0 {
		p.marker = e - 2
	}
	p.end = e - 2
}

// buildTitles cuts the title tokens [start, end) into the Russian and the
// original title: parts split by "/" first, then a single part split where
// Cyrillic words give way to Latin ones ("Волшебная страна Finding Neverland").
func (p *parsed) buildTitles(start, end int) {
	p.titleRu, p.titleOrig, p.titleRaw, p.translit = "", "", "", false
	a, b := p.trim(start, end-1)
	if a > b {
		return
	}
	parts := 0
	for i := a; i <= b; i++ {
		if p.toks[i].kind != kSlash {
			continue
		}
		p.assignPart(a, i-1)
		a, parts = i+1, parts+1
	}
	if parts == 0 {
		p.splitScripts(a, b)
	} else {
		p.assignPart(a, b)
	}
	p.altTitle(end)
	if p.titleRu == "" && p.titleOrig != "" && p.looksTranslit(start, end-1) {
		p.titleRaw, p.titleOrig, p.translit = p.titleOrig, "", true
	}
}

// assignPart files one "/"-separated part: the first Cyrillic part is the
// Russian title, the first other one the original.
func (p *parsed) assignPart(a, b int) {
	a, b = p.trim(a, b)
	if a > b {
		return
	}
	text := unquote(strings.TrimRight(p.norm[p.toks[a].start:p.toks[b].end], ":;,"))
	sc := p.script(a, b)
	if sc&scriptCyrillic != 0 || sc == scriptNone && p.titleRu == "" && p.titleOrig == "" && p.slashAfter(b) {
		// A first part with no letters is the Russian release's title:
		// "1+1 / Intouchables", "9 / 9".
		setOnce(&p.titleRu, text)
	} else {
		setOnce(&p.titleOrig, text)
	}
}

// unquote drops quotes around a whole title: "Фильм", «Фильм».
func unquote(s string) string {
	for _, q := range [...][2]string{{`"`, `"`}, {"«", "»"}, {"“", "”"}, {"„", "“"}} {
		if len(s) <= len(q[0])+len(q[1]) || !strings.HasPrefix(s, q[0]) || !strings.HasSuffix(s, q[1]) {
			continue
		}
		inner := s[len(q[0]) : len(s)-len(q[1])]
		if !strings.Contains(inner, q[0]) && !strings.Contains(inner, q[1]) {
			return inner
		}
	}
	return s
}

// altTitle reads a title in parentheses right after the title, as in
// "17. Джеки Браун (Jackie Brown) 1997": it fills the missing Russian or
// original title when its script is the other one. Parentheses holding a
// slash, a year or tags (a director pair, a year) are left alone.
func (p *parsed) altTitle(end int) {
	if end >= len(p.toks) || p.toks[end].kind != kOpen {
		return
	}
	g := p.groups[p.toks[end].num]
	if !g.paren || g.close < 0 || g.close-g.open < 2 || g.close-g.open > 14 {
		return
	}
	for i := g.open + 1; i < g.close; i++ {
		if k := p.toks[i].kind; k != kWord && k != kNumber && k != kPunct && k != kDash {
			return
		}
	}
	a, b := g.open+1, g.close-1
	text := p.norm[p.toks[a].start:p.toks[b].end]
	switch s := p.script(a, b); {
	case s == scriptLatin && p.titleRu != "" && p.titleOrig == "":
		p.titleOrig = text
	case s == scriptCyrillic && p.titleOrig != "" && p.titleRu == "":
		p.titleRu = text
	}
}

// trim narrows [a, b] to start and end on a title word.
func (p *parsed) trim(a, b int) (int, int) {
	for a <= b && !titleWord(p.toks[a].kind) {
		a++
	}
	for b >= a && !titleWord(p.toks[b].kind) {
		if b-2 >= a && p.countryGroup(b-2) {
			break // "The Office (US)" keeps its bracket
		}
		b--
	}
	return a, b
}

func titleWord(k kind) bool { return k == kWord || k == kNumber || k == kYear }

// findEpisodeTitle reads the words after the first episode marker, as in
// "Breaking.Bad.S01E01.Pilot.720p" or "Friends - 1x01 - The One Where …".
func (p *parsed) findEpisodeTitle() {
	if p.marker < 0 || p.marker < p.start {
		return
	}
	i := p.marker
	for i < len(p.toks) && (p.toks[i].kind == kEpisode || p.toks[i].kind == kDash || p.toks[i].kind == kPunct) {
		i++
	}
	e := i
	for ; e < len(p.toks) && e != p.yearIdx; e++ {
		if k := p.toks[e].kind; !titleWord(k) && k != kDash && k != kPunct {
			break
		}
	}
	if a, b := p.trim(i, e-1); a <= b {
		p.episodeTitle = p.norm[p.toks[a].start:p.toks[b].end]
	}
}

// countryGroup reports a bracket group at token j holding only the country
// code series titles carry: "(US)", "(UK)", "(AU)", "(NZ)", "(CA)".
func (p *parsed) countryGroup(j int) bool {
	if p.toks[j].kind != kOpen || j+2 >= len(p.toks) || p.groups[p.toks[j].num].close != j+2 {
		return false
	}
	switch p.core(j + 1) {
	case "US", "UK", "AU", "NZ", "CA":
		return true
	}
	return false
}

// slashAfter reports a "/" between alternative titles after token b.
func (p *parsed) slashAfter(b int) bool {
	for j := b + 1; j < p.end && j < len(p.toks); j++ {
		if p.toks[j].kind == kSlash {
			return true
		}
	}
	return false
}
