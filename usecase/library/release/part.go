package release

// A miniseries numbers its episodes as parts ("Band.of.Brothers.Part.03.
// Carentan", "The.Night.Of.Part.5.720p.HDTV", "Planet.Earth.II.Pt.II.
// Jungles"), and so does a film split in two ("Dune.Part.Two.2024",
// "Harry.Potter.and.the.Deathly.Hallows.Part.1.2010"). A film's part comes
// with its year; an episode's comes without one, and then either a TV
// source or the series' own folder says which it is.

// partAt finds "Part N" / "Pt N" (N in digits up to 99 or a Roman numeral)
// inside the title of a name without a year, and returns the index of the
// "Part" word and N; -1 when there is none.
func (p *parsed) partAt() (int, int) {
	if p.yearIdx >= 0 || p.hasEpisode {
		return -1, 0
	}
	for k := p.start + 1; k+1 < p.end; k++ {
		if p.toks[k].group >= 0 || p.toks[k].kind != kWord || p.low(k) != "part" && p.low(k) != "pt" {
			continue
		}
		core := p.core(k + 1)
		switch n := romanValue(core); {
		case n > 0:
			return k, n
		case p.toks[k+1].kind == kNumber && len(core) <= 2 && p.toks[k+1].num > 0:
			return k, int(p.toks[k+1].num)
		}
	}
	return -1, 0
}

// partEpisode reads a part with a TV source as an episode:
// "The.Night.Of.Part.5.720p.HDTV".
func (p *parsed) partEpisode() bool {
	if !tvSource(p.source) {
		return false
	}
	k, n := p.partAt()
	if k < 0 {
		return false
	}
	p.setPart(k, n)
	return true
}

// partInFolder reads a part as an episode when the title before it is the
// series folder's, "Band of Brothers/Band.of.Brothers.Part.03.Carentan",
// and no shelf of movies holds it.
func (p *parsed) partInFolder(d *parsed, dirs folders) bool {
	if dirs.movies {
		return false // "Movies/Kill Bill/Kill.Bill.Part.2.DVDRip": a film's part
	}
	k, n := p.partAt()
	if k < 0 || looseFold(p.norm[p.toks[p.start].start:p.toks[k-1].end]) != looseFold(d.display()) {
		return false
	}
	p.setPart(k, n)
	p.buildTitles(p.start, p.end)
	p.findEpisodeTitle()
	return true
}

// setPart makes "Part N" at token k the episode marker.
func (p *parsed) setPart(k, n int) {
	p.setBare(k+1, episodeAt(n))
	p.toks[k].kind = kEpisode
	p.marker = k
	p.end = min(p.end, k)
}

// tvSource reports the sources of a TV broadcast.
func tvSource(source string) bool {
	switch source {
	case "HDTV", "HDTVRip", "TVRip", "SATRip", "IPTVRip", "PPV":
		return true
	}
	return false
}

// romanValue is the value of a capital Roman numeral from I to XX, 0 for
// anything else.
func romanValue(s string) int {
	if !isRoman(s) {
		return 0
	}
	n := 0
	for i := 0; i < len(s); i++ {
		v := romanDigit(s[i])
		if i+1 < len(s) && romanDigit(s[i+1]) > v {
			v = -v
		}
		n += v
	}
	if n > 20 {
		return 0
	}
	return n
}

func romanDigit(c byte) int {
	switch c {
	case 'I':
		return 1
	case 'V':
		return 5
	case 'X':
		return 10
	}
	return 50
}
