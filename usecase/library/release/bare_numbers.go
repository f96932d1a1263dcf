package release

// numberAfterSeason reads an episode number that follows a season marker,
// past the year and a dash: "Show S2 (2019) - 11 (720p)", "Show Season 2 -
// 08", "[Group] Show 2nd Season - 07". Without a dash the number must end
// the name or come before a bracket or a tag.
func (p *parsed) numberAfterSeason() bool {
	if !p.hasSeason || p.marker < 0 || p.toks[p.marker].group >= 0 {
		return false
	}
	j := p.marker
	for j < len(p.toks) && p.toks[j].kind == kEpisode {
		j++
	}
	j = p.skipYearGroup(j)
	dash := false
	for j < len(p.toks) && p.toks[j].kind == kDash {
		dash, j = true, j+1
	}
	if j >= len(p.toks) || p.toks[j].kind != kNumber || p.toks[j].group >= 0 || p.numDigits(j) > 4 {
		return false
	}
	if !dash && !p.endsTitle(j) {
		return false
	}
	p.apply(episodeAt(int(p.toks[j].num)))
	p.toks[j].kind = kEpisode
	return true
}

// numberAfterYear reads "[Group] Show (2021) - 05 [1080p]", "[Group] Show
// (TV) - 05": the title ends at the year or a short bracket, and a dash
// and a number follow it.
func (p *parsed) numberAfterYear() bool {
	j := p.end
	if j >= len(p.toks) || j == p.yearIdx && p.toks[j].group < 0 {
		j++
	} else if j = p.skipShortGroup(j); j == p.end {
		return false
	}
	if j >= len(p.toks) || p.toks[j].kind != kDash {
		return false
	}
	for j < len(p.toks) && p.toks[j].kind == kDash {
		j++
	}
	if j >= len(p.toks) || p.toks[j].kind != kNumber || p.numDigits(j) < 2 || p.numDigits(j) > 4 || !p.endsTitle(j) {
		return false
	}
	p.apply(episodeAt(int(p.toks[j].num)))
	p.toks[j].kind = kEpisode
	if p.marker < 0 {
		p.marker = j
	}
	return true
}

// skipYearGroup steps over a bracket group at j that holds only a year.
func (p *parsed) skipYearGroup(j int) int {
	if j >= len(p.toks) || p.toks[j].kind != kOpen {
		return j
	}
	g := p.groups[p.toks[j].num]
	if g.close == j+2 && p.toks[j+1].kind == kYear {
		return g.close + 1
	}
	return j
}

// skipShortGroup steps over a bracket group at j that holds a year or one
// or two words and nothing else ("(2021)", "(TV)", "(US)").
func (p *parsed) skipShortGroup(j int) int {
	if k := p.skipYearGroup(j); k != j || j >= len(p.toks) || p.toks[j].kind != kOpen {
		return k
	}
	g := p.groups[p.toks[j].num]
	if g.close < 0 || g.close-j > 3 {
		return j
	}
	for k := j + 1; k < g.close; k++ {
		if p.toks[k].kind != kWord {
			return j
		}
	}
	return g.close + 1
}

// gluedNumber reads a season and episode glued into one number by a scene
// name: "show.name.501.hdtv" (S05E01), "Northern.Border.1014.HDTV" (S10E14),
// "Gallery 0807 The Receipt" (S08E07). The number follows the title's
// first word and comes before a tag or an episode title; a year after it
// makes it part of a movie title ("Room.237.2012"), and four digits count
// only up to season 19 ("Blade.Runner.2049.1080p" stays a title). A film's
// source (a disc, a cinema recording) makes it a title too:
// "Boeing.747.DVDRip" is a film, while the glued form belongs to broadcast
// TV ("house.412.hdtv"); a series folder can still make it an episode.
func (p *parsed) gluedNumber() bool {
	if p.hasSeason {
		return false
	}
	if p.bracketedGlued() {
		return true
	}
	if filmSource(p.source) {
		return false
	}
	for k := p.start + 1; k < p.end; k++ {
		t := p.toks[k]
		d := p.numDigits(k)
		if t.kind != kNumber || t.group >= 0 || (d != 3 && d != 4) || len(p.core(k)) != d {
			continue
		}
		season, ep := int(t.num)/100, int(t.num)%100
		if season == 0 || season > 19 || ep == 0 || p.yearAfter(k) {
			continue
		}
		next := kind(kJunk)
		if k+1 < len(p.toks) {
			next = p.toks[k+1].kind
		} else if d == 3 || p.core(k)[0] != '0' {
			continue // "Room 237.mkv", "Film 1080.mkv": nothing says episode
		}
		if next == kJunk || next == kOpen && p.core(k+1) == "[" || next == kWord && (d == 4 || p.hasTagAfter(k)) {
			p.setBare(k, marker{season: season, hasSeason: true, episode: ep, end: ep, hasEpisode: true})
			return true
		}
	}
	return false
}

// filmSource reports the sources a film comes from rather than a TV
// broadcast: discs, disc rips and cinema recordings.
func filmSource(source string) bool {
	switch source {
	case "BluRay", "BDRip", "BRRip", "BDRemux", "DVDRip", "DVD", "DVDScr", "UHDRip", "VHSRip",
		"CAMRip", "TS", "TC", "R5", "HDDVD":
		return true
	}
	return false
}

// bracketedGlued reads "The Backyard [402] Lost Keys": the bracket ending
// the title holds only a glued season and episode.
func (p *parsed) bracketedGlued() bool {
	j := p.end
	if j >= len(p.toks) || j == p.start || p.toks[j].kind != kOpen {
		return false
	}
	g := p.groups[p.toks[j].num]
	k := j + 1
	if g.close != k+1 || p.toks[k].kind != kNumber || len(p.core(k)) != 3 && len(p.core(k)) != 4 {
		return false
	}
	season, ep := int(p.toks[k].num)/100, int(p.toks[k].num)%100
	if season == 0 || season > 19 || ep == 0 {
		return false
	}
	p.apply(marker{season: season, hasSeason: true, episode: ep, end: ep, hasEpisode: true})
	p.toks[k].kind = kEpisode
	p.marker = k
	return true
}

// yearAfter reports whether a year token follows token k.
func (p *parsed) yearAfter(k int) bool {
	for j := k + 1; j < len(p.toks); j++ {
		if p.toks[j].kind == kYear {
			return true
		}
	}
	return false
}

// hasTagAfter reports whether a release tag follows token k.
func (p *parsed) hasTagAfter(k int) bool {
	for j := k + 1; j < len(p.toks); j++ {
		if p.toks[j].kind == kJunk {
			return true
		}
	}
	return false
}

// fansubNumber reads the episode number ending the title of a fansub
// release, recognised by its leading group or its CRC32 in brackets:
// "[Group] Show 03 [720p]", "Show_Name_14_[DVD][ABCD1234]". One digit is
// not enough ("[Group] Movie 2 [1080p]"), and a number right before a season
// marker is the title's.
func (p *parsed) fansubNumber() bool {
	k := p.end - 1
	if k <= p.start || p.toks[k].kind != kNumber || p.numDigits(k) < 2 || p.numDigits(k) > 4 || !p.fansub() {
		return false
	}
	if p.end < len(p.toks) && p.toks[p.end].kind == kEpisode {
		return false // "[Group] Mob Psycho 100 Second Season": the title's number
	}
	p.setBare(k, episodeAt(int(p.toks[k].num)))
	return true
}

// fansub reports the marks of a fansub release: a leading [Group] or a
// CRC32 checksum in brackets.
func (p *parsed) fansub() bool {
	if len(p.toks) > 0 && p.toks[0].kind == kOpen && p.core(0) == "[" && p.start > 0 {
		return true
	}
	for _, g := range p.groups {
		if g.close == g.open+2 && isCRC(p.core(g.open+1)) {
			return true
		}
	}
	return false
}

// isCRC reports eight hexadecimal digits, the CRC32 fansubs append.
func isCRC(s string) bool {
	if len(s) != 8 {
		return false
	}
	digits := 0
	for i := 0; i < len(s); i++ {
		c := s[i] | 0x20
		switch {
		case isDigit(s[i]):
			digits++
		case c < 'a' || c > 'f':
			return false
		}
	}
	return digits > 0 || isUpper(s)
}

// paddedNumber reads a zero-padded two-digit number that ends the title,
// before the tags or at the end, in a name without a year: "Ocean Patrol 05
// [720p]", "Brigada.01". "Агент 007" has three digits and stays a title. A
// bracket holding one or two digits after the title is an episode number
// too: "Бригада [03]", and one holding a padded range is a batch of them:
// "[Group] Show [01-25]".
func (p *parsed) paddedNumber() bool {
	if p.yearIdx >= 0 {
		return false
	}
	if j := p.end; j < len(p.toks) && p.toks[j].kind == kOpen && j > p.start {
		g := p.groups[p.toks[j].num]
		if k := j + 1; g.close == k+1 && p.toks[k].kind == kNumber && len(p.core(k)) <= 2 && p.toks[k].num > 0 {
			p.setBare(k, episodeAt(int(p.toks[k].num)))
			return true
		}
		if k := j + 1; g.close == k+1 && p.toks[k].kind == kWord && p.core(k)[0] == '0' {
			if a, b, ok := parseCount(p.core(k)); ok && b > a {
				p.setBare(k, marker{episode: a, end: b, hasEpisode: true}) // a batch: "Show [01-25] [720p]"
				return true
			}
		}
	}
	k := p.end - 1
	if k <= p.start || p.toks[k].kind != kNumber || p.numDigits(k) != 2 || p.core(k)[0] != '0' {
		return false
	}
	p.setBare(k, episodeAt(int(p.toks[k].num)))
	return true
}

// seasonDashEpisode reads the "03-20" (season 3, episode 20) of Russian
// series files: one or two digits, a hyphen, two or three digits, after
// the title. A file holds one episode, so this is no range.
func (p *parsed) seasonDashEpisode() {
	if p.fansub() {
		return // "[Group] Show - 01-02": a range of episodes
	}
	for k := p.start + 1; k < p.end; k++ {
		if p.toks[k].kind != kWord || p.toks[k].group >= 0 || p.toks[k-1].kind == kDash {
			continue
		}
		s, rest, ok := leadingDigits(p.core(k), 1, 2)
		if !ok || len(rest) < 3 || rest[0] != '-' {
			continue
		}
		e, tail, ok := leadingDigits(rest[1:], 2, 3)
		if ok && tail == "" && s > 0 && e > 0 {
			p.setBare(k, marker{season: s, hasSeason: true, episode: e, end: e, hasEpisode: true})
			return
		}
	}
}

// signedNumber reads "Физрук #9", "Физрук №10": a number written with a
// number sign that ends the title of a name without a year ("Легенда №17
// (2013)" is a film).
func (p *parsed) signedNumber() bool {
	_, k := p.trim(p.start, p.end-1)
	if k <= p.start || p.yearIdx >= 0 || p.toks[k].kind != kNumber || p.toks[k].group >= 0 || p.numDigits(k) > 4 {
		return false
	}
	if sign := p.norm[p.toks[k].start:p.toks[k].cs]; sign != "#" && sign != "№" {
		return false
	}
	p.setBare(k, episodeAt(int(p.toks[k].num)))
	return true
}

// trailingNumber reads a zero-padded number that ends the name after the
// year or the tags: "Ликвидация.2007.DVDRip.01", "Ликвидация (2007) 02".
func (p *parsed) trailingNumber() bool {
	k := len(p.toks) - 1
	if k < 1 || k < p.end || p.toks[k].kind != kNumber || p.toks[k].group >= 0 {
		return false
	}
	if d := p.numDigits(k); d < 2 || d > 3 || p.core(k)[0] != '0' {
		return false
	}
	switch p.toks[k-1].kind {
	case kJunk, kYear, kClose:
	default:
		return false
	}
	p.apply(episodeAt(int(p.toks[k].num)))
	p.toks[k].kind = kEpisode
	if p.marker < 0 {
		p.marker = k
	}
	return true
}
