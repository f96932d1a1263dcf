package release

import (
	"strings"

	"mediateka/usecase/textmatch"
)

// marker is what one season/episode marker says.
type marker struct {
	season, episode, end  int
	hasSeason, hasEpisode bool
}

// findEpisodes walks the tokens (inside brackets too) and reads every season
// and episode marker: S01E02, 1x02, E01-E08, "Season 2", "2 сезон",
// "Серии 1-8 из 10". The first season and the first episode found win; the
// tokens a marker uses become kEpisode so they are neither title nor year.
func (p *parsed) findEpisodes() {
	for i := 0; i < len(p.toks); i++ {
		k := p.toks[i].kind
		if k != kWord && k != kNumber {
			continue
		}
		n, m := p.markerAt(i)
		if n == 0 {
			continue
		}
		if m.hasEpisode && !p.hasEpisode && (p.low(i) == "episode" || p.low(i) == "эпизод") {
			p.episodeWord = i
		}
		p.apply(m)
		for j := i; j < i+n; j++ {
			p.toks[j].kind = kEpisode
		}
		if p.marker < 0 && p.toks[i].group < 0 && (m.hasSeason || m.hasEpisode) {
			p.marker = i
		}
		i += n - 1
		if m.hasEpisode {
			i = p.episodeTotal(i)
		}
	}
}

// episodeInTitle undoes an "Episode 4" marker that is part of a movie
// title: "Звёздные войны: Эпизод 4 – Новая надежда (1977)", "Star Wars
// Episode 1 The Phantom Menace 1999". With no season anywhere and title
// words between it and the year, it is a title, not an episode.
func (p *parsed) episodeInTitle() {
	i := p.episodeWord
	if i < 0 || p.hasSeason || p.toks[i].group >= 0 || p.yearIdx <= i {
		return
	}
	j := p.nextWord(i)
	w := p.nextWord(j)
	if j < 0 || w < 0 || w >= p.yearIdx || p.toks[w].kind != kWord || p.toks[j].kind != kEpisode {
		return
	}
	p.toks[i].kind, p.toks[j].kind = kWord, kWord
	if allDigits(p.core(j)) {
		p.toks[j].kind = kNumber
	}
	p.episode, p.episodeEnd, p.hasEpisode = 0, 0, false
	if p.marker == i {
		p.marker = -1
	}
}

// markerAt reads a marker starting at token i and says how many tokens it used.
func (p *parsed) markerAt(i int) (int, marker) {
	low := asciiMarker(p.low(i))
	if m, ok := compactMarker(low); ok {
		return 1, m
	}
	if m, ok := p.shortEpisode(i, low); ok {
		return 1, m
	}
	low = p.low(i)
	j := p.nextWord(i)
	if j < 0 {
		return 0, marker{}
	}
	next := p.low(j)
	if isSeasonWord(low) || isEpisodeWord(low) {
		a, b, ok := parseCount(next)
		if !ok || p.toks[j].kind == kYear && !isSeasonWord(low) { // "Season 2011": a show numbered by year
			return 0, marker{}
		}
		if isSeasonWord(low) && p.dashBetween(i, j) {
			return 0, marker{} // "The Final Season - 16", "Monogatari Series - 04": the episode
		}
		return j - i + 1, countMarker(isSeasonWord(low), a, b)
	}
	a, b, ok := parseCount(low)
	if !ok {
		if !isSeasonWord(next) {
			return 0, marker{}
		}
		if n, ok := textmatch.Ordinal(low); ok && n > 0 {
			return j - i + 1, countMarker(true, n, n) // "Second Season", "Второй сезон"
		}
		return 0, marker{}
	}
	if isOfWord(next) {
		return p.countOfTotal(i, j, a, b)
	}
	if !isSeasonWord(next) && !isEpisodeWord(next) {
		return 0, marker{}
	}
	if a == b && a > 1 && isEpisodeCount(next) {
		return j - i + 1, marker{} // "2 серии": how many, not which
	}
	return j - i + 1, countMarker(isSeasonWord(next), a, b)
}

// dashBetween reports a free-standing dash between tokens i and j.
func (p *parsed) dashBetween(i, j int) bool {
	for k := i + 1; k < j; k++ {
		if p.toks[k].kind == kDash {
			return true
		}
	}
	return false
}

// isEpisodeCount reports the plural episode words that, after a single
// number, count a film's parts ("2 серии", "5 серий") rather than name
// one episode ("2 серия").
func isEpisodeCount(low string) bool {
	return low == "серии" || low == "серий" || low == "episodes" || low == "выпуски" || low == "serii"
}

// shortEpisode reads a one-digit "E5" right after a season marker: "S1
// E5", "с1 е6". Alone, "E5" is too short to trust.
func (p *parsed) shortEpisode(i int, low string) (marker, bool) {
	if !p.hasSeason || p.hasEpisode || i == 0 || p.toks[i-1].kind != kEpisode || len(low) < 2 || low[0] != 'e' {
		return marker{}, false
	}
	ep, rest, ok := leadingDigits(low[1:], 1, 4)
	return episodeAt(ep), ok && rest == ""
}

// countOfTotal reads "1-15 из 15 серий": a range, "из", the total and an
// episode word; i is the index of the range, j that of "из". It sets the
// total itself and says how many tokens the marker used.
func (p *parsed) countOfTotal(i, j, a, b int) (int, marker) {
	k := p.nextWord(j)
	if k < 0 || p.toks[k].kind != kNumber {
		return 0, marker{}
	}
	w := p.nextWord(k)
	switch {
	case w >= 0 && isEpisodeWord(p.low(w)):
	case p.toks[k].num >= int32(b) && p.toks[k].num > 1 && (w < 0 || p.toks[w].kind == kJunk):
		w = k // "[01-20 из 20]", "10 из 10"
	default:
		return 0, marker{}
	}
	if p.total == 0 {
		p.total = int(p.toks[k].num)
	}
	return w - i + 1, countMarker(false, a, b)
}

// countMarker turns "Season 2" or "Серии 1-8" into a marker.
func countMarker(season bool, a, b int) marker {
	if season {
		return marker{season: a, hasSeason: a <= 99 || a >= 1900 && a <= 2100}
	}
	return marker{episode: a, end: b, hasEpisode: true}
}

// episodeTotal reads "из 10" / "of 10" after an episode marker ending at i
// and returns the index of the last token it used.
func (p *parsed) episodeTotal(i int) int {
	j := p.nextWord(i)
	if j < 0 || !isOfWord(p.low(j)) {
		return i
	}
	k := p.nextWord(j)
	if k < 0 || p.toks[k].kind != kNumber || p.toks[k].num > 9999 {
		return i
	}
	if p.total == 0 {
		p.total = int(p.toks[k].num)
	}
	p.toks[j].kind, p.toks[k].kind = kEpisode, kEpisode
	return k
}

// apply keeps the first season and the first episode seen.
func (p *parsed) apply(m marker) {
	if m.hasSeason && !p.hasSeason {
		p.season, p.hasSeason = m.season, true
	}
	if m.hasEpisode && !p.hasEpisode {
		p.episode, p.episodeEnd, p.hasEpisode = m.episode, max(m.end, m.episode), true
	}
}

// nextWord is the index of the next word after i, skipping up to two dashes
// or commas; -1 at the end or at a bracket.
func (p *parsed) nextWord(i int) int {
	for j, skipped := i+1, 0; j < len(p.toks) && skipped <= 2; j++ {
		switch p.toks[j].kind {
		case kPunct, kDash:
			skipped++
		case kOpen, kClose, kSlash:
			return -1
		default:
			return j
		}
	}
	return -1
}

// parseCount reads the number next to a season or episode word: "2",
// "1-8", "2-й", "2-ой", "№9".
func parseCount(s string) (a, b int, ok bool) {
	s = strings.TrimPrefix(s, "№")
	a, rest, ok := leadingDigits(s, 1, 4)
	if !ok {
		return 0, 0, false
	}
	switch rest {
	case "", "-й", "й", "-ой", "-ий", "-ый", "-я", "я", "-ая", "-го", "го", "-ого", "th", "st", "nd", "rd":
		return a, a, true
	}
	if rest[0] != '-' {
		return 0, 0, false
	}
	b, rest, ok = leadingDigits(rest[1:], 1, 4)
	if !ok || rest != "" {
		return 0, 0, false
	}
	return a, max(a, b), true
}

// isSeasonWord knows "season" in English, Russian (also transliterated and
// abbreviated), French, German and Spanish, and the British "series".
func isSeasonWord(low string) bool {
	switch low {
	case "season", "seasons", "series", "сезон", "сезона", "сезоны", "сезонов", "сез",
		"sezon", "sezona", "sezony", "saison", "staffel", "temporada":
		return true
	}
	return false
}

// isEpisodeWord knows "episode" and its Russian, transliterated and
// abbreviated kin ("серия", "seriya", "сер.", "выпуск").
func isEpisodeWord(low string) bool {
	switch low {
	case "episode", "episodes", "ep", "серия", "серии", "серий", "сер", "эпизод", "эпизоды", "эп", "выпуск", "выпуски",
		"seria", "seriya", "serija", "seriia", "serii", "epizod", "vypusk", "серія", "серії", "episodio", "folge":
		return true
	}
	return false
}

// isOfWord is the "of" of "1 of 10", "1 из 10".
func isOfWord(low string) bool { return low == "из" || low == "of" || low == "iz" }
