package offline

import (
	"strings"
	"unicode"
)

// Language of an answer.
type lang int

const (
	english lang = iota
	russian
)

// frameWords are the words of a question around a title: "есть ли у меня",
// "do I have", "найди фильм"… They are dropped before searching, and tell the
// language of the question when the title itself is in another script.
var frameWords = setOf(
	// Russian
	"есть", "ли", "у", "меня", "нас", "в", "во", "моей", "моем", "моём", "мой", "моя", "мои",
	"библиотеке", "каталоге", "коллекции", "фильмотеке", "найди", "найти", "поищи", "поиск",
	"покажи", "показать", "ищу", "хочу", "посмотреть", "глянуть", "включи", "фильм", "фильмы",
	"фильма", "фильмов", "кино", "сериал", "сериалы", "сериала", "мультфильм", "мультфильмы",
	"мультик", "мульт", "пожалуйста", "мне", "какой", "какие", "а", "и", "там", "такой",
	"такое", "называется", "название", "под", "названием", "что", "нибудь", "нибудь", "можешь",
	"можно", "подскажи", "скажи", "привет", "здравствуй", "здравствуйте",
	// English
	"do", "i", "have", "has", "is", "are", "there", "any", "a", "an", "in", "my", "our", "library",
	"collection", "catalog", "catalogue", "find", "search", "for", "show", "me", "movie", "movies",
	"film", "films", "series", "want", "to", "watch", "please", "can", "you", "could", "what",
	"got", "called", "named", "hi", "hello", "hey", "we",
)

// weakWords are kept inside a phrase ("The Matrix", "Брат 2") but are never
// searched on their own, since they would match half the catalogue.
var weakWords = setOf("the", "of", "and", "or", "on", "at", "и", "или", "на", "не", "из", "от", "до", "по")

func setOf(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// query is what the assistant understood of a message.
type query struct {
	lang   lang
	phrase string   // the likely title: the message without frame words
	words  []string // the phrase's words, lower case
}

// parse splits a message into words (letters and digits; "ё" read as "е"),
// drops the frame words and picks the answer's language: the language of
// the frame when there is one ("do I have Брат" is an English question),
// else the script of the message (Cyrillic → Russian).
func parse(message string) query {
	var q query
	var frame []string
	for _, w := range words(message) {
		if frameWords[w] {
			frame = append(frame, w)
			continue
		}
		q.words = append(q.words, w)
	}
	q.phrase = strings.Join(q.words, " ")
	q.lang = english
	if cyrillic(strings.Join(frame, " ")) || (len(frame) == 0 && cyrillic(message)) {
		q.lang = russian
	}
	return q
}

// words lower-cases the message and cuts it at everything that is not a
// letter, a digit or an inner apostrophe/hyphen ("spider-man", "ocean's").
func words(message string) []string {
	s := strings.ReplaceAll(strings.ToLower(message), "ё", "е")
	return strings.FieldsFunc(s, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' && r != '\''
	})
}

func cyrillic(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Cyrillic, r) {
			return true
		}
	}
	return false
}

// russianEndings are case endings stripped to find "Матрица" from
// "матрицу" or "матрицы"; longest first.
var russianEndings = []string{"ами", "ями", "ого", "его", "ому", "ему", "ой", "ей", "ом", "ем", "ам", "ям", "ах", "ях", "ов", "ев", "ую", "юю", "а", "я", "у", "ю", "ы", "и", "е", "о"}

// stem trims one Russian case ending from words of five letters or more,
// so that the stem still says enough to search on.
func stem(w string) string {
	if len([]rune(w)) < 5 || !cyrillic(w) {
		return w
	}
	for _, e := range russianEndings {
		if strings.HasSuffix(w, e) {
			return strings.TrimSuffix(w, e)
		}
	}
	return w
}

// searchTerms lists what to search, best first: the whole phrase, then each
// meaningful word, then the stems of inflected Russian words. Duplicates are
// dropped.
func (q query) searchTerms() []string {
	seen := map[string]bool{}
	var out []string
	add := func(s string) {
		if s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	add(q.phrase)
	for _, w := range q.words {
		if len([]rune(w)) >= 3 && !weakWords[w] {
			add(w)
		}
	}
	for _, w := range q.words {
		if s := stem(w); s != w {
			add(s)
		}
	}
	return out
}
