package rag

import (
	"context"
	"strings"
	"unicode"

	"mediateka/domain"
	"mediateka/usecase/textmatch"
)

// triggers mark a message as asking for a suggestion, in normalised form
// (lower case, ё as е, punctuation as spaces); the first found is cut
// from the query with the filler words around it.
var triggers = []string{
	"посоветуй", "посоветуйте", "порекомендуй", "порекомендуйте", "что посмотреть", "что бы посмотреть",
	"что можно посмотреть", "хочу посмотреть", "похожее на", "похожий на", "похожие на", "что нибудь вроде",
	"что нибудь похожее", "что то вроде", "что нибудь для", "что нибудь про", "что нибудь о",
	"recommend", "suggest", "something like", "find me something", "anything like", "similar to",
	"what to watch", "what should i watch", "what can i watch", "something for", "something about",
	"something funny", "something scary",
}

// fillers are words that carry no meaning for the search.
var fillers = map[string]bool{
	"мне": true, "нам": true, "пожалуйста": true, "что": true, "нибудь": true, "то": true, "посмотреть": true,
	"вроде": true, "на": true, "про": true, "о": true, "об": true, "me": true, "please": true, "a": true, "an": true, "the": true, "some": true,
	"something": true, "like": true, "to": true, "watch": true, "movie": true, "film": true, "фильм": true,
	"can": true, "you": true, "i": true, "for": true, "about": true, "find": true,
}

// recommendation reports whether message asks for a suggestion and
// returns what to search for: the message without its trigger and filler
// words (the whole message when nothing else is left: "посоветуй фильм").
func recommendation(message string) (string, bool) {
	norm := " " + normalise(message) + " "
	found := ""
	for _, t := range triggers {
		if strings.Contains(norm, " "+t+" ") {
			found = t
			break
		}
	}
	if found == "" {
		return "", false
	}
	rest := strings.Replace(norm, found, " ", 1)
	var words []string
	for _, w := range strings.Fields(rest) {
		if !fillers[w] {
			words = append(words, w)
		}
	}
	if w := strings.Fields(found); w[len(w)-1] == "funny" || w[len(w)-1] == "scary" {
		words = append(words, w[len(w)-1])
	}
	if len(words) == 0 {
		return strings.TrimSpace(message), true
	}
	return strings.Join(words, " "), true
}

// normalise lower-cases s, reads ё as е and turns everything but letters
// and digits into single spaces.
func normalise(s string) string {
	s = strings.ReplaceAll(strings.ToLower(s), "ё", "е")
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}), " ")
}

// isTheTitle reports whether m is the title the person compares with: the
// query is just its title, or the message compares ("похожее на Тьма",
// "something like Dark") and names it as whole words.
func isTheTitle(m domain.Media, query, message string) bool {
	q, msg := normalise(query), normalise(message)
	compares := comparing(msg)
	for _, t := range []string{m.Title, m.TitleRu, m.TitleOrig} {
		if t == "" {
			continue
		}
		n := normalise(t)
		if n == q || compares && namesInAnyCase(strings.Fields(msg), strings.Fields(n)) {
			return true
		}
	}
	return false
}

// namesInAnyCase reports whether title's words stand together in words,
// each in any of its forms ("похожее на Матрицу" names "Матрица").
func namesInAnyCase(words, title []string) bool {
	for i := 0; len(title) > 0 && i+len(title) <= len(words); i++ {
		all := true
		for j, w := range title {
			if words[i+j] != w && !textmatch.Inflects(words[i+j], w) {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

// comparisons mark a query that names the title it compares with
// ("похожее на Тьму", "something like Dark"): that title is the
// yardstick, not an answer.
var comparisons = []string{"похож", "вроде", "наподобие", "like", "similar"}

// comparing reports whether the normalised message compares with a title.
func comparing(q string) bool {
	for _, w := range strings.Fields(q) {
		for _, c := range comparisons {
			if strings.HasPrefix(w, c) {
				return true
			}
		}
	}
	return false
}

// answerLang is the language to answer in (the caller's, else the
// message's).
func answerLang(ctx context.Context, message string) string {
	return textmatch.AnswerLang(ctx, message)
}
