package textmatch

import (
	"context"
	"strings"
	"unicode"

	"mediateka/domain"
)

// The bilingual helpers below are shared by everything that talks to people
// in Russian and English: the chat, the plugins, the offline assistant, and
// later the bot, speech and RAG. One copy, so that they all agree on what
// language a message is in.

// IsCyrillic reports whether s has at least one Cyrillic letter.
func IsCyrillic(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Cyrillic, r) {
			return true
		}
	}
	return false
}

// DetectLang tells the language of a message by its script: any Cyrillic
// letter makes it Russian ("какие дорожки у The Matrix"), else any Latin
// letter English; a message of digits, punctuation or emoji has none ("").
func DetectLang(message string) string {
	latin := false
	for _, r := range message {
		switch {
		case unicode.Is(unicode.Cyrillic, r):
			return domain.LangRussian
		case unicode.Is(unicode.Latin, r):
			latin = true
		}
	}
	if latin {
		return domain.LangEnglish
	}
	return ""
}

// AnswerLang is the language to answer message in: the caller's in ctx
// (which the chat already derived from the message and the account), else
// the message's own, else domain.DefaultLang.
func AnswerLang(ctx context.Context, message string) string {
	if c, _ := domain.CallerFrom(ctx); c.Lang != "" {
		return c.Lang
	}
	if l := DetectLang(message); l != "" {
		return l
	}
	return domain.DefaultLang
}

// Phrase is one sentence in both languages.
type Phrase struct {
	RU, EN string
}

// In returns the phrase in lang: Russian for "ru", English for anything
// else (English is the fallback of every answer).
func (p Phrase) In(lang string) string { return Pick(lang, p.RU, p.EN) }

// Pick is Phrase.In for anything kept per language, such as a plugin's
// whole table of sentences: ru for "ru", else en.
func Pick[T any](lang string, ru, en T) T {
	if lang == domain.LangRussian {
		return ru
	}
	return en
}

// russianEndings are noun and adjective case endings, longest first, so
// that "матрицами" loses "ами" rather than "и".
var russianEndings = []string{"ами", "ями", "ого", "его", "ому", "ему", "ой", "ей", "ом", "ем", "ам", "ям", "ах", "ях",
	"ов", "ев", "ую", "юю", "а", "я", "у", "ю", "ы", "и", "е", "о"}

// Stem trims one Russian case ending from a Cyrillic word of five letters
// or more ("матрицу", "матрицы" → "матриц"), so a title asked about in any
// case finds the title as written. Shorter words and non-Cyrillic words
// come back unchanged: their stem would say too little to search on.
func Stem(word string) string {
	if len([]rune(word)) < 5 || !IsCyrillic(word) {
		return word
	}
	for _, e := range russianEndings {
		if strings.HasSuffix(word, e) {
			return strings.TrimSuffix(word, e)
		}
	}
	return word
}

// PluralRu picks the Russian form of a word for n: 1 фильм, 2 фильма,
// 5 фильмов, 11 фильмов, 21 фильм. Every answer that counts things in
// Russian (chat, bot, speech) needs the three forms.
func PluralRu(n int, one, few, many string) string {
	n %= 100
	if n < 0 {
		n = -n
	}
	switch {
	case n >= 11 && n <= 14:
		return many
	case n%10 == 1:
		return one
	case n%10 >= 2 && n%10 <= 4:
		return few
	}
	return many
}

// PluralEn picks the English form of a word for n: 1 episode, 2 episodes.
func PluralEn(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
