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

// compactMarker reads one-token markers: S01E02, S01E01-E08, S01E01E02, S01,
// S01-S03, 1x02, 01x01-08, E05, E01-E08, EP05, Season1, 1of6.
func compactMarker(s string) (marker, bool) {
	if len(s) < 2 {
		return marker{}, false
	}
	if m, ok := gluedWordMarker(s); ok {
		return m, true
	}
	if s[0] == 's' && isDigit(s[1]) {
		return seasonEpisode(s[1:])
	}
	if s[0] == 'e' {
		rest, lo := s[1:], 2
		if strings.HasPrefix(rest, "p") {
			rest, lo = rest[1:], 1
		}
		ep, rest, ok := leadingDigits(rest, lo, 4)
		if !ok {
			return marker{}, false
		}
		return withRange(marker{episode: ep, end: ep, hasEpisode: true}, rest)
	}
	season, rest, ok := leadingDigits(s, 1, 4)
	if !ok || rest == "" || rest[0] != 'x' || !plausibleSeason(s[:len(s)-len(rest)], season) {
		return marker{}, false
	}
	ep, rest, ok := leadingDigits(rest[1:], 1, 3)
	if !ok {
		return marker{}, false
	}
	return withRange(marker{season: season, hasSeason: true, episode: ep, end: ep, hasEpisode: true}, rest)
}

// gluedWordMarker reads a season or episode word glued to its number,
// "Season1", "Episode12", "Серия5", and the "1of6" of documentary series.
func gluedWordMarker(s string) (marker, bool) {
	i := 0
	for i < len(s) && !isDigit(s[i]) {
		i++
	}
	if i == len(s) || i == 0 {
		if n, rest, ok := leadingDigits(s, 1, 3); ok && strings.HasPrefix(rest, "of") {
			if _, tail, ok := leadingDigits(rest[2:], 1, 3); ok && tail == "" && n > 0 {
				return episodeAt(n), true
			}
		}
		return marker{}, false
	}
	word := s[:i]
	if !isSeasonWord(word) && !isEpisodeWord(word) || len(word) < 4 {
		return marker{}, false
	}
	n, rest, ok := leadingDigits(s[i:], 1, 4)
	if !ok || rest != "" {
		return marker{}, false
	}
	return countMarker(isSeasonWord(word), n, n), true
}

// seasonEpisode reads what follows the "s" of S01E02 and friends: S013E18
// (a padded season), S2014E18 (a year as the season), s03-e01, S06xE01,
// S01x02, and season ranges S01-S03.
func seasonEpisode(s string) (marker, bool) {
	season, rest, ok := leadingDigits(s, 1, 4)
	if !ok || !plausibleSeason(s[:len(s)-len(rest)], season) {
		return marker{}, false
	}
	m := marker{season: season, hasSeason: true}
	switch {
	case rest == "":
		return m, true
	case strings.HasPrefix(rest, "-e"), strings.HasPrefix(rest, "xe"):
		rest = rest[2:]
	case rest[0] == '-': // a season range: S01-S03, S01-03
		_, tail, ok := leadingDigits(strings.TrimPrefix(rest[1:], "s"), 1, 4)
		return m, ok && tail == ""
	case rest[0] == 'e', rest[0] == 'x':
		rest = rest[1:]
	default:
		return marker{}, false
	}
	ep, rest, ok := leadingDigits(rest, 1, 4)
	if !ok {
		return marker{}, false
	}
	m.episode, m.end, m.hasEpisode = ep, ep, true
	return withRange(m, rest)
}

// plausibleSeason accepts one or two digits, three with a leading zero or
// below 100 (S013), and four when they are a year (S2014E18: shows
// numbered by year).
func plausibleSeason(digits string, n int) bool {
	switch len(digits) {
	case 3:
		return digits[0] == '0'
	case 4:
		return n >= 1900 && n <= 2100
	}
	return true
}

// asciiMarker writes a marker typed on a Russian keyboard layout with
// Cyrillic look-alikes ("с01е05", "05х03") in Latin letters; other words
// come back unchanged.
func asciiMarker(low string) string {
	if len(low) < 3 || low[0] < 0x80 && !isDigit(low[0]) {
		return low
	}
	var b [24]byte
	n := 0
	for _, r := range low {
		var c byte
		switch {
		case r < 0x80:
			c = byte(r)
		case r == 'с':
			c = 's'
		case r == 'е':
			c = 'e'
		case r == 'х':
			c = 'x'
		default:
			return low
		}
		if n == len(b) {
			return low
		}
		b[n] = c
		n++
	}
	return string(b[:n])
}

// withRange reads the end of an episode range: -E08, -08, E02, -EP08,
// -1x02, -S01E02, and longer runs such as E01E02E03 or 01-02-03.
func withRange(m marker, rest string) (marker, bool) {
	for n := 0; rest != ""; n++ {
		if n == 8 {
			return marker{}, false
		}
		rest = repeatedSeason(strings.TrimPrefix(rest, "-"))
		if strings.HasPrefix(rest, "ep") {
			rest = rest[2:]
		} else {
			rest = strings.TrimPrefix(rest, "e")
		}
		end, tail, ok := leadingDigits(rest, 1, 4)
		if !ok {
			return marker{}, false
		}
		if end > m.end {
			m.end = end
		}
		rest = tail
	}
	return m, true
}

// repeatedSeason drops the season a range repeats before its last
// episode: the "1x" of "1x01-1x02", the "s01" of "S01E01-S01E02".
func repeatedSeason(rest string) string {
	t := strings.TrimPrefix(rest, "s")
	_, tail, ok := leadingDigits(t, 1, 2)
	if !ok || len(tail) < 2 || tail[0] != 'x' && tail[0] != 'e' || !isDigit(tail[1]) && tail[1] != 'e' {
		return rest
	}
	if tail[0] == 'e' && len(t) == len(rest) {
		return rest // "01e02" without an "s" is no season
	}
	return tail[1:]
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
