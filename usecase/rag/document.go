package rag

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"mediateka/domain"
)

// maxDocumentRunes bounds one document: a long series' episode titles add
// little after the first few thousand characters, and a remote embedder
// refuses or truncates long inputs anyway.
const maxDocumentRunes = 6000

// document is one movie's or series' text to embed, with its digest.
type document struct {
	id   int64
	kind kind
	text string
	hash string
}

// docFields are the fields of the field table that make up a document,
// in table order (domain.FieldDocument).
func docFields() []domain.MediaField {
	var out []domain.MediaField
	for _, f := range domain.MediaFields() {
		if f.Is(domain.FieldDocument) {
			out = append(out, f)
		}
	}
	return out
}

// documents reads the catalogue and makes one document per movie and
// series; the texts of seasons and episodes are added to their series'
// document (an episode's parent is its season, a season's its series).
func documents(ctx context.Context, media Media) ([]document, error) {
	fields := docFields()
	parent := map[int64]int64{}
	var tops []domain.Media
	own := map[int64][]string{} // child texts by record id
	err := media.Each(ctx, domain.MediaFilter{}, func(m domain.Media) error {
		switch m.MediaType {
		case domain.MediaMovie, domain.MediaSeries:
			tops = append(tops, m)
		case domain.MediaSeason, domain.MediaEpisode:
			parent[m.ID] = m.ParentID
			own[m.ID] = childValues(fields, &m)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read the catalogue: %w", err)
	}
	// Children in id order, so the same catalogue makes the same text
	// (and digest) every time.
	rolled := map[int64][]string{}
	for _, id := range slices.Sorted(maps.Keys(own)) {
		if top := topOf(id, parent); top != 0 {
			rolled[top] = append(rolled[top], own[id]...)
		}
	}
	docs := make([]document, 0, len(tops))
	for i := range tops {
		docs = append(docs, makeDocument(fields, &tops[i], rolled[tops[i].ID]))
	}
	return docs, nil
}

// topOf climbs from a season or episode to the record above its season
// (at most two steps: episode → season → series); 0 when it hangs nowhere.
func topOf(id int64, parent map[int64]int64) int64 {
	for range 3 {
		p, child := parent[id]
		if !child {
			return id
		}
		if p == 0 {
			return 0
		}
		id = p
	}
	return 0
}

// isHeading reports whether a document field goes on the document's first
// line, which the local embedder weighs as the heading: the titles in
// every language and the year, what a query naming a film matches.
func isHeading(field string) bool {
	switch field {
	case "title", "title_ru", "title_orig", "year":
		return true
	}
	return false
}

// makeDocument writes m's document: the distinct values of its heading
// fields on the first line, then "name: value" lines of its other
// document fields, then the distinct texts of its seasons and episodes.
func makeDocument(fields []domain.MediaField, m *domain.Media, children []string) document {
	var head []string
	var b strings.Builder
	for _, f := range fields {
		v := fieldText(f, m)
		switch {
		case v == "":
		case isHeading(f.Name):
			if !slices.Contains(head, v) {
				head = append(head, v)
			}
		default:
			b.WriteString(f.Name)
			b.WriteString(": ")
			b.WriteString(v)
			b.WriteByte('\n')
		}
	}
	seen := map[string]bool{}
	for _, t := range children {
		if !seen[t] {
			seen[t] = true
			b.WriteString(t)
			b.WriteByte('\n')
		}
	}
	text := truncateRunes(strings.Join(head, ". ")+"\n"+b.String(), maxDocumentRunes)
	sum := sha256.Sum256([]byte(text))
	return document{id: m.ID, kind: kindOf(m.MediaType), text: text, hash: hex.EncodeToString(sum[:16])}
}

// childValues are the texts a season or episode adds to its series: its
// document fields but its type, category and year, which the series has.
func childValues(fields []domain.MediaField, m *domain.Media) []string {
	var out []string
	for _, f := range fields {
		switch f.Name {
		case "media_type", "main_category", "year":
			continue
		}
		if v := fieldText(f, m); v != "" {
			out = append(out, v)
		}
	}
	return out
}

// fieldText is one field's value as words: lists joined, a category with
// its Russian and English names, a type with its Russian word, so both
// languages' queries meet it.
func fieldText(f domain.MediaField, m *domain.Media) string {
	switch p := f.Ref(m).(type) {
	case *string:
		return categoryOrType(f.Name, strings.TrimSpace(*p))
	case **int:
		if *p == nil {
			return ""
		}
		return strconv.Itoa(**p)
	case *[]string:
		return strings.Join(slices.DeleteFunc(slices.Clone(*p), func(s string) bool { return strings.TrimSpace(s) == "" }), ", ")
	}
	return ""
}

func categoryOrType(name, v string) string {
	switch {
	case v == "":
		return ""
	case name == "main_category":
		if c, ok := domain.CategoryBySlug(v); ok {
			return c.Slug + " " + c.NameRu + " " + c.NameEn
		}
	case name == "media_type" && v == domain.MediaMovie:
		return "movie фильм"
	case name == "media_type" && v == domain.MediaSeries:
		return "series сериал"
	}
	return v
}

func truncateRunes(s string, n int) string {
	count := 0
	for i := range s {
		if count == n {
			return s[:i]
		}
		count++
	}
	return s
}
