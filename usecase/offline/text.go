package offline

import (
	"fmt"
	"strconv"
	"strings"

	"mediateka/domain"
	"mediateka/usecase/textmatch"
)

// phrases are the assistant's sentences in one language.
type phrases struct {
	askTitle   string
	found      string // %s: the phrase
	notFound   string // %s: the phrase
	more       string
	missing    string
	types      map[string]string
	seasonNo   string // %d
	episodeNo  string // %d
	categories func(domain.Category) string
}

// russianText and englishText are the assistant's two languages.
var (
	russianText = phrases{
		askTitle:  "Напишите название фильма или сериала — например, «есть ли у меня Матрица», — и я поищу его в каталоге. Ещё я могу посчитать («сколько серий в Кухне») и посоветовать, что посмотреть («посоветуй комедию»).",
		found:     "По запросу «%s» в каталоге нашлось:",
		notFound:  "По запросу «%s» в каталоге ничего не нашлось. Попробуйте написать название иначе, например как в оригинале.",
		more:      "…и это не всё: уточните название, чтобы сузить поиск.",
		missing:   "файл сейчас недоступен",
		types:     map[string]string{domain.MediaMovie: "фильм", domain.MediaSeries: "сериал", domain.MediaSeason: "сезон", domain.MediaEpisode: "серия"},
		seasonNo:  "сезон %d",
		episodeNo: "серия %d",
		categories: func(c domain.Category) string {
			return c.NameRu
		},
	}
	englishText = phrases{
		askTitle:  "Tell me the title of a film or series — for example “do I have The Matrix” — and I will look for it in the catalogue. I can also count (“how many episodes of Dark”) and suggest something to watch (“recommend a comedy”).",
		found:     "The catalogue has this for “%s”:",
		notFound:  "Nothing in the catalogue matches “%s”. Try another spelling, for example the original title.",
		more:      "…and there is more: give a more precise title to narrow it down.",
		missing:   "file currently unavailable",
		types:     map[string]string{domain.MediaMovie: "movie", domain.MediaSeries: "series", domain.MediaSeason: "season", domain.MediaEpisode: "episode"},
		seasonNo:  "season %d",
		episodeNo: "episode %d",
		categories: func(c domain.Category) string {
			return c.NameEn
		},
	}
)

// textsIn returns the sentences of lang (English unless "ru").
func textsIn(lang string) phrases { return textmatch.Pick(lang, russianText, englishText) }

// describe is one catalogue line: "Матрица / The Matrix (1999), фильм,
// Фантастика". Russian answers lead with the Russian title, English ones
// with the original.
func (p phrases) describe(m domain.Media, l string) string {
	names := []string{m.Title, m.TitleRu, m.TitleOrig}
	if l != domain.LangRussian {
		names = []string{m.TitleOrig, m.Title, m.TitleRu}
	}
	var shown []string
	for _, n := range names {
		n = strings.TrimSpace(n)
		if n != "" && !containsFold(shown, n) {
			shown = append(shown, n)
		}
	}
	if len(shown) == 0 {
		shown = []string{m.Path}
	}
	line := strings.Join(shown[:min(len(shown), 2)], " / ")
	if m.Year != nil {
		line += " (" + strconv.Itoa(*m.Year) + ")"
	}
	var facts []string
	if t := p.types[m.MediaType]; t != "" {
		facts = append(facts, t)
	}
	if m.Number != nil && m.MediaType == domain.MediaSeason {
		facts[len(facts)-1] = fmt.Sprintf(p.seasonNo, *m.Number)
	}
	if m.Number != nil && m.MediaType == domain.MediaEpisode {
		facts[len(facts)-1] = fmt.Sprintf(p.episodeNo, *m.Number)
	}
	if c, ok := domain.CategoryBySlug(m.MainCategory); ok {
		facts = append(facts, p.categories(c))
	}
	if m.Status == domain.StatusMissing {
		facts = append(facts, p.missing)
	}
	if len(facts) > 0 {
		line += ", " + strings.Join(facts, ", ")
	}
	return "• " + line
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}
