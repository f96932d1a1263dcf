package release

import "strings"

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
