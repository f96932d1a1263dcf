package logs

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"mediateka/domain"
)

// MaxLines caps the lines one read returns: a tail above it, and a read of
// the whole file (tail <= 0), give at most this many.
const MaxLines = 10_000

// Query is one read of a log file.
type Query struct {
	Filename string
	// Tail > 0 is the last Tail matching lines; <= 0 the file from its
	// start. Either way at most MaxLines.
	Tail int
	// Level keeps records of this level or above (debug, info, warn,
	// error); "" keeps every line.
	Level string
	// Q keeps lines whose message or an attribute value contains it,
	// case-insensitively, as the read shows them (secrets masked); for a
	// line that is not a record, its (masked) text.
	Q string
	// Since and Until keep records timed within [Since, Until]; zero is
	// no bound.
	Since, Until time.Time
}

// Page is what a read returns: TotalLines counts every line of the file,
// Lines the matching ones returned, oldest first.
type Page struct {
	Filename   string
	TotalLines int
	Lines      []Line
}

// filter is a Query's conditions on one raw line.
type filter struct {
	min          slog.Level
	byLevel      bool
	q            string // lower case; "" is no q filter
	rawFirst     bool   // a line whose raw bytes lack q cannot match
	red          *domain.Redactor
	since, until time.Time
}

func newFilter(q Query, red *domain.Redactor) (filter, error) {
	f := filter{since: q.Since, until: q.Until, red: red}
	if q.Level != "" {
		l, ok := queryLevel(q.Level)
		if !ok {
			return f, domain.ErrInvalid("level is not a log level", map[string]string{"level": "must be debug, info, warn or error"})
		}
		f.min, f.byLevel = l, true
	}
	if !f.since.IsZero() && !f.until.IsZero() && f.until.Before(f.since) {
		return f, domain.ErrInvalid("until is before since", map[string]string{"until": "must not be before since"})
	}
	if q.Q != "" {
		f.q = strings.ToLower(q.Q)
		// The masked, decoded text a line shows is its raw bytes with
		// secrets replaced by *** and JSON escapes undone; a q without '*'
		// and without anything JSON escapes can only be in it if it is in
		// the raw bytes, so those are looked at first (and cheaply).
		f.rawFirst = !strings.ContainsFunc(f.q, func(r rune) bool {
			return r == '*' || r == '"' || r == '\\' || r == '<' || r == '>' || r == '&' || r < 0x20 ||
				r == 0x7f || r == '\u2028' || r == '\u2029' || r == utf8.RuneError
		})
	}
	return f, nil
}

// queryLevel is the level a client may ask for: debug, info, warn (or
// warning) or error, in any case. slog's own parser also takes offsets
// (warn+2, INFO-4), which the API does not offer.
func queryLevel(s string) (slog.Level, bool) {
	switch strings.ToLower(s) {
	case "debug":
		return slog.LevelDebug, true
	case "info":
		return slog.LevelInfo, true
	case "warn", "warning":
		return slog.LevelWarn, true
	case "error":
		return slog.LevelError, true
	}
	return 0, false
}

// timed reports whether the filter looks at times or levels, which lines
// that are not records never match.
func (f filter) timed() bool { return f.byLevel || !f.since.IsZero() || !f.until.IsZero() }

// match tells whether raw passes; before is true for a record timed
// before Since (reading backwards, everything further is older still, as
// long as the file is in time order, as the logger writes it).
func (f filter) match(raw []byte) (ok, before bool) {
	if f.timed() {
		t, lvl, isRecord := timeLevel(raw)
		if !isRecord {
			return false, false
		}
		if t.IsZero() && (!f.since.IsZero() || !f.until.IsZero()) {
			// A record without a time is not within any bounds, and says
			// nothing about the records before it: only a set time that is
			// older than since ends a backward read.
			return false, false
		}
		if !f.since.IsZero() && t.Before(f.since) {
			return false, true
		}
		if !f.until.IsZero() && t.After(f.until) {
			return false, false
		}
		if f.byLevel {
			l, known := levelRank(lvl)
			if !known || l < f.min {
				return false, false
			}
		}
	}
	if f.q != "" {
		if f.rawFirst && !bytes.Contains(bytes.ToLower(raw), []byte(f.q)) {
			return false, false
		}
		if !f.shows(parseLine(raw, f.red)) {
			return false, false
		}
	}
	return true, false
}

// shows tells whether q is in what the read shows of l: its message and
// its attribute values (not the keys, time or level), secrets masked —
// so q cannot be used to guess a masked value one character at a time.
func (f filter) shows(l Line) bool {
	if l.Msg == nil && l.Attrs == nil && l.Raw != "" {
		return strings.Contains(strings.ToLower(l.Raw), f.q)
	}
	if l.Msg != nil && strings.Contains(strings.ToLower(*l.Msg), f.q) {
		return true
	}
	return valueHas(l.Attrs, f.q)
}

// valueHas looks for q in the values of a decoded JSON value.
func valueHas(v any, q string) bool {
	switch x := v.(type) {
	case string:
		return strings.Contains(strings.ToLower(x), q)
	case float64:
		return strings.Contains(strconv.FormatFloat(x, 'f', -1, 64), q)
	case bool:
		return strings.Contains(strconv.FormatBool(x), q)
	case map[string]any:
		for _, e := range x {
			if valueHas(e, q) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if valueHas(e, q) {
				return true
			}
		}
	}
	return false
}

// Read returns the lines of a log file the query asks for. The tail of a
// plain file is read backwards from its end, so its cost does not grow
// with the file; a .gz file is read from its start.
func (s *Service) Read(_ context.Context, q Query) (Page, error) {
	if err := CheckName(q.Filename); err != nil {
		return Page{}, err
	}
	f, err := newFilter(q, s.opt.Redactor)
	if err != nil {
		return Page{}, err
	}
	limit := q.Tail
	if limit <= 0 || limit > MaxLines {
		limit = MaxLines
	}
	var raw [][]byte
	switch {
	case q.Tail <= 0:
		raw, err = s.head(q.Filename, f, limit)
	case strings.HasSuffix(q.Filename, ".gz"):
		raw, err = s.tailForward(q.Filename, f, limit)
	default:
		raw, err = s.tailBackward(q.Filename, f, limit)
	}
	if err != nil {
		return Page{}, err
	}
	total, err := s.folder.LineCount(q.Filename)
	if err != nil {
		return Page{}, fmt.Errorf("count the lines of %s: %w", q.Filename, err)
	}
	p := Page{Filename: q.Filename, TotalLines: total, Lines: make([]Line, len(raw))}
	for i, r := range raw {
		p.Lines[i] = parseLine(r, s.opt.Redactor)
	}
	return p, nil
}

// head is the first limit matching lines.
func (s *Service) head(name string, f filter, limit int) ([][]byte, error) {
	r, err := s.folder.Open(name)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	var out [][]byte
	err = forEachLine(r, maxLineShown, func(line []byte) bool {
		if ok, _ := f.match(line); ok {
			out = append(out, bytes.Clone(line))
		}
		return len(out) < limit
	})
	return out, readErr(name, err)
}

// maxLineShown cuts a line as a read shows it, to its first bytes
// whichever way it is read.
const maxLineShown = 64 << 10

// tailBackward is the last limit matching lines of a plain file.
func (s *Service) tailBackward(name string, f filter, limit int) ([][]byte, error) {
	var out [][]byte
	err := s.folder.ReadBackward(name, func(line []byte) bool {
		ok, before := f.match(line)
		if before {
			return false
		}
		if ok {
			out = append(out, bytes.Clone(line[:min(len(line), maxLineShown)])) // its start, as head keeps
		}
		return len(out) < limit
	})
	slices.Reverse(out)
	return out, readErr(name, err)
}

// tailForward is the last limit matching lines of a file that can only be
// read from its start, kept in a ring.
func (s *Service) tailForward(name string, f filter, limit int) ([][]byte, error) {
	r, err := s.folder.Open(name)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	ring := make([][]byte, 0, min(limit, 1024))
	next := 0
	err = forEachLine(r, maxLineShown, func(line []byte) bool {
		if ok, _ := f.match(line); !ok {
			return true
		}
		if len(ring) < limit {
			ring = append(ring, bytes.Clone(line))
			return true
		}
		ring[next] = append(ring[next][:0], line...)
		next = (next + 1) % limit
		return true
	})
	out := append(ring[next:len(ring):len(ring)], ring[:next]...)
	return out, readErr(name, err)
}

func readErr(name string, err error) error {
	var de *domain.Error
	if err == nil || errors.As(err, &de) {
		return err
	}
	return fmt.Errorf("read %s: %w", name, err)
}
