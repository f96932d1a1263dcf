package logs

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"strings"
	"time"

	"mediateka/domain"
)

// Line is one line of a log file: a JSON record of the logger split into
// its time, level, message and other attributes, or, for any other line
// (a crash trace), just Raw.
type Line struct {
	Time  *time.Time
	Level string // lower case: debug, info, warn, error; "" when none
	Msg   *string
	Attrs map[string]any
	Raw   string // set only for lines that are not JSON records
}

// parseLine splits a line, applying the redaction rule to what it shows.
func parseLine(raw []byte, red *domain.Redactor) Line {
	var m map[string]any
	if len(raw) == 0 || raw[0] != '{' || json.Unmarshal(raw, &m) != nil {
		return Line{Raw: red.Scrub(string(raw))}
	}
	var l Line
	if s, ok := m["time"].(string); ok {
		if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
			t = t.UTC()
			l.Time = &t
		}
		delete(m, "time")
	}
	if s, ok := m["level"].(string); ok {
		l.Level = levelName(s)
		delete(m, "level")
	}
	if s, ok := m["msg"].(string); ok {
		s = red.Scrub(s)
		l.Msg = &s
		delete(m, "msg")
	}
	if len(m) > 0 {
		l.Attrs = red.Map(m) // the logger's rule, at any depth
	}
	return l
}

// levelName lower-cases a level as the record wrote it (INFO → info,
// WARN+2 → warn+2). It only changes the case: it does not check that the
// text is a level, and "warning" stays "warning".
func levelName(s string) string {
	return strings.ToLower(s)
}

// levelRank orders levels as slog does; ok is false for a text that is
// not a level.
func levelRank(s string) (slog.Level, bool) {
	var l slog.Level
	if s == "warning" {
		s = "warn"
	}
	if err := l.UnmarshalText([]byte(s)); err != nil {
		return 0, false
	}
	return l, true
}

// bucket is the level a record is counted under: debug, info, warn or
// error (slog's in-between levels go to the one below them).
func bucket(level string) string {
	l, ok := levelRank(level)
	switch {
	case !ok:
		return "other"
	case l >= slog.LevelError:
		return "error"
	case l >= slog.LevelWarn:
		return "warn"
	case l >= slog.LevelInfo:
		return "info"
	}
	return "debug"
}

var (
	timePrefix  = []byte(`{"time":"`)
	levelPrefix = []byte(`","level":"`)
)

// peek reads the time and level of a record as slog's JSON handler writes
// it ({"time":"…","level":"…",…}) without decoding the line; ok is false
// for any other line, which callers then decode (or treat as raw).
func peek(raw []byte) (t time.Time, level string, ok bool) {
	rest, found := bytes.CutPrefix(raw, timePrefix)
	if !found {
		return time.Time{}, "", false
	}
	end := bytes.IndexByte(rest, '"')
	if end < 0 {
		return time.Time{}, "", false
	}
	t, err := time.Parse(time.RFC3339Nano, string(rest[:end]))
	if err != nil {
		return time.Time{}, "", false
	}
	rest, found = bytes.CutPrefix(rest[end:], levelPrefix)
	if !found {
		return t.UTC(), "", true
	}
	if end = bytes.IndexByte(rest, '"'); end < 0 {
		return t.UTC(), "", true
	}
	return t.UTC(), levelName(string(rest[:end])), true
}

// timeLevel is peek with a decoding fallback for records written by
// something else; ok is false for lines that are not JSON records.
func timeLevel(raw []byte) (time.Time, string, bool) {
	if t, lvl, ok := peek(raw); ok {
		return t, lvl, true
	}
	if len(raw) == 0 || raw[0] != '{' {
		return time.Time{}, "", false
	}
	var r struct {
		Time  time.Time `json:"time"`
		Level string    `json:"level"`
	}
	if err := json.Unmarshal(raw, &r); err != nil && !isTypeError(err) {
		return time.Time{}, "", false
	}
	return r.Time.UTC(), levelName(r.Level), true
}

func isTypeError(err error) bool {
	var te *json.UnmarshalTypeError
	return errors.As(err, &te)
}

// forEachLine calls fn with each line of r from the start (without its
// newline; valid during the call only) until fn returns false. A line
// longer than maxLine is cut to its start. Empty lines are skipped.
func forEachLine(r io.Reader, maxLine int, fn func(line []byte) bool) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var long []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			if len(long) < maxLine {
				long = append(long, chunk[:min(len(chunk), maxLine-len(long))]...)
			}
			continue
		}
		line := chunk
		if long != nil {
			if len(long) < maxLine {
				long = append(long, chunk[:min(len(chunk), maxLine-len(long))]...)
			}
			line, long = long, nil
		}
		line = bytes.TrimRight(line, "\r\n")
		if len(line) > 0 && !fn(line) {
			return nil
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}
