package release

import "strings"

// yearWord reads a year written with more than its digits: "2006г",
// "1956g", a range "2008-2013", "2011-18", "1957-1958гг", and a range whose
// first year has one digit too many ("20113-2018", "19999-2001"). It
// returns the first year of a range; ok is false for anything else.
func yearWord(core string, maxYear int) (int, bool) {
	s := trimYearSuffix(core)
	n := 0
	for n < len(s) && isDigit(s[n]) {
		n++
	}
	if n < 4 || n > 5 || n == len(core) {
		return 0, false
	}
	rest := s[n:]
	if rest == "" { // "2006г"
		return atoi(s[:4]), n == 4 && validYear(atoi(s[:4]), maxYear)
	}
	if rest[0] != '-' || (len(rest) != 3 && len(rest) != 5) || !allDigits(rest[1:]) {
		return 0, false
	}
	end := atoi(rest[1:])
	if len(rest) == 3 { // "2011-18"
		end += atoi(s[:2]) * 100
	}
	if !validYear(end, maxYear+10) {
		return 0, false
	}
	if n == 4 {
		y := atoi(s[:4])
		return y, validYear(y, maxYear) && y <= end
	}
	return typoYear(s[:5], end, maxYear)
}

// trimYearSuffix drops the Russian "г"/"гг" ("год", "годы") or its
// transliteration after a year.
func trimYearSuffix(s string) string {
	for _, suf := range [...]string{"гг", "г", "gg", "g"} {
		if t, ok := strings.CutSuffix(s, suf); ok && t != "" && isDigit(t[len(t)-1]) {
			return t
		}
	}
	return s
}

// typoYear reads five digits meant as a year that ranges to end: one digit
// was typed twice ("20113" for 2013) or one too many, most likely at the end
// ("20191" for 2019). A doubled key is the likelier slip, so it is tried
// first.
func typoYear(d string, end, maxYear int) (int, bool) {
	fallback := 0
	for i := len(d) - 1; i >= 1; i-- {
		y := atoi(d[:i] + d[i+1:])
		if !validYear(y, maxYear) || y > end {
			continue
		}
		if d[i] == d[i-1] {
			return y, true
		}
		if fallback == 0 {
			fallback = y
		}
	}
	return fallback, fallback != 0
}
