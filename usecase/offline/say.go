package offline

import (
	"fmt"
	"strconv"
	"strings"

	"mediateka/domain"
	"mediateka/usecase/textmatch"
)

// Sentences every kind of answer shares.
var (
	noModel = textmatch.Phrase{
		RU: "(AI-модель не настроена, поэтому отвечает встроенный офлайн-помощник: он ищет, считает и подбирает только по вашему каталогу. Администратор может подключить модель в настройке ai.provider.)",
		EN: "(No AI model is configured, so the built-in offline assistant is answering: it finds, counts and suggests from your catalogue only. An administrator can set up a model with the ai.provider setting.)",
	}
	catalogFailed = textmatch.Phrase{
		RU: "Не получилось заглянуть в каталог: база сейчас не отвечает. Попробуйте чуть позже.",
		EN: "I could not read the catalogue: the database is not answering right now. Try again in a moment.",
	}
	noCatalogSearch = textmatch.Phrase{
		RU: "Каталог медиатеки пока не подключён, поэтому поискать «%s» мне негде.",
		EN: "The media catalogue is not available yet, so I have nowhere to look for “%s”.",
	}
	noCatalogAtAll = textmatch.Phrase{
		RU: "Каталог медиатеки пока не подключён, поэтому ответить мне не из чего.",
		EN: "The media catalogue is not available yet, so I have nothing to answer from.",
	}
)

// noCatalogue says that there is no catalogue to answer q from.
func noCatalogue(q question) string {
	if q.intent == intentSearch && q.phrase != "" {
		return fmt.Sprintf(noCatalogSearch.In(q.lang), q.phrase)
	}
	return noCatalogAtAll.In(q.lang)
}

// quote puts a name in the quotes of lang: «…» or “…”.
func quote(lang, s string) string { return textmatch.Quote(lang, s) }

// nameOf is the title an answer calls an entry by: the Russian one first
// in Russian answers, the original first in English ones, the file path
// when it has none.
func nameOf(m domain.Media, lang string) string {
	names := []string{m.Title, m.TitleRu, m.TitleOrig, m.Path}
	if lang != domain.LangRussian {
		names = []string{m.TitleOrig, m.Title, m.TitleRu, m.Path}
	}
	for _, n := range names {
		if n = strings.TrimSpace(n); n != "" {
			return n
		}
	}
	return ""
}

// labelOf is an entry's name with its year: «Матрица» (1999).
func labelOf(m domain.Media, lang string) string {
	l := quote(lang, nameOf(m, lang))
	if m.Year != nil {
		l += " (" + strconv.Itoa(*m.Year) + ")"
	}
	return l
}

// unitCount is "3 фильма", "1 series", "12 серий".
func unitCount(u unit, n int, lang string) string {
	if lang == domain.LangRussian {
		forms := [...][3]string{
			unitMovie:   {"фильм", "фильма", "фильмов"},
			unitSeries:  {"сериал", "сериала", "сериалов"},
			unitSeason:  {"сезон", "сезона", "сезонов"},
			unitEpisode: {"серия", "серии", "серий"},
		}[u]
		return fmt.Sprintf("%d %s", n, textmatch.PluralRu(n, forms[0], forms[1], forms[2]))
	}
	forms := [...][2]string{
		unitMovie:   {"movie", "movies"},
		unitSeries:  {"series", "series"},
		unitSeason:  {"season", "seasons"},
		unitEpisode: {"episode", "episodes"},
	}[u]
	return fmt.Sprintf("%d %s", n, textmatch.PluralEn(n, forms[0], forms[1]))
}

// joinAnd joins parts as "a, b и c" / "a, b and c".
func joinAnd(parts []string, lang string) string {
	if len(parts) < 2 {
		return strings.Join(parts, "")
	}
	and := textmatch.Pick(lang, " и ", " and ")
	return strings.Join(parts[:len(parts)-1], ", ") + and + parts[len(parts)-1]
}

// scopeLabel describes what a scope narrows to, for the parenthesis after a
// count: "Комедии, 2010 год, диск «Disk 2»".
func scopeLabel(s scope, lang string) string {
	var parts []string
	if s.topic != nil {
		parts = append(parts, s.topic.name(lang))
	}
	if s.years.set() {
		parts = append(parts, yearsLabel(s.years, lang))
	}
	if s.disk != "" {
		parts = append(parts, textmatch.Pick(lang, "диск ", "disk ")+quote(lang, s.disk))
	}
	return strings.Join(parts, ", ")
}

// yearsLabel is "2010 год", "1990–1999 годы", "с 2010 года", "until 2000".
func yearsLabel(y years, lang string) string {
	switch {
	case y.from == y.to:
		return textmatch.Pick(lang, fmt.Sprintf("%d год", y.from), strconv.Itoa(y.from))
	case y.from == 0:
		return textmatch.Pick(lang, fmt.Sprintf("до %d года", y.to), fmt.Sprintf("until %d", y.to))
	case y.to == 0:
		return textmatch.Pick(lang, fmt.Sprintf("с %d года", y.from), fmt.Sprintf("since %d", y.from))
	}
	return textmatch.Pick(lang, fmt.Sprintf("%d–%d годы", y.from, y.to), fmt.Sprintf("%d–%d", y.from, y.to))
}

// bullets lists entries as "• «Матрица» (1999)" lines, at most limit of
// them, with "…и ещё N" for the rest of total.
func bullets(entries []domain.Media, total, limit int, lang string) []string {
	var out []string
	for i, e := range entries {
		if i == limit {
			break
		}
		out = append(out, "• "+labelOf(e, lang))
	}
	if rest := total - len(out); rest > 0 {
		out = append(out, textmatch.Pick(lang, fmt.Sprintf("…и ещё %d", rest), fmt.Sprintf("…and %d more", rest)))
	}
	return out
}
