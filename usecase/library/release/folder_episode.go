package release

import "strings"

// folderEpisode reads a bare number in a file's name as its episode number
// when the folder it sits in is the series' own, with no season marker
// anywhere: the number after the series' name ("Rose Garden/Rose.Garden.05.
// The.Thorn.avi", "Интерны/Интерны 112.avi"), a file that is only a number
// ("Бригада/01.avi"), or a leading number before the series' name or
// before the episode's title ("The Simpsons/02 - Ep Name.avi"). A folder
// with one year is a movie's ("Джеки Браун (1997)/05.mkv") unless a shelf
// of series holds it, a numbered file under a shelf of movies or a
// category is part of a collection, and a file with a year of its own is a
// movie.
func (p *parsed) folderEpisode(d *parsed, dirs folders) bool {
	if p.hasEpisode || p.hasSeason || p.year != 0 {
		return false
	}
	if k := p.numberAfterName(d); k >= 0 {
		p.setBare(k, episodeAt(int(p.toks[k].num)))
		p.buildTitles(p.start, p.end)
		p.findEpisodeTitle()
		return true
	}
	if p.lead < 0 || p.lead >= p.end && p.display() != "" || dirs.movies {
		return false
	}
	padded := p.core(p.lead)[0] == '0'
	switch {
	case p.display() == "":
		if d.year != 0 && !d.yearRange() && !dirs.shelf {
			return false
		}
	case sameTitle(p, d):
	case p.start <= p.lead || !dirs.shelf && (!padded || dirs.category != ""):
		return false // a collection: "Мультфильмы/Трое из Простоквашино/02 Каникулы в Простоквашино.avi"
	}
	n := int(p.toks[p.lead].num)
	p.apply(episodeAt(n))
	p.toks[p.lead].kind = kEpisode
	p.marker = p.lead
	p.findEpisodeTitle()
	return true
}

// seasonBeforeNumber reads "The Simpsons/The Simpsons 5 - 02 - Ep Name.avi":
// the title is the series folder's title and a number, which is the
// season of the episode that follows.
func (p *parsed) seasonBeforeNumber(d *parsed) {
	_, k := p.trim(p.start, p.end-1)
	if !p.hasEpisode || p.hasSeason || k <= p.start || p.toks[k].kind != kNumber || p.numDigits(k) > 2 {
		return
	}
	if looseFold(p.norm[p.toks[p.start].start:p.toks[k-1].end]) != looseFold(d.display()) {
		return
	}
	p.apply(marker{season: int(p.toks[k].num), hasSeason: true})
	p.toks[k].kind = kEpisode
	p.end = k
	p.buildTitles(p.start, p.end)
}

// startsWithTitle reports whether the file's title begins with the folder's
// title, "and" and "&" alike: "Kaamelott - Livre V" in "Kaamelott", "Ren And
// Stimpy - Black Hole" in "Ren & Stimpy".
func startsWithTitle(f, d *parsed) bool {
	want := looseFold(d.display())
	return want != "" && strings.HasPrefix(looseFold(f.display()), want)
}

// looseFold is fold with the words "and", "и" and "the" dropped.
func looseFold(s string) string {
	var b strings.Builder
	for w := range strings.FieldsSeq(s) {
		switch strings.ToLower(strings.Trim(w, ".,:;!?")) {
		case "and", "и", "the", "&":
			continue
		}
		b.WriteString(fold(w))
	}
	return b.String()
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

// shelfOf reports whether a folder holds series ("TV", "Series",
// "Сериалы", "TV Shows") or movies ("Movies", "Фильмы", "Кино").
func shelfOf(name string) (series, movies bool) {
	var buf [shortName]byte
	switch string(lowerShort(&buf, name)) {
	case "tv", "tv series", "tv shows", "shows", "series", "serials", "сериалы", "сериал",
		"мультсериалы", "телесериалы", "тв", "тв-шоу", "телешоу":
		return true, false
	case "movies", "movie", "films", "film", "фильмы", "кино", "кинофильмы", "cinema":
		return false, true
	}
	return false, false
}
