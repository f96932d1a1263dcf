package logs

import (
	"bytes"
	"encoding/json"
	"strconv"
	"time"
)

// The analysis reads every line of files of hundreds of megabytes;
// encoding/json's reflection and allocations made it several times
// slower than reading the file. These helpers walk one flat JSON object
// as slog's JSON handler writes it, without allocating, and hand out raw
// member values; anything unusual falls back to encoding/json.

// members hands each top-level key (raw, without quotes) and raw value of
// the object in line to f.set; false when line is not one JSON object.
func members(line []byte, f *fields) bool {
	i := skipSpace(line, 0)
	if i >= len(line) || line[i] != '{' {
		return false
	}
	i = skipSpace(line, i+1)
	if i < len(line) && line[i] == '}' {
		return true
	}
	for i < len(line) {
		if line[i] != '"' {
			return false
		}
		end := stringEnd(line, i)
		if end < 0 {
			return false
		}
		key := line[i+1 : end-1]
		i = skipSpace(line, end)
		if i >= len(line) || line[i] != ':' {
			return false
		}
		i = skipSpace(line, i+1)
		vend := valueEnd(line, i)
		if vend < 0 {
			return false
		}
		f.set(key, line[i:vend])
		i = skipSpace(line, vend)
		if i >= len(line) {
			return false
		}
		switch line[i] {
		case '}':
			return true
		case ',':
			i = skipSpace(line, i+1)
		default:
			return false
		}
	}
	return false
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// stringEnd is the index after the closing quote of the string at i.
func stringEnd(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return -1
}

// valueEnd is the index after the value at i (string, number, literal,
// object or array).
func valueEnd(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return stringEnd(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				if j = stringEnd(b, j); j < 0 {
					return -1
				}
				j--
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	}
	j := i
	for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ' ' {
		j++
	}
	if j == i {
		return -1
	}
	return j
}

// text is a raw JSON value as text: a string's content (unescaped, which
// allocates only when it has escapes), or the raw value itself.
func text(raw []byte) []byte {
	if len(raw) < 2 || raw[0] != '"' {
		return raw
	}
	inner := raw[1 : len(raw)-1]
	if bytes.IndexByte(inner, '\\') < 0 {
		return inner
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return inner
	}
	return []byte(s)
}

// number is a raw JSON number (0 when it is not one).
func number(raw []byte) float64 {
	f, err := strconv.ParseFloat(string(raw), 64) // the conversion does not escape
	if err != nil {
		return 0
	}
	return f
}

// parseTime reads slog's RFC 3339 time (2026-01-02T03:04:05.123456789Z or
// with an offset) by hand, falling back to time.Parse for anything else.
func parseTime(b []byte) (time.Time, bool) {
	if len(b) >= 20 && b[4] == '-' && b[7] == '-' && b[10] == 'T' && b[13] == ':' && b[16] == ':' {
		if t, ok := fastTime(b); ok {
			return t, true
		}
	}
	t, err := time.Parse(time.RFC3339Nano, string(b))
	return t.UTC(), err == nil
}

func fastTime(b []byte) (time.Time, bool) {
	num := func(from, to int) (int, bool) {
		n := 0
		for _, c := range b[from:to] {
			if c < '0' || c > '9' {
				return 0, false
			}
			n = n*10 + int(c-'0')
		}
		return n, true
	}
	year, ok1 := num(0, 4)
	month, ok2 := num(5, 7)
	day, ok3 := num(8, 10)
	hour, ok4 := num(11, 13)
	minute, ok5 := num(14, 16)
	sec, ok6 := num(17, 19)
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) || month < 1 || month > 12 || day < 1 || day > 28 ||
		hour > 23 || minute > 59 || sec > 59 {
		return time.Time{}, false // time.Parse decides the rare and the wrong
	}
	i, nsec := 19, 0
	if b[i] == '.' {
		scale := 100_000_000
		for i++; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
			nsec += int(b[i]-'0') * scale
			scale /= 10
		}
	}
	if i >= len(b) {
		return time.Time{}, false
	}
	t := time.Date(year, time.Month(month), day, hour, minute, sec, nsec, time.UTC)
	switch {
	case b[i] == 'Z' && i == len(b)-1:
		return t, true
	case (b[i] == '+' || b[i] == '-') && len(b)-i == 6 && b[i+3] == ':':
		oh, ok1 := num(i+1, i+3)
		om, ok2 := num(i+4, i+6)
		if !ok1 || !ok2 {
			return time.Time{}, false
		}
		off := time.Duration(oh)*time.Hour + time.Duration(om)*time.Minute
		if b[i] == '+' {
			return t.Add(-off), true
		}
		return t.Add(off), true
	}
	return time.Time{}, false
}

// levelOf is the level bucket of a raw level text, without allocating for
// slog's four names.
func levelOf(raw []byte) string {
	switch string(raw) { // compiled without a conversion
	case "INFO":
		return "info"
	case "ERROR":
		return "error"
	case "WARN":
		return "warn"
	case "DEBUG":
		return "debug"
	}
	return bucket(levelName(string(raw)))
}

// methodOf interns the usual HTTP methods.
func methodOf(raw []byte) string {
	for _, m := range []string{"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"} {
		if string(raw) == m {
			return m
		}
	}
	return string(raw)
}
