package textmatch

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"

	"mediateka/domain"
)

func TestDetectLang(t *testing.T) {
	for msg, want := range map[string]string{
		"Просканируй библиотеку":           "ru",
		"какие дорожки у The Matrix?":      "ru",
		"scan the library":                 "en",
		"Ёлки":                             "ru",
		"Amélie":                           "en",
		"42 !!! 🎬":                         "",
		"":                                 "",
		"what audio tracks does Брат have": "ru",
	} {
		assert.Equal(t, want, DetectLang(msg), msg)
	}
}

func TestAnswerLangPrefersTheCaller(t *testing.T) {
	bg := context.Background()
	assert.Equal(t, "ru", AnswerLang(bg, "привет"), "no caller: the message's script")
	assert.Equal(t, "en", AnswerLang(bg, "hello"))
	assert.Equal(t, domain.DefaultLang, AnswerLang(bg, "2024"), "no caller, no letters: the default")
	ru := domain.WithCaller(bg, domain.Caller{Lang: "ru"})
	assert.Equal(t, "ru", AnswerLang(ru, "2024"), "the caller's language (the account's) when the message has none")
	assert.Equal(t, "en", AnswerLang(domain.WithCaller(bg, domain.Caller{}), "hello"), "a caller without a language")
}

func TestPhraseIn(t *testing.T) {
	p := Phrase{RU: "Готово.", EN: "Done."}
	assert.Equal(t, "Готово.", p.In("ru"))
	assert.Equal(t, "Done.", p.In("en"))
	assert.Equal(t, "Done.", p.In(""), "English is the fallback")
	assert.Equal(t, "Done.", p.In("de"))
}

func TestStem(t *testing.T) {
	for in, want := range map[string]string{
		"матрицу":   "матриц",
		"матрицы":   "матриц",
		"матрицами": "матриц",
		"титаника":  "титаник",
		"брата":     "брат",
		"брат":      "брат", // under five letters: kept whole
		"тьмы":      "тьмы",
		"matrix":    "matrix",
		"бригады":   "бригад",
	} {
		assert.Equal(t, want, Stem(in), in)
	}
}

func TestPlurals(t *testing.T) {
	for n, want := range map[int]string{0: "фильмов", 1: "фильм", 2: "фильма", 4: "фильма", 5: "фильмов",
		11: "фильмов", 12: "фильмов", 14: "фильмов", 21: "фильм", 22: "фильма", 101: "фильм", 111: "фильмов", 1002: "фильма"} {
		assert.Equal(t, want, PluralRu(n, "фильм", "фильма", "фильмов"), "%d", n)
	}
	assert.Equal(t, "episode", PluralEn(1, "episode", "episodes"))
	assert.Equal(t, "episodes", PluralEn(0, "episode", "episodes"))
	assert.Equal(t, "episodes", PluralEn(2, "episode", "episodes"))
}
