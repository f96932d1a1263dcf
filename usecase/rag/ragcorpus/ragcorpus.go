// Package ragcorpus is the retrieval test of semantic search: a catalogue
// of 310 films and series with Russian and English titles, years, genres
// and plots, and 52 queries in both languages with the entries that answer
// them, all written for the test (testdata/corpus.txt, testdata/queries.txt).
// The local embedder's test and the index's test both measure recall@k
// on it, so the two agree on what "finds the right film" means.
package ragcorpus

import (
	"cmp"
	_ "embed"
	"fmt"
	"strconv"
	"strings"

	"mediateka/domain"
)

//go:embed testdata/corpus.txt
var corpusText string

//go:embed testdata/queries.txt
var queriesText string

// Query is one question of the test and the ids of the entries that
// answer it.
type Query struct {
	Lang     string // domain.LangRussian or domain.LangEnglish
	Text     string
	Relevant []int64
}

// Corpus returns the catalogue: movies and series with their ids (1…),
// titles, year, main category, genres, country, directors and plot. Title
// is the Russian title, else the original one. It panics if the embedded
// file is malformed, which its own test rules out.
func Corpus() []domain.Media {
	var out []domain.Media
	for _, f := range records(corpusText, 10) {
		m := domain.Media{
			ID: mustInt(f[0]), MediaType: domain.MediaMovie, TitleRu: f[2], TitleOrig: f[3],
			MainCategory: f[5], Genres: list(f[6]), Country: f[7], Directors: list(f[8]), Plot: f[9],
		}
		if f[1] == "s" {
			m.MediaType = domain.MediaSeries
		}
		m.Title = cmp.Or(m.TitleRu, m.TitleOrig)
		y := int(mustInt(f[4]))
		m.Year = &y
		out = append(out, m)
	}
	return out
}

// Queries returns the test's queries, Russian first.
func Queries() []Query {
	var out []Query
	for _, f := range records(queriesText, 3) {
		q := Query{Lang: f[0], Text: f[1]}
		for _, id := range list(f[2]) {
			q.Relevant = append(q.Relevant, mustInt(id))
		}
		out = append(out, q)
	}
	return out
}

// records splits text into its non-comment lines and each line into n
// fields separated by "|".
func records(text string, n int) [][]string {
	var out [][]string
	for i, line := range strings.Split(strings.TrimSpace(text), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "|")
		if len(f) != n {
			panic(fmt.Sprintf("ragcorpus: line %d has %d fields, want %d", i+1, len(f), n))
		}
		out = append(out, f)
	}
	return out
}

// list splits a comma-separated field, dropping blanks.
func list(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func mustInt(s string) int64 {
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil {
		panic("ragcorpus: " + err.Error())
	}
	return n
}
