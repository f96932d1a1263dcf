package offline_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/usecase/offline"
)

// questionRow is one question of the table: the answer must contain every
// fact of has and none of hasNot.
type questionRow struct {
	ask    string
	has    []string
	hasNot []string
}

// libraryAssistant is the assistant over the table's catalogue, on a fixed
// day, with the library's two disks.
func libraryAssistant(t *testing.T, opt offline.Options) *offline.Model {
	t.Helper()
	opt.Roots = libraryRoots
	opt.Now = func() time.Time { return time.Date(2025, 3, 14, 20, 0, 0, 0, time.UTC) }
	return offline.New(libraryCatalog(t), opt)
}

// askAs asks as a signed-in user whose language the chat took from the
// message, as the chat does.
func askAs(t *testing.T, m *offline.Model, message string, history ...domain.ChatTurn) string {
	t.Helper()
	ctx := domain.WithCaller(context.Background(), domain.Caller{UserID: 7, Lang: langOf(message)})
	out, err := m.Generate(ctx, domain.Prompt{Message: message, History: history})
	require.NoError(t, err)
	return out
}

func langOf(message string) string {
	for _, r := range message {
		if r >= 'а' && r <= 'я' || r >= 'А' && r <= 'Я' {
			return domain.LangRussian
		}
	}
	return domain.LangEnglish
}

func runQuestions(t *testing.T, rows []questionRow) {
	t.Helper()
	m := libraryAssistant(t, offline.Options{})
	for _, r := range rows {
		out := askAs(t, m, r.ask)
		for _, want := range r.has {
			assert.Contains(t, out, want, "%q answered:\n%s", r.ask, out)
		}
		for _, bad := range r.hasNot {
			assert.NotContains(t, out, bad, "%q answered:\n%s", r.ask, out)
		}
	}
}

func TestScopedCounts(t *testing.T) {
	runQuestions(t, []questionRow{
		{"сколько серий в Кухне?", []string{"У сериала «Кухня» (2012) в каталоге 9 серий (2 сезона)", "По описанию в сериале 6 сезонов"}, []string{"Адская", "19", "11 серий"}},
		{"Сколько сезонов у Кухни", []string{"У сериала «Кухня» (2012) в каталоге 2 сезона (9 серий)"}, []string{"Адская"}},
		{"сколько серий во втором сезоне Кухни?", []string{"В сезоне 2 сериала «Кухня» (2012) в каталоге 4 серии."}, []string{"9 серий"}},
		{"сколько серий в 5 сезоне кухни", []string{"нет 5 сезона", "есть сезоны: 1, 2"}, nil},
		{"сколько серий в Тьме", []string{"У сериала «Тьма» (2017) в каталоге 6 серий (3 сезона)"}, []string{"19"}},
		{"сколько эпизодов у сериала Во все тяжкие", []string{"У сериала «Во все тяжкие» (2008) в каталоге 2 серии (1 сезон)"}, nil},
		{"сколько серий в Адской кухне", []string{"У сериала «Адская кухня» (2005) в каталоге 2 серии"}, []string{"9 серий"}},
		{"сколько у меня фильмов на диске Disk 2", []string{"В каталоге 5 фильмов (диск «Disk 2»)"}, nil},
		{"сколько фильмов на Disk 2", []string{"В каталоге 5 фильмов (диск «Disk 2»)", "«Интерстеллар» (2014)", "«Брат 2» (2000)"}, []string{"12 фильмов", "Матрица"}},
		{"Сколько фильмов на диске 1?", []string{"7 фильмов (диск «Disk 1»)", "«Матрица» (1999)", "…и ещё 2"}, []string{"Интерстеллар"}},
		{"сколько сериалов на Disk 2", []string{"2 сериала (диск «Disk 2»)", "«Тьма»", "«Адская кухня»"}, []string{"Во все тяжкие"}},
		{"сколько серий на диске 2", []string{"В каталоге 8 серий (диск «Disk 2»)"}, nil},
		{"сколько фильмов 2010 года", []string{"2 фильма (2010 год)", "«Начало» (2010)", "«Социальная сеть» (2010)"}, []string{"Интерстеллар"}},
		{"сколько фильмов 90-х", []string{"4 фильма (1990–1999 годы)", "«Криминальное чтиво» (1994)", "«Матрица» (1999)"}, []string{"Перезагрузка"}},
		{"сколько фильмов с 2010 года", []string{"4 фильма (с 2010 года)", "«Джентльмены» (2019)"}, []string{"Матрица"}},
		{"сколько фильмов до 1995 года", []string{"3 фильма (до 1995 года)", "«Мальтийский сокол» (1941)"}, []string{"Матрица"}},
		{"сколько у меня комедий?", []string{"2 фильма и 1 сериал (Комедии)", "«Мальчишник в Вегасе»", "«Джентльмены»", "«Кухня»"}, []string{"Матрица"}},
		{"сколько фантастики", []string{"4 фильма и 1 сериал (Фантастика)", "«Тьма»"}, []string{"Брат"}},
		{"сколько мультфильмов", []string{"В каталоге 1 фильм (Мультфильмы)", "«Король Лев»"}, []string{"0 сериалов"}},
		{"сколько криминальных фильмов на Disk 2", []string{"3 фильма (Криминал, диск «Disk 2»)", "«Джентльмены»"}, []string{"Криминальное чтиво"}},
		{"сколько фильмов в жанре нуар", []string{"1 фильм (нуар)", "«Мальтийский сокол» (1941)"}, []string{"Матрица"}},
		{"сколько мультфильмов", []string{"1 фильм (Мультфильмы)", "«Король Лев»"}, nil},
		{"сколько фильмов?", []string{"В каталоге 12 фильмов."}, []string{"•"}},
		{"сколько сериалов", []string{"В каталоге 4 сериала."}, nil},
		{"сколько всего серий", []string{"В каталоге 19 серий."}, nil},
		{"сколько фильмов Матрица", []string{"2 фильма по запросу «матрица»", "«Матрица» (1999)", "«Матрица: Перезагрузка» (2003)"}, []string{"Брат"}},
		{"сколько серий на диске 3", []string{"Диска «3» в библиотеке нет", "«Disk 1», «Disk 2»"}, nil},
		{"сколько серий в Матрице", []string{"«Матрица» (1999) — это фильм, у него нет сезонов и серий"}, nil},
		{"сколько серий в Титанике", []string{"«титанике» в каталоге не нашлось"}, []string{"19"}},
		{"how many episodes does Dark have?", []string{"“Dark” (2017) has 6 episodes (3 seasons) in the catalogue"}, []string{"Тьма"}},
		{"How many seasons does Dark have", []string{"has 3 seasons (6 episodes)"}, nil},
		{"how many episodes are in season 2 of Dark?", []string{"Season 2 of “Dark” (2017) has 2 episodes"}, nil},
		{"how many episodes in the third season of Dark", []string{"Season 3 of “Dark” (2017) has 1 episode in"}, nil},
		{"how many episodes of Hell's Kitchen", []string{"“Hell's Kitchen” (2005) has 2 episodes (1 season)"}, []string{"Кухня"}},
		{"how many films are on Disk 2", []string{"The catalogue has 5 movies (disk “Disk 2”)", "“Interstellar” (2014)"}, []string{"The Matrix"}},
		{"how many movies from 2010", []string{"2 movies (2010)", "“Inception” (2010)", "“The Social Network” (2010)"}, nil},
		{"how many comedies do I have", []string{"2 movies and 1 series (Comedy)", "“The Hangover”", "“The Gentlemen”"}, nil},
		{"how many sci-fi movies", []string{"4 movies (Science fiction)", "“Interstellar”"}, []string{"Dark"}},
		{"how many movies from the 90s", []string{"4 movies (1990–1999)", "“Pulp Fiction” (1994)"}, nil},
		{"how many thrillers", []string{"1 movie and 1 series (Thriller)", "“Inception”", "“Dark”"}, nil},
		{"How many Matrix movies do I have?", []string{"2 movies matching “matrix”", "“The Matrix Reloaded” (2003)"}, nil},
		{"how many episodes on disk 9", []string{"The library has no disk “9”", "“Disk 1”, “Disk 2”"}, nil},
		{"how many documentaries", []string{"0 movies and 0 series (Documentary)"}, []string{"•"}},
		{"how many series", []string{"The catalogue has 4 series."}, nil},
	})
}

func TestSuggestionsFromCategoriesGenresAndYears(t *testing.T) {
	runQuestions(t, []questionRow{
		{"посоветуй комедию", []string{"Что посмотреть (Комедии):", "«Мальчишник в Вегасе» (2009), фильм, Комедии", "«Джентльмены»", "«Кухня»"}, []string{"Матрица", "ничего не нашлось"}},
		{"Покажи фантастику", []string{"В каталоге 4 фильма и 1 сериал (Фантастика):", "«Интерстеллар» (2014), фильм, Фантастика, драма, рейтинг 8.6 — Космос, время и отец", "«Начало»", "«Тьма»"}, []string{"Брат", "Кухня"}},
		{"что посмотреть вечером?", []string{"Что посмотреть вечером:", "Скажите «ещё»"}, []string{"«Брат» (1997)", "ничего не нашлось"}},
		{"What can I watch tonight?", []string{"Something to watch tonight:", "Say “more”"}, []string{"“Брат” (1997)", "Nothing in the catalogue"}},
		{"recommend a comedy", []string{"Something to watch (Comedy):", "“The Hangover” (2009), movie, Comedy", "“The Gentlemen”"}, []string{"Matrix"}},
		{"посоветуй фильм 2010 года", []string{"Что посмотреть (фильмы, 2010 год):", "«Начало» (2010)", "«Социальная сеть» (2010)"}, []string{"Интерстеллар"}},
		{"посоветуй что-нибудь похожее на Матрицу", []string{"Похожее на «Матрица» (1999) (Фантастика):", "«Начало»", "«Интерстеллар»"}, []string{"• «Матрица» (1999)", "Кухня"}},
		{"show me science fiction", []string{"The catalogue has 4 movies and 1 series (Science fiction):", "“Interstellar”", "“Dark”"}, []string{"Brat", "Hangover"}},
		{"фильмы 90-х", []string{"В каталоге 4 фильма (1990–1999 годы):", "«Криминальное чтиво» (1994)", "«Король Лев» (1994), фильм, Мультфильмы, семейный",
			"• «Брат» (1997), фильм, Криминал, файл сейчас недоступен"}, []string{"Перезагрузка"}},
		{"покажи сериалы на Disk 2", []string{"2 сериала (диск «Disk 2»):", "«Тьма»", "«Адская кухня»"}, []string{"Кухня» (2012)"}},
		{"suggest a thriller", []string{"(Thriller):", "“Inception”", "“Dark”"}, nil},
		{"посоветуй мультфильм", []string{"«Король Лев» (1994)"}, []string{"Матрица"}},
		{"что посмотреть из нуара", []string{"«Мальтийский сокол» (1941)"}, []string{"Матрица"}},
		{"посоветуй что-нибудь про кенгуру", []string{"«кенгуру» в каталоге не нашлось — ни такого названия, ни такого жанра. Вот что есть:\nЧто посмотреть:\n• "}, nil},
		{"что бы такого посмотреть", []string{"Что посмотреть:\n• "}, []string{"не нашлось"}},
		{"what's good to watch tonight?", []string{"Something to watch tonight:\n• "}, []string{"Something like"}},
		{"посоветуй сериал", []string{"Что посмотреть (сериалы):", "«Тьма»", "«Во все тяжкие»"}, []string{"фильм,"}},
		{"какие фильмы на диске 2", []string{"В каталоге 5 фильмов (диск «Disk 2»):", "• «Брат» (1997), фильм, Криминал, файл сейчас недоступен"}, []string{"Матрица"}},
		{"посоветуй документалку", []string{"В каталоге нет ничего подходящего (Документальные)"}, nil},
		{"мне скучно", []string{"Что посмотреть:"}, []string{"ничего не нашлось"}},
	})
}

func TestSmallTalkSubtitlesAndSearch(t *testing.T) {
	runQuestions(t, []questionRow{
		{"привет", []string{"Привет! Чем помочь?", "AI-модель не настроена"}, []string{"ничего не нашлось", "Hello"}},
		{"Hello!", []string{"Hello! How can I help?"}, []string{"Nothing in the catalogue"}},
		{"добрый вечер", []string{"Привет!"}, []string{"Что посмотреть"}},
		{"спасибо большое!", []string{"Пожалуйста!"}, []string{"ничего не нашлось"}},
		{"thanks a lot", []string{"You're welcome!"}, nil},
		{"пока", []string{"До встречи!"}, nil},
		{"good night", []string{"See you!"}, nil},
		{"что ты умеешь?", []string{"сколько серий в Кухне", "посоветуй комедию"}, nil},
		{"what can you do?", []string{"how many episodes of Dark", "recommend a comedy"}, nil},
		{"какие субтитры у Матрицы", []string{"Файлы субтитров рядом с видео «Матрица» (1999) (2):",
			"Русский — The.Matrix.1999.ru.srt", "English (forced) — The.Matrix.1999.en.forced.srt"}, []string{"Перезагрузка"}},
		{"which subtitles does The Matrix have?", []string{"Subtitle files beside the video of “The Matrix” (1999) (2):", "The.Matrix.1999.ru.srt"}, nil},
		{"какие субтитры у Интерстеллара", []string{"Рядом с видеофайлом «Интерстеллар» (2014) нет файлов субтитров"}, nil},
		{"subtitles of Dark", []string{"“Dark” (2017) is a series or a season"}, nil},
		{"какие субтитры у Титаника", []string{"«титаника» в каталоге не нашлось"}, nil},
		{"есть ли у меня Интерстеллар?", []string{"• Интерстеллар / Interstellar (2014), фильм, Фантастика"}, []string{"Начало"}},
		{"do I have Inception", []string{"• Inception / Начало (2010), movie, Science fiction"}, nil},
		{"найди брата", []string{"• Брат (1997), фильм, Криминал, файл сейчас недоступен", "• Брат 2 (2000)"}, nil},
		{"Джентльменов", []string{"• Джентльмены / The Gentlemen (2019)"}, nil},
	})
}

// A first answer says that no model is configured; the next answers of the
// same conversation do not repeat it.
func TestTheDisclaimerComesOncePerConversation(t *testing.T) {
	m := libraryAssistant(t, offline.Options{})
	first := askAs(t, m, "сколько серий в Кухне?")
	assert.Contains(t, first, "AI-модель не настроена")
	history := []domain.ChatTurn{{Role: domain.TurnUser, Text: "сколько серий в Кухне?"}, {Role: domain.TurnModel, Text: first}}
	second := askAs(t, m, "а в Тьме?", history...)
	assert.NotContains(t, second, "AI-модель не настроена")
	history[1].Role = domain.TurnAssistant
	assert.NotContains(t, askAs(t, m, "hello", history...), "No AI model is configured")
	assert.Contains(t, askAs(t, m, "hello", domain.ChatTurn{Role: domain.TurnUser, Text: "hi"}), "No AI model is configured",
		"an earlier user turn alone is not an answer")
}

// "а ещё?" brings titles not named before in the conversation, until there
// are none left.
func TestMoreBringsNewTitles(t *testing.T) {
	m := libraryAssistant(t, offline.Options{Picks: 2})
	history := []domain.ChatTurn{{Role: domain.TurnUser, Text: "посоветуй фантастику"}}
	named := map[string]bool{}
	titles := []string{"«Матрица» (1999)", "«Матрица: Перезагрузка» (2003)", "«Интерстеллар» (2014)", "«Начало» (2010)", "«Тьма» (2017)"}
	answer := askAs(t, m, "посоветуй фантастику")
	for round := 0; round < 3; round++ {
		fresh := 0
		for _, title := range titles {
			if strings.Contains(answer, "• "+title) {
				assert.False(t, named[title], "round %d named %s again:\n%s", round, title, answer)
				named[title], fresh = true, fresh+1
			}
		}
		assert.Positive(t, fresh, "round %d:\n%s", round, answer)
		history = append(history, domain.ChatTurn{Role: domain.TurnModel, Text: answer}, domain.ChatTurn{Role: domain.TurnUser, Text: "а ещё?"})
		answer = askAs(t, m, "а ещё?", history...)
	}
	assert.Len(t, named, len(titles))
	assert.Contains(t, answer, "Всё подходящее (5) я уже называл выше")
}

// watchedFake stands in for the watching state (usecase/watching): it
// shows what the assistant does with the port, whatever the store holds.
type watchedFake map[int64]domain.Seen

func (w watchedFake) Seen(_ context.Context, userID int64, ids []int64) (map[int64]domain.Seen, error) {
	out := map[int64]domain.Seen{}
	for _, id := range ids {
		if s, ok := w[id]; ok && userID == 7 {
			out[id] = s
		}
	}
	return out, nil
}

func TestSuggestionsUseTheWatchingStateWhenWired(t *testing.T) {
	cat := libraryCatalog(t)
	found, err := cat.SearchTitles(context.Background(), "Интерстеллар", 1)
	require.NoError(t, err)
	inception, err := cat.SearchTitles(context.Background(), "Начало", 1)
	require.NoError(t, err)
	m := offline.New(cat, offline.Options{Roots: libraryRoots, Picks: 4,
		Watching: watchedFake{found[0].ID: domain.SeenFinished, inception[0].ID: domain.SeenStarted}})
	out := askAs(t, m, "посоветуй фантастику")
	assert.NotContains(t, out, "Интерстеллар", "finished: left out")
	assert.Contains(t, out, "Что посмотреть (Фантастика):\n• «Начало» (2010), фильм, Фантастика, триллер, рейтинг 8.8, вы начали смотреть")
}
