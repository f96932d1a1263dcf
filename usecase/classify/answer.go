package classify

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"mediateka/domain"
)

// answer is the model's reply as the schema describes it. Pointers tell
// null (unknown) from a value.
type answer struct {
	TitleRu      *string  `json:"title_ru"`
	TitleOrig    *string  `json:"title_orig"`
	Year         *int     `json:"year"`
	MainCategory *string  `json:"main_category"`
	Genres       []string `json:"genres"`
	Country      *string  `json:"country"`
	Directors    []string `json:"directors"`
	Cast         []string `json:"cast"`
	Plot         *string  `json:"plot"`
	WhyWatch     *string  `json:"why_watch"`
	Mood         *string  `json:"mood"`
	Atmosphere   *string  `json:"atmosphere"`
	FinalVerdict *string  `json:"final_verdict"`
}

// decodeAnswer reads and validates the model's reply. Anything off — not
// one JSON object, an unknown field, a wrong type, a year outside
// 1900..thisYear+1, a category not in the list, an over-long text or list
// — rejects the whole answer, so a confused model writes nothing. A
// surrounding Markdown code fence (some local servers add one) is removed
// first. The result holds only the fields the model knew.
func decodeAnswer(text string, thisYear int) (domain.Media, error) {
	body := stripFence(text)
	if !strings.HasPrefix(body, "{") {
		return domain.Media{}, errors.New("the answer is not a JSON object")
	}
	dec := json.NewDecoder(strings.NewReader(body))
	dec.DisallowUnknownFields()
	var a answer
	if err := dec.Decode(&a); err != nil {
		return domain.Media{}, fmt.Errorf("the answer is not the expected JSON: %s", decodeProblem(err))
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return domain.Media{}, errors.New("the answer has text after the JSON object")
	}
	return a.toMedia(thisYear)
}

// decodeProblem describes a decoding error without echoing the answer.
func decodeProblem(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Sprintf("%s must be %s, not %s", te.Field, te.Type.String(), te.Value)
	}
	return err.Error()
}

func stripFence(text string) string {
	t := strings.TrimSpace(text)
	if !strings.HasPrefix(t, "```") || !strings.HasSuffix(t, "```") || len(t) < 6 {
		return t
	}
	t = strings.TrimSuffix(strings.TrimPrefix(t, "```"), "```")
	t = strings.TrimPrefix(t, "json")
	return strings.TrimSpace(t)
}

// toMedia validates every field and returns them as a record.
func (a answer) toMedia(thisYear int) (domain.Media, error) {
	var m domain.Media
	texts := map[string]struct {
		src *string
		dst *string
	}{
		"title_ru": {a.TitleRu, &m.TitleRu}, "title_orig": {a.TitleOrig, &m.TitleOrig},
		"country": {a.Country, &m.Country}, "plot": {a.Plot, &m.Plot}, "why_watch": {a.WhyWatch, &m.WhyWatch},
		"mood": {a.Mood, &m.Mood}, "atmosphere": {a.Atmosphere, &m.Atmosphere},
		"final_verdict": {a.FinalVerdict, &m.FinalVerdict},
	}
	limits := textLimits()
	for name, f := range texts {
		if f.src == nil {
			continue
		}
		v := strings.TrimSpace(*f.src)
		if n := utf8.RuneCountInString(v); n > limits[name] {
			return domain.Media{}, fmt.Errorf("%s is %d characters, over the limit of %d", name, n, limits[name])
		}
		*f.dst = v
	}
	lists := map[string]struct {
		src []string
		dst *[]string
	}{"genres": {a.Genres, &m.Genres}, "directors": {a.Directors, &m.Directors}, "cast": {a.Cast, &m.Cast}}
	for name, f := range lists {
		v, err := cleanList(name, f.src, listLimits()[name])
		if err != nil {
			return domain.Media{}, err
		}
		*f.dst = v
	}
	if a.Year != nil {
		if *a.Year < minYear || *a.Year > thisYear+1 {
			return domain.Media{}, fmt.Errorf("year %d is outside %d..%d", *a.Year, minYear, thisYear+1)
		}
		m.Year = a.Year
	}
	if a.MainCategory != nil && *a.MainCategory != "" {
		if _, ok := domain.CategoryBySlug(*a.MainCategory); !ok {
			return domain.Media{}, fmt.Errorf("main_category %q is not in the category list", truncate(*a.MainCategory, 40))
		}
		m.MainCategory = *a.MainCategory
	}
	return m, nil
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
