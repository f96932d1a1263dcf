package classify

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"mediateka/domain"
	"mediateka/usecase/textmatch"
)

// decodeAnswer reads and validates the model's reply. Anything off — not
// one JSON object, an unknown field, a wrong type, a year outside
// 1900..thisYear+1, a category not in the list, an over-long text or list
// — rejects the whole answer, so a confused model writes nothing. A
// surrounding Markdown code fence (some local servers add one) is removed
// first. The result holds only the fields the model knew.
func decodeAnswer(text string, thisYear int) (domain.Media, error) {
	body := textmatch.StripCodeFence(text)
	if !strings.HasPrefix(body, "{") {
		return domain.Media{}, errors.New("the answer is not a JSON object")
	}
	dec := json.NewDecoder(strings.NewReader(body))
	var a map[string]json.RawMessage
	if err := dec.Decode(&a); err != nil {
		return domain.Media{}, fmt.Errorf("the answer is not the expected JSON: %s", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return domain.Media{}, errors.New("the answer has text after the JSON object")
	}
	return toMedia(a, thisYear)
}

// toMedia validates every field and returns them as a record; a field
// that is absent or null is unknown.
func toMedia(a map[string]json.RawMessage, thisYear int) (domain.Media, error) {
	fields := classifiedFields()
	for name := range a {
		if !slices.ContainsFunc(fields, func(f domain.MediaField) bool { return f.Name == name }) {
			return domain.Media{}, fmt.Errorf("the answer is not the expected JSON: unknown field %q", truncate(name, 40))
		}
	}
	var m domain.Media
	for _, f := range fields {
		raw, ok := a[f.Name]
		if !ok || string(raw) == "null" {
			continue
		}
		if err := setAnswer(f, &m, raw, thisYear); err != nil {
			return domain.Media{}, err
		}
	}
	return m, nil
}

// setAnswer checks one field of the answer and sets it in m.
func setAnswer(f domain.MediaField, m *domain.Media, raw json.RawMessage, thisYear int) error {
	switch p := f.Ref(m).(type) {
	case *string:
		var v string
		if json.Unmarshal(raw, &v) != nil {
			return fmt.Errorf("%s must be string", f.Name)
		}
		if f.Name == "main_category" {
			return setCategory(p, v)
		}
		v = strings.TrimSpace(v)
		if n, limit := utf8.RuneCountInString(v), textLimit(f); n > limit {
			return fmt.Errorf("%s is %d characters, over the limit of %d", f.Name, n, limit)
		}
		*p = v
	case **int:
		var v int
		if json.Unmarshal(raw, &v) != nil {
			return fmt.Errorf("%s must be int", f.Name)
		}
		if f.Name == "year" && (v < minYear || v > thisYear+1) {
			return fmt.Errorf("year %d is outside %d..%d", v, minYear, thisYear+1)
		}
		*p = &v
	case *[]string:
		var v []string
		if json.Unmarshal(raw, &v) != nil {
			return fmt.Errorf("%s must be []string", f.Name)
		}
		list, err := cleanList(f.Name, v, listLimit(f.Name))
		*p = list
		return err
	default:
		return fmt.Errorf("%s has no answer rule", f.Name)
	}
	return nil
}

// setCategory accepts a slug of the category list; empty is unknown.
func setCategory(dst *string, v string) error {
	if v == "" {
		return nil
	}
	if _, ok := domain.CategoryBySlug(v); !ok {
		return fmt.Errorf("main_category %q is not in the category list", truncate(v, 40))
	}
	*dst = v
	return nil
}

// cleanList trims items, drops empty ones and checks the limits.
func cleanList(name string, items []string, limit int) ([]string, error) {
	if len(items) > limit {
		return nil, fmt.Errorf("%s has %d items, over the limit of %d", name, len(items), limit)
	}
	var out []string
	for _, it := range items {
		it = strings.TrimSpace(it)
		if utf8.RuneCountInString(it) > maxItem {
			return nil, fmt.Errorf("an item of %s is over %d characters", name, maxItem)
		}
		if it != "" {
			out = append(out, it)
		}
	}
	return out, nil
}

func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}

// jsonCompact is a helper for prompts: v as one line of JSON.
func jsonCompact(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return strings.TrimSpace(b.String())
}
