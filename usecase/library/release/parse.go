package release

import "strings"

// parsed is everything read from one name (a file's or a folder's), before
// the folders above a file are taken into account.
type parsed struct {
	norm   string // the normalised name the tokens point into
	lower  string // norm in lower case, byte for byte
	toks   []token
	groups []group

	quality, source, codec string
	tags                   []string

	year, yearIdx int

	season, episode, episodeEnd, total int
	hasSeason, hasEpisode              bool
	marker                             int // first top-level marker token, -1
	episodeWord                        int // "Episode"/"Эпизод" that set the episode, -1

	start, end int // title tokens are [start, end)
	lead       int // leading 1-3 digit number token, -1
	trail      int // zero-padded number ending the title, -1

	titleRu, titleOrig, titleRaw string
	translit                     bool
	episodeTitle                 string
}

// parseName runs the stages on one name: normalise, tokenize, tag,
// season/episode markers, title start, weak tags, year, title end, bare
// episode numbers, titles (see README.md).
func parseName(name string, file bool, maxYear int) *parsed {
	p := &parsed{yearIdx: -1, marker: -1, episodeWord: -1, lead: -1, trail: -1}
	p.norm = normalize(name, file)
	p.tokenize(maxYear)
	p.classify()
	p.findEpisodes()
	p.findTitleStart()
	p.resolveWeak()
	p.chooseYear()
	p.episodeInTitle()
	p.findTitleEnd()
	p.lostFilmSeason()
	p.bareEpisode(file)
	p.buildTitles(p.start, p.end)
	p.findEpisodeTitle()
	if (file && isDiscFile(p.norm)) || isIndexName(p.norm) {
		p.titleRu, p.titleOrig, p.titleRaw, p.translit = "", "", "", false
	}
	return p
}

// isDiscFile recognises the files of a DVD or Blu-ray structure (VIDEO_TS,
// VTS_01_1, BDMV's 00000.m2ts), whose names say nothing about the film.
func isDiscFile(name string) bool {
	if len(name) != 8 && len(name) != 5 && !strings.HasPrefix(name, "VTS ") && !strings.HasPrefix(name, "vts ") {
		return false
	}
	low := strings.ToLower(name)
	return low == "video ts" || strings.HasPrefix(low, "vts ") || (len(low) == 5 && allDigits(low))
}

// display is the best title: Russian, else original, else transliterated.
func (p *parsed) display() string {
	switch {
	case p.titleRu != "":
		return p.titleRu
	case p.titleOrig != "":
		return p.titleOrig
	}
	return p.titleRaw
}

// contextEpisode makes a bare number the episode number once a season
// context says the file is an episode: the leading number of
// "Сезон 1/05 Прослушка.mkv", or the padded one ending
// "Season 01/Breaking Bad 03.mkv". Three or four digits that start with
// the season's own number glue the season to the episode: "Season 3/307.avi"
// is episode 7. Else a number right after the series' title is the episode:
// "Bleach/Season 1/Bleach 125.mkv", "Friends/Season 1/friends.101.dvdrip".
func (p *parsed) contextEpisode(season int, series *parsed) {
	if p.hasEpisode {
		return
	}
	k := p.lead
	if k < 0 || k >= p.end {
		k = p.trail
	}
	if (k < 0 || k >= p.end) && series != nil {
		k = p.numberAfterName(series)
	}
	if k < 0 || k >= p.end {
		return
	}
	n := int(p.toks[k].num)
	if d := len(p.core(k)); (d == 3 || d == 4) && season > 0 && n/100 == season && n%100 > 0 {
		n %= 100
	}
	p.episode, p.episodeEnd, p.hasEpisode = n, n, true
	p.toks[k].kind = kEpisode
	if k == p.lead {
		p.start = max(p.start, p.skipSeparators(k+1))
	} else {
		p.end = min(p.end, k)
	}
	p.buildTitles(p.start, p.end)
}

// sameTitle reports whether two names name the same work, ignoring case,
// punctuation and ё/е, so a "Movie (1999)" folder can lend its year and its
// other-language title to "Movie.mkv" inside it.
func sameTitle(a, b *parsed) bool {
	for _, x := range [...]string{a.titleRu, a.titleOrig, a.titleRaw} {
		if x == "" {
			continue
		}
		fx := fold(x)
		for _, y := range [...]string{b.titleRu, b.titleOrig, b.titleRaw} {
			if y != "" && fold(y) == fx {
				return true
			}
		}
	}
	return false
}
