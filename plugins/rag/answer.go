package rag

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"mediateka/domain"
	ragindex "mediateka/usecase/rag"
	"mediateka/usecase/textmatch"
)

// whyChars bounds the one line on why to watch an entry.
const whyChars = 140

// listAnswer is the plain answer: a heading and one line per match,
// "• «Title» (year) — why".
func listAnswer(lang string, hits []ragindex.Hit) string {
	var b strings.Builder
	b.WriteString(textmatch.Pick(lang, "Вот что нашлось в библиотеке:", "Here is what the library has:"))
	for _, h := range hits {
		b.WriteString("\n")
		b.WriteString(line(lang, h.Media, why(lang, h.Media)))
	}
	return b.String()
}

// line is one entry of an answer.
func line(lang string, m domain.Media, reason string) string {
	s := "• " + textmatch.Quote(lang, title(lang, m))
	if m.Year != nil {
		s += " (" + strconv.Itoa(*m.Year) + ")"
	}
	if reason != "" {
		s += " — " + reason
	}
	return s
}

// title is the entry's name in lang: the Russian title for Russian, the
// original for English, else the title as scanned.
func title(lang string, m domain.Media) string {
	t := textmatch.Pick(lang, m.TitleRu, m.TitleOrig)
	if t == "" {
		t = m.Title
	}
	return t
}

// why is one line on the entry: why to watch it, else its plot, else its
// genres; cut at a sentence or whyChars.
func why(lang string, m domain.Media) string {
	for _, s := range []string{m.WhyWatch, m.Plot, m.Atmosphere} {
		if s = firstSentence(strings.TrimSpace(s)); s != "" {
			return s
		}
	}
	if len(m.Genres) > 0 {
		return strings.Join(m.Genres, ", ")
	}
	return textmatch.Pick(lang, "есть в библиотеке", "in the library")
}

func firstSentence(s string) string {
	if i := strings.IndexAny(s, ".!?"); i > 0 {
		s = s[:i+1]
	}
	if utf8.RuneCountInString(s) <= whyChars {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:whyChars])) + "…"
}

// groundedAnswer is what the model must answer: a short intro and the
// picks by id, each with a reason.
type groundedAnswer struct {
	Intro string `json:"intro"`
	Picks []struct {
		ID  int64  `json:"id"`
		Why string `json:"why"`
	} `json:"picks"`
}

var groundedSchema = json.RawMessage(`{"type":"object","properties":{"intro":{"type":"string"},` +
	`"picks":{"type":"array","items":{"type":"object","properties":{"id":{"type":"integer"},"why":{"type":"string"}},` +
	`"required":["id","why"]}}},"required":["intro","picks"]}`)

// grounded asks the model to choose from the matches and say why, then
// keeps only what it said about them: picks of other ids are dropped and
// an intro that quotes a title outside the matches is left out. The
// titles in the answer are the catalogue's own, never the model's.
func (p *Plugin) grounded(ctx context.Context, message, lang string, hits []ragindex.Hit) (string, error) {
	text, err := p.d.Model.Generate(ctx, groundedPrompt(message, lang, hits))
	if err != nil {
		return "", err
	}
	var ans groundedAnswer
	if err := json.Unmarshal([]byte(strings.TrimSpace(textmatch.StripCodeFence(text))), &ans); err != nil {
		return "", fmt.Errorf("decode the model's answer: %w", err)
	}
	byID := map[int64]domain.Media{}
	for _, h := range hits {
		byID[h.Media.ID] = h.Media
	}
	var lines []string
	for _, pk := range ans.Picks {
		m, ok := byID[pk.ID]
		if !ok {
			continue // not one of the matches: never named
		}
		delete(byID, pk.ID)
		reason := firstSentence(strings.TrimSpace(pk.Why))
		if reason == "" || !onlyKnownQuotes(reason, hits) {
			reason = why(lang, m) // a reason naming a title the library lacks is not told
		}
		lines = append(lines, line(lang, m, reason))
	}
	if len(lines) == 0 {
		return "", nil
	}
	intro := strings.TrimSpace(ans.Intro)
	if intro == "" || !onlyKnownQuotes(intro, hits) {
		intro = textmatch.Pick(lang, "Вот что нашлось в библиотеке:", "Here is what the library has:")
	}
	return intro + "\n" + strings.Join(lines, "\n"), nil
}

// groundedPrompt carries the matches, by id, and the rules.
func groundedPrompt(message, lang string, hits []ragindex.Hit) domain.Prompt {
	var b strings.Builder
	for _, h := range hits {
		m := h.Media
		fmt.Fprintf(&b, "id %d: %s", m.ID, title(lang, m))
		if m.Year != nil {
			fmt.Fprintf(&b, " (%d)", *m.Year)
		}
		fmt.Fprintf(&b, "; %s; %s\n", strings.Join(m.Genres, ", "), why(lang, m))
	}
	language := textmatch.Pick(lang, "Russian", "English")
	return domain.Prompt{
		System: "You suggest films and series from the person's own media library. Choose only among the " +
			"catalogue entries listed below, by their id; never name anything else. Answer in " + language +
			" with a one-sentence intro that names no title, and for each pick one short sentence on why it fits.\n\nCatalogue entries:\n" + b.String(),
		Message: message,
		Schema:  groundedSchema,
	}
}

// onlyKnownQuotes reports whether every quoted name in s is one of the
// matches' titles.
func onlyKnownQuotes(s string, hits []ragindex.Hit) bool {
	known := map[string]bool{}
	for _, h := range hits {
		for _, t := range []string{h.Media.Title, h.Media.TitleRu, h.Media.TitleOrig} {
			known[normalise(t)] = true
		}
	}
	for _, q := range quoted(s) {
		if !known[normalise(q)] {
			return false
		}
	}
	return true
}

// quoted lists the texts between «» or "" in s.
func quoted(s string) []string {
	var out []string
	for _, pair := range [][2]string{{"«", "»"}, {"\"", "\""}, {"“", "”"}} {
		rest := s
		for {
			i := strings.Index(rest, pair[0])
			if i < 0 {
				break
			}
			rest = rest[i+len(pair[0]):]
			j := strings.Index(rest, pair[1])
			if j < 0 {
				break
			}
			out = append(out, rest[:j])
			rest = rest[j+len(pair[1]):]
		}
	}
	return out
}
