package offline

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"mediateka/domain"
	"mediateka/usecase/textmatch"
)

// suggestion is one recommendation or list being answered.
type suggestion struct {
	q     question
	s     scope
	units []unit
	like  *domain.Media // the title to find something like, if any
	picks []candidate
	// totals counts the entries within the scope per unit; eligible those
	// that could be named (file there, not named before, not finished).
	totals   map[unit]int
	eligible int
	// unknown names the words that were neither a title nor a genre; the
	// suggestion then comes from the rest of the scope.
	unknown string
}

// total counts the entries within the scope.
func (sg suggestion) total() int {
	n := 0
	for _, c := range sg.totals {
		n += c
	}
	return n
}

// Sentences of suggestions.
var (
	suggestHead   = textmatch.Phrase{RU: "Что посмотреть%s:", EN: "Something to watch%s:"}
	tonightHead   = textmatch.Phrase{RU: "Что посмотреть вечером%s:", EN: "Something to watch tonight%s:"}
	likeHead      = textmatch.Phrase{RU: "Похожее на %s%s:", EN: "Something like %s%s:"}
	suggestFooter = textmatch.Phrase{
		RU: "Выбрал %d из %d подходящих: из разных категорий, с рейтингом и описанием — в первую очередь. Скажите «ещё», и я предложу другие.",
		EN: "I picked %d of the %d that fit: from different categories, rated and described ones first. Say “more” for others.",
	}
	listMore = textmatch.Phrase{
		RU: "…и ещё %d. Скажите «ещё», и я покажу другие.",
		EN: "…and %d more. Say “more” to see others.",
	}
	nothingFits = textmatch.Phrase{RU: "В каталоге нет ничего подходящего%s.", EN: "Nothing in the catalogue fits%s."}
	nothingLike = textmatch.Phrase{RU: "Ничего похожего на %s в каталоге нет%s.", EN: "The catalogue has nothing like %s%s."}
	emptyShelf  = textmatch.Phrase{
		RU: "В каталоге пока нет фильмов и сериалов: сначала библиотеку нужно просканировать.",
		EN: "The catalogue has no films or series yet: the library needs a scan first.",
	}
	allSaid = textmatch.Phrase{
		RU: "Всё подходящее (%d) я уже называл выше.",
		EN: "I have named everything that fits (%d) already.",
	}
	startedIt = textmatch.Phrase{RU: "вы начали смотреть", EN: "you started it"}
	fileGone  = textmatch.Phrase{RU: "файл сейчас недоступен", EN: "file currently unavailable"}
	unknownTo = textmatch.Phrase{
		RU: "«%s» в каталоге не нашлось — ни такого названия, ни такого жанра. Вот что есть:",
		EN: "“%s” is not in the catalogue, neither as a title nor as a genre. Here is what there is:",
	}
	ratedAt = textmatch.Phrase{RU: "рейтинг %.1f", EN: "rated %.1f"}
)

// lines is the answer: a head, the picks with why, and what else there is.
func (sg suggestion) lines() []string {
	lang := sg.q.lang
	total := sg.total()
	switch {
	case total == 0 && sg.asksUnknown():
		return []string{fmt.Sprintf(noSuchName.In(lang), strings.Join(sg.s.title, " "))}
	case total == 0 && sg.like != nil:
		return []string{fmt.Sprintf(nothingLike.In(lang), labelOf(*sg.like, lang), sg.label())}
	case total == 0 && sg.s.narrows():
		return []string{fmt.Sprintf(nothingFits.In(lang), sg.label())}
	case total == 0:
		return []string{emptyShelf.In(lang)}
	case len(sg.picks) == 0:
		return []string{fmt.Sprintf(allSaid.In(lang), total)}
	}
	var lines []string
	if sg.unknown != "" {
		lines = append(lines, fmt.Sprintf(unknownTo.In(lang), sg.unknown))
	}
	lines = append(lines, sg.head())
	for _, c := range sg.picks {
		lines = append(lines, "• "+why(c, lang))
	}
	if rest := sg.eligible - len(sg.picks); rest > 0 {
		if sg.q.intent == intentList {
			lines = append(lines, fmt.Sprintf(listMore.In(lang), rest))
		} else {
			lines = append(lines, fmt.Sprintf(suggestFooter.In(lang), len(sg.picks), sg.eligible))
		}
	}
	return lines
}

// asksUnknown reports whether the title words named neither a title nor
// a genre of the catalogue.
func (sg suggestion) asksUnknown() bool {
	return len(sg.s.title) > 0 && sg.like == nil && sg.s.topic != nil && sg.s.topic.slug == ""
}

// label is " (Фантастика, 2010 год)" when the scope narrows, else "".
func (sg suggestion) label() string {
	if l := scopeLabel(sg.s, sg.q.lang); l != "" {
		return " (" + l + ")"
	}
	return ""
}

// head opens the answer: the counts of a list, or what is suggested.
func (sg suggestion) head() string {
	lang := sg.q.lang
	if sg.q.intent == intentList {
		counts := make([]string, len(sg.units))
		for i, u := range sg.units {
			counts[i] = unitCount(u, sg.totals[u], lang)
		}
		return fmt.Sprintf(countHas.In(lang), joinAnd(counts, lang)) + sg.label() + ":"
	}
	label := sg.label()
	if len(sg.s.units) > 0 && len(sg.units) == 1 { // "посоветуй сериал"
		kind := textmatch.Pick(lang, [...]string{"фильмы", "сериалы"}, [...]string{"movies", "series"})[sg.units[0]]
		if label == "" {
			label = " (" + kind + ")"
		} else {
			label = " (" + kind + ", " + label[2:]
		}
	}
	switch {
	case sg.like != nil:
		return fmt.Sprintf(likeHead.In(lang), labelOf(*sg.like, lang), label)
	case anyIn(sg.q.words, setOf("вечером", "вечер", "tonight", "evening", "сегодня", "today", "night", "ночью")):
		return fmt.Sprintf(tonightHead.In(lang), label)
	}
	return fmt.Sprintf(suggestHead.In(lang), label)
}

// why is one pick with the reasons to watch it: "«Интерстеллар» (2014),
// фильм, Фантастика, рейтинг 8.6 — <why watch>".
func why(c candidate, lang string) string {
	e := c.media
	facts := []string{labelOf(e, lang)}
	if e.MediaType == domain.MediaSeries {
		facts = append(facts, textmatch.Pick(lang, "сериал", "series"))
	} else {
		facts = append(facts, textmatch.Pick(lang, "фильм", "movie"))
	}
	if cat, ok := domain.CategoryBySlug(e.MainCategory); ok {
		facts = append(facts, textmatch.Pick(lang, cat.NameRu, cat.NameEn))
	}
	for i, g := range e.Genres {
		if i == 2 {
			break
		}
		if cat, ok := domain.CategoryBySlug(domain.CategoryForName(g)); !ok || cat.Slug != e.MainCategory {
			facts = append(facts, strings.ToLower(g))
		}
	}
	if r := rating(e); r > 0 {
		facts = append(facts, fmt.Sprintf(ratedAt.In(lang), r))
	}
	if c.started {
		facts = append(facts, startedIt.In(lang))
	}
	if e.Status == domain.StatusMissing {
		facts = append(facts, fileGone.In(lang))
	}
	line := strings.Join(facts, ", ")
	for _, text := range []string{e.WhyWatch, e.Mood, e.Plot} {
		if text = strings.TrimSpace(text); text != "" {
			return line + " — " + firstSentence(text, 160)
		}
	}
	return line
}

// firstSentence is the first sentence of text, cut to at most limit runes.
func firstSentence(text string, limit int) string {
	if i := strings.IndexAny(text, ".!?"); i > 0 {
		text = text[:i+1]
	}
	if utf8.RuneCountInString(text) <= limit {
		return text
	}
	r := []rune(text)
	return strings.TrimSpace(string(r[:limit-1])) + "…"
}
