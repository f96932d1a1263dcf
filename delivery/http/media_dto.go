package http

import (
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"

	"mediateka/domain"
	"mediateka/usecase/catalog"
)

// mediaDTO is a media entry as API.md §3 shows it: the id, every field of
// domain.MediaFields in column order (JSON columns as real arrays and
// objects, empty never null; unknown text and numbers null), then the
// file's size and modification time (null for folders), the edited fields
// and the timestamps, and, in the answers of the /api/media routes, the
// signed-in account's user_state. It encodes itself by walking the field
// table, so a new column shows up without touching this file.
type mediaDTO struct {
	m domain.Media
	// states are the account's watching states for user_state; nil: no
	// such member (the administration routes show the catalogue, not a
	// person's watching).
	states *userStates
}

// userStates are the signed-in account's watching states by media id, read
// once per answer and looked up for each entry it writes.
type userStates struct {
	m map[int64]domain.WatchState
}

// fieldTable is the field table with each field's member key written out
// (`,"name":`).
type fieldTable struct {
	fields []domain.MediaField
	keys   []string
}

// entryFields is the field table of every entry written: a constant
// derived from domain.MediaFields, built on first use rather than once per
// entry or answer.
var entryFields = sync.OnceValue(newFieldTable)

func newFieldTable() fieldTable {
	t := fieldTable{fields: domain.MediaFields()}
	for _, f := range t.fields {
		t.keys = append(t.keys, ","+string(appendString(nil, f.Name))+":")
	}
	return t
}

// entryDTO is an entry with its children (GET /api/media/{id}).
type entryDTO struct {
	mediaDTO
	Children []entryDTO
}

func toMediaDTO(m domain.Media) mediaDTO {
	return mediaDTO{m: m}
}

// MarshalJSON writes the entry as one JSON object.
func (d mediaDTO) MarshalJSON() ([]byte, error) {
	return d.appendJSON(make([]byte, 0, 1024))
}

// appendJSON appends the entry as one JSON object to b.
func (d mediaDTO) appendJSON(b []byte) ([]byte, error) {
	b, err := d.appendMembers(append(b, '{'))
	return append(b, '}'), err
}

// appendMembers writes the entry's members, without the braces.
func (d mediaDTO) appendMembers(b []byte) ([]byte, error) {
	m := &d.m
	b = strconv.AppendInt(append(b, `"id":`...), m.ID, 10)
	var err error
	table := entryFields()
	for i, f := range table.fields {
		b = append(b, table.keys[i]...)
		if b, err = appendField(b, f, m); err != nil {
			return nil, err
		}
	}
	b = append(b, `,"size":`...)
	if m.HasFile() {
		b = strconv.AppendInt(b, m.Size, 10)
	} else {
		b = append(b, "null"...)
	}
	b = appendTime(append(b, `,"modified_at":`...), m.ModTime)
	b = appendStrings(append(b, `,"edited_fields":`...), m.EditedFields)
	b = appendTime(append(b, `,"created_at":`...), m.CreatedAt)
	b = appendTime(append(b, `,"updated_at":`...), m.UpdatedAt)
	if d.states != nil {
		w, ok := d.states.m[m.ID]
		b = append(b, `,"user_state":`...)
		if !ok {
			return append(b, "null"...), nil
		}
		b = appendWatchState(b, w)
	}
	return b, nil
}

// appendField writes the value of field f of m.
func appendField(b []byte, f domain.MediaField, m *domain.Media) ([]byte, error) {
	switch p := f.Ref(m).(type) {
	case *string:
		if *p == "" && !f.Is(domain.FieldNotNull) {
			return append(b, "null"...), nil
		}
		return appendString(b, *p), nil
	case **int:
		if *p == nil {
			return append(b, "null"...), nil
		}
		return strconv.AppendInt(b, int64(**p), 10), nil
	case *int:
		return strconv.AppendInt(b, int64(*p), 10), nil
	case *int64:
		return strconv.AppendInt(b, *p, 10), nil
	case *[]string:
		return appendStrings(b, *p), nil
	case *[]int:
		return appendInts(b, *p), nil
	case *map[string]float64:
		return appendEncoded(b, *p, len(*p) == 0, "{}")
	}
	return nil, fmt.Errorf("media field %s has no JSON rule", f.Name)
}

// appendEncoded writes v with encoding/json, or empty when isEmpty.
func appendEncoded(b []byte, v any, isEmpty bool, empty string) ([]byte, error) {
	if isEmpty {
		return append(b, empty...), nil
	}
	raw, err := json.Marshal(v)
	return append(b, raw...), err
}

func appendStrings(b []byte, list []string) []byte {
	b = append(b, '[')
	for i, s := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, s)
	}
	return append(b, ']')
}

// appendString writes s as a JSON string exactly as encoding/json does:
// text it would write as is directly (Cyrillic included), anything it
// would escape through it.
func appendString(b []byte, s string) []byte {
	if !jsonPlain(s) {
		raw, _ := json.Marshal(s)
		return append(b, raw...)
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// jsonPlain reports whether encoding/json writes s unchanged between
// quotes: no control character, quote, backslash or HTML-sensitive <>&,
// valid UTF-8, and no U+2028 or U+2029 (which it escapes).
func jsonPlain(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
			return false
		}
		i += size
	}
	return true
}

// appendInts writes a list of numbers as encoding/json does.
func appendInts(b []byte, list []int) []byte {
	b = append(b, '[')
	for i, n := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(n), 10)
	}
	return append(b, ']')
}

// appendTime writes t in UTC as encoding/json does (RFC 3339 with as many
// fraction digits as it needs), null when unknown or when its year has not
// four digits (which encoding/json refuses).
func appendTime(b []byte, t time.Time) []byte {
	t = t.UTC()
	if y := t.Year(); t.IsZero() || y < 0 || y > 9999 {
		return append(b, "null"...)
	}
	b = append(b, '"')
	b = t.AppendFormat(b, time.RFC3339Nano)
	return append(b, '"')
}

// MarshalJSON writes the entry and its children.
func (e entryDTO) MarshalJSON() ([]byte, error) {
	b, err := e.appendMembers(append(make([]byte, 0, 1024), '{'))
	if err != nil {
		return nil, err
	}
	children := e.Children
	if children == nil {
		children = []entryDTO{}
	}
	raw, err := json.Marshal(children)
	if err != nil {
		return nil, err
	}
	b = append(append(b, `,"children":`...), raw...)
	return append(b, '}'), nil
}

// toEntryDTO is e and its children, each with its user_state from states.
func toEntryDTO(e catalog.Entry, states *userStates) entryDTO {
	d := entryDTO{mediaDTO: mediaDTO{m: e.Media, states: states}, Children: make([]entryDTO, 0, len(e.Children))}
	for _, c := range e.Children {
		d.Children = append(d.Children, toEntryDTO(c, states))
	}
	return d
}

func toMediaDTOs(ms []domain.Media) []mediaDTO {
	out := make([]mediaDTO, 0, len(ms))
	for _, m := range ms {
		out = append(out, toMediaDTO(m))
	}
	return out
}

func optText(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func optTime(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	u := t.UTC()
	return &u
}
