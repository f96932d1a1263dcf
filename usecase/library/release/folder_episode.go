package release

// folderEpisode reads a bare number in a file's name as its episode number
// when the folder it sits in is the series' own, with no season marker
// anywhere: the number after the series' name ("Rose Garden/Rose.Garden.05.
// The.Thorn.avi", "Интерны/Интерны 112.avi"), a file that is only a number
// ("Бригада/01.avi"), or a leading number before the series' name or, under
// a shelf of series, before the episode's title ("TV/Blue Coast/03 - Low
// Tide.mkv"). A folder with one year is a movie's ("Джеки Браун (1997)/05.mkv")
// and a file with a year of its own is a movie.
func (p *parsed) folderEpisode(d *parsed, seriesShelf bool) bool {
	if p.hasEpisode || p.hasSeason || p.year != 0 {
		return false
	}
	if k := p.numberAfterName(d); k >= 0 {
		p.setBare(k, episodeAt(int(p.toks[k].num)))
		p.buildTitles(p.start, p.end)
		p.findEpisodeTitle()
		return true
	}
	if p.lead < 0 || p.lead >= p.end && p.display() != "" {
		return false
	}
	switch {
	case p.display() == "":
		if d.year != 0 && !d.yearRange() {
			return false
		}
	case sameTitle(p, d):
	case !seriesShelf || p.start <= p.lead:
		return false
	}
	n := int(p.toks[p.lead].num)
	p.apply(episodeAt(n))
	p.toks[p.lead].kind = kEpisode
	p.marker = p.lead
	p.findEpisodeTitle()
	return true
}

// numberAfterName finds the number that follows the folder's title at the
// start of the file's title, or -1.
func (p *parsed) numberAfterName(d *parsed) int {
	want := fold(d.display())
	if want == "" {
		return -1
	}
	for k := p.start + 1; k < p.end; k++ {
		if p.toks[k].kind != kNumber || p.toks[k].group >= 0 || p.numDigits(k) > 4 {
			continue
		}
		if fold(p.norm[p.toks[p.start].start:p.toks[k-1].end]) == want {
			return k
		}
	}
	return -1
}

// yearRange reports whether the name's year opens a range ("Case Files
// (1996-2007)"), which a series has and a movie does not.
func (p *parsed) yearRange() bool {
	if p.yearIdx < 0 {
		return false
	}
	t := p.toks[p.yearIdx]
	core := p.norm[t.cs:t.ce]
	if len(core) > 4 {
		return true // "1996-2007" in one token
	}
	for j := p.yearIdx + 1; j < len(p.toks) && j <= p.yearIdx+2; j++ {
		if p.toks[j].kind == kYear {
			return true
		}
	}
	return false
}

// isSeriesShelf reports a folder that holds series: "TV", "Series",
// "Сериалы", "TV Shows".
func isSeriesShelf(name string) bool {
	var buf [shortName]byte
	switch string(lowerShort(&buf, name)) {
	case "tv", "tv series", "tv shows", "shows", "series", "serials", "сериалы", "сериал",
		"мультсериалы", "телесериалы", "тв", "тв-шоу", "телешоу":
		return true
	}
	return false
}
