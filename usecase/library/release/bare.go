package release

// bareEpisode reads episode numbers written without an episode marker, in
// the order the patterns are trusted: a dash-separated number, a number
// after a season marker ("Show S2 (2019) - 11") or after the year ("[Group]
// Show (2021) - 05"), a fansub's number ("[Group] Show 14 [CRC32]"), a
// season and episode glued into three or four digits by a scene name
// ("show.name.501.hdtv", "Show [402] Title"), a zero-padded number before
// the tags ("Show 05 [720p]"), a number written "#9" or "№10", a padded
// number after the tags ("Ликвидация.2007.DVDRip.01") and, in a file's
// name, the Russian "03-20". A daily show's air date comes first.
func (p *parsed) bareEpisode(file bool) {
	steps := [...]func() bool{p.airDate, p.partEpisode, p.dashedNumber, p.numberAfterSeason, p.numberAfterYear, p.fansubNumber,
		p.gluedNumber, p.paddedNumber, p.signedNumber, p.trailingNumber}
	for _, step := range steps {
		if p.hasEpisode || step() {
			return
		}
	}
	if file {
		p.seasonDashEpisode()
	}
}

// setBare makes token k an episode number (and season, when given) that
// ends the title.
func (p *parsed) setBare(k int, m marker) {
	p.apply(m)
	p.toks[k].kind = kEpisode
	if p.marker < 0 || p.marker > k {
		p.marker = k
	}
	p.end = min(p.end, k)
	for p.end > p.start && p.toks[p.end-1].kind == kDash {
		p.end--
	}
}

func episodeAt(n int) marker { return marker{episode: n, end: n, hasEpisode: true} }

// numDigits is the number of digits token k starts with: 2 for "05" and
// for "05v2", a fansub's second version of episode 5.
func (p *parsed) numDigits(k int) int {
	core := p.core(k)
	n := 0
	for n < len(core) && isDigit(core[n]) {
		n++
	}
	return n
}

// endsTitle reports whether token k is the last of the title: a bracket,
// a tag, a marker, the year or the end of the name follows it, or an "END"
// that fansubs put after a last episode.
func (p *parsed) endsTitle(k int) bool {
	j := k + 1
	if j < len(p.toks) && p.toks[j].kind == kWord && (p.low(j) == "end" || p.low(j) == "final" || p.low(j) == "fin") {
		j++
	}
	if j >= len(p.toks) || j >= p.end && j == p.end {
		return true
	}
	switch p.toks[j].kind {
	case kOpen, kJunk, kEpisode, kYear:
		return true
	}
	return false
}

// dashedNumber reads "Frieren - 05 (1080p)", "Маша и Медведь - 15 - Маша
// плюс каша", "Tom and Jerry 001 - Puss Gets the Boot": a number of two to
// four digits after a dash (and before a dash or the end of the title), or
// a zero-padded one before a dash. "Apollo 13" and "Агент 007" stay titles.
// A zero-padded number ending the title is remembered in p.trail for a
// season context.
func (p *parsed) dashedNumber() bool {
	for k := p.start + 1; k < p.end; k++ {
		if a, b, ok := parseCount(p.core(k)); ok && b > a && p.toks[k].kind == kWord && p.toks[k-1].kind == kDash &&
			p.numDigits(k) >= 2 && p.endsTitle(k) {
			p.setBare(k, marker{episode: a, end: b, hasEpisode: true}) // "[Group] Show - 01-02"
			return true
		}
		d := p.numDigits(k)
		if p.toks[k].kind != kNumber || d < 2 || d > 4 {
			continue
		}
		dashBefore := p.toks[k-1].kind == kDash
		if b := p.tildeRange(k); dashBefore && b > 0 {
			p.setBare(k, marker{episode: int(p.toks[k].num), end: b, hasEpisode: true}) // "Show - 01 ~ 24"
			return true
		}
		dashAfter := k+1 < p.end && p.toks[k+1].kind == kDash
		padded := p.core(k)[0] == '0'
		if padded && k+1 == p.end {
			p.trail = k
		}
		if dashBefore && (dashAfter || p.endsTitle(k)) || padded && dashAfter {
			p.setBare(k, episodeAt(int(p.toks[k].num)))
			return true
		}
	}
	return false
}

// tildeRange reads the end of a batch written "01 ~ 24" from the number
// at token k: the larger number after a free-standing "~" that ends the
// title; 0 when there is none.
func (p *parsed) tildeRange(k int) int {
	j := k + 2
	if j >= len(p.toks) || p.norm[p.toks[k+1].start:p.toks[k+1].end] != "~" || p.toks[j].kind != kNumber ||
		p.toks[j].num <= p.toks[k].num || !p.endsTitle(j) {
		return 0
	}
	p.toks[j].kind = kEpisode
	return int(p.toks[j].num)
}

// airDate reads a daily show's air date right after the title,
// "The.Daily.Show.2019.03.14.Guest", "Show 2019 03 14": the episode is
// filed under the year as its season, as Sonarr and Plex file daily shows,
// with no episode number.
func (p *parsed) airDate() bool {
	y := p.yearIdx
	if y < 0 || y != p.end || y+1 >= len(p.toks) || p.toks[y].group >= 0 || len(p.core(y)) != 4 {
		return false
	}
	n := 1
	md := p.core(y + 1) // "03.14" keeps its dot as a decimal would
	if y+2 < len(p.toks) && len(md) == 2 && p.toks[y+2].kind == kNumber {
		md, n = md+"."+p.core(y+2), 2
	}
	if len(md) != 5 || md[2] != '.' || !allDigits(md[:2]) || !allDigits(md[3:]) {
		return false
	}
	if m, d := atoi(md[:2]), atoi(md[3:]); m < 1 || m > 12 || d < 1 || d > 31 {
		return false
	}
	p.apply(marker{season: int(p.toks[y].num), hasSeason: true})
	for j := y + 1; j <= y+n; j++ {
		p.toks[j].kind = kEpisode
	}
	p.marker = y + 1
	return true
}
