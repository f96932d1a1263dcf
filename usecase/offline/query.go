package offline

import (
	"context"
	"strings"
	"unicode"

	"mediateka/domain"
	"mediateka/usecase/textmatch"
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
	lang   string   // "ru" or "en"
	phrase string   // the likely title: the message without frame words
	words  []string // the phrase's words, lower case
}

// parse splits a message into words (letters and digits; "ё" read as "е"),
// drops the frame words and picks the answer's language: the language of
// the frame when there is one ("do I have Брат" is an English question),
// else the caller's, which the chat took from the message's script or the
// account.
func parse(ctx context.Context, message string) query {
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
	q.lang = domain.LangEnglish
	switch {
	case len(frame) == 0:
		q.lang = textmatch.Pick(textmatch.AnswerLang(ctx, message), domain.LangRussian, domain.LangEnglish)
	case textmatch.IsCyrillic(strings.Join(frame, " ")):
		q.lang = domain.LangRussian
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
		if s := textmatch.Stem(w); s != w {
			add(s)
		}
	}
	return out
}
