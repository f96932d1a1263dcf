package offline

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"mediateka/domain"
	"mediateka/usecase/catalog"
	"mediateka/usecase/textmatch"
)

// Sentences of counts about one title.
var (
	seriesHas = textmatch.Phrase{
		RU: "У сериала %s в каталоге %s (%s).",
		EN: "%s has %s (%s) in the catalogue.",
	}
	seasonHas = textmatch.Phrase{
		RU: "В сезоне %[2]d сериала %[1]s в каталоге %[3]s.",
		EN: "Season %[2]d of %[1]s has %[3]s in the catalogue.",
	}
	noSeason = textmatch.Phrase{
		RU: "У сериала %s в каталоге нет %d сезона; есть сезоны: %s.",
		EN: "The catalogue has no season %[2]d of %[1]s; it has seasons %[3]s.",
	}
	describedSeasons = textmatch.Phrase{
		RU: "(По описанию в сериале %s — в каталоге есть не все.)",
		EN: "(Its description says %s: the catalogue does not have them all.)",
	}
	isMovie = textmatch.Phrase{
		RU: "%s — это фильм, у него нет сезонов и серий.",
		EN: "%s is a movie; it has no seasons or episodes.",
	}
	namedHas = textmatch.Phrase{RU: "В каталоге %s по запросу «%s»:", EN: "The catalogue has %s matching “%s”:"}
)

// countTitle answers a count about a title: the seasons and episodes of a
// series ("сколько серий в Кухне", "how many episodes are in season 2 of
// Dark"), or how many films or series carry a name ("how many Matrix
// movies"). A name that is no title may be a genre ("сколько фильмов
// нуар"); when it is neither, the answer says so.
func (m *Model) countTitle(ctx context.Context, q question) ([]string, error) {
	s := q.scope
	parts := s.has(unitEpisode) || s.has(unitSeason) || s.season != 0
	if !parts {
		return m.countNamed(ctx, q)
	}
	media, ok, err := m.findEntry(ctx, s.title, func(e domain.Media) bool { return e.MediaType == domain.MediaSeries })
	switch {
	case err != nil:
		return nil, err
	case !ok:
		return m.countGenre(ctx, q)
	case media.MediaType == domain.MediaMovie:
		return []string{fmt.Sprintf(isMovie.In(q.lang), labelOf(media, q.lang))}, nil
	}
	series, err := m.seriesOf(ctx, media)
	if err != nil {
		return nil, err
	}
	return seriesParts(series, s, q.lang), nil
}

// countNamed counts the films or series (or both) whose titles match.
func (m *Model) countNamed(ctx context.Context, q question) ([]string, error) {
	s := q.scope
	phrase := strings.Join(s.title, " ")
	found, _, err := m.findTitles(ctx, phrase, m.opt.Limit)
	if err != nil {
		return nil, err
	}
	units := s.units
	if len(units) == 0 {
		units = []unit{unitMovie, unitSeries}
	}
	t := tally{units: units, n: map[unit]int{}}
	for _, e := range found {
		for _, u := range units {
			if e.MediaType == unitType(u) && s.matches(e) {
				t.n[u]++
				t.some = append(t.some, e)
			}
		}
	}
	if len(t.some) == 0 {
		return m.countGenre(ctx, q)
	}
	counts := make([]string, len(units))
	for i, u := range units {
		counts[i] = unitCount(u, t.n[u], q.lang)
	}
	head := fmt.Sprintf(namedHas.In(q.lang), joinAnd(counts, q.lang), phrase)
	return append([]string{head}, bullets(t.some, len(t.some), m.opt.Limit, q.lang)...), nil
}

// countGenre reads the title words of a count as a genre ("сколько фильмов
// нуар"); it says so when no entry has that genre either.
func (m *Model) countGenre(ctx context.Context, q question) ([]string, error) {
	s := q.scope
	asked := strings.Join(s.title, " ")
	if s.topic != nil {
		return []string{fmt.Sprintf(noSuchName.In(q.lang), asked)}, nil
	}
	s.topic, s.title = genreTopic(s.title), nil
	if len(s.units) == 0 || s.has(unitSeason) || s.has(unitEpisode) {
		s.units = []unit{unitMovie, unitSeries}
	}
	t, err := m.tally(ctx, s)
	if err != nil {
		return nil, err
	}
	if len(t.some) == 0 {
		return []string{fmt.Sprintf(noSuchName.In(q.lang), asked)}, nil
	}
	return t.say(s, q.lang), nil
}

// seriesOf returns the series with its seasons and episodes, from the
// series itself or one of its seasons or episodes.
func (m *Model) seriesOf(ctx context.Context, e domain.Media) (catalog.Entry, error) {
	for range 3 {
		if e.MediaType == domain.MediaSeries || e.ParentID == 0 {
			break
		}
		parent, err := m.catalog.Get(ctx, e.ParentID)
		if err != nil {
			return catalog.Entry{}, fmt.Errorf("read the series of %d: %w", e.ID, err)
		}
		e = parent.Media
	}
	out, err := m.catalog.Get(ctx, e.ID)
	if err != nil {
		return catalog.Entry{}, fmt.Errorf("read series %d: %w", e.ID, err)
	}
	return out, nil
}

// seriesParts says how many seasons and episodes the catalogue holds of a
// series, or how many episodes of the season asked.
func seriesParts(series catalog.Entry, s scope, lang string) []string {
	name := labelOf(series.Media, lang)
	if s.season != 0 {
		for _, c := range series.Children {
			if c.MediaType == domain.MediaSeason && c.Number != nil && *c.Number == s.season {
				_, n := parts(c)
				return []string{fmt.Sprintf(seasonHas.In(lang), name, s.season, unitCount(unitEpisode, n, lang))}
			}
		}
		var numbers []string
		for _, n := range seasonNumbers(series) {
			numbers = append(numbers, strconv.Itoa(n))
		}
		return []string{fmt.Sprintf(noSeason.In(lang), name, s.season, strings.Join(numbers, ", "))}
	}
	seasons, episodes := parts(series)
	first, second := unitCount(unitEpisode, episodes, lang), unitCount(unitSeason, seasons, lang)
	if s.has(unitSeason) && !s.has(unitEpisode) {
		first, second = second, first
	}
	lines := []string{fmt.Sprintf(seriesHas.In(lang), name, first, second)}
	if n := series.NumOfSeasons; n != nil && *n > seasons {
		lines = append(lines, fmt.Sprintf(describedSeasons.In(lang), unitCount(unitSeason, *n, lang)))
	}
	return lines
}

// seasonNumbers lists the numbers of a series' seasons, in order.
func seasonNumbers(series catalog.Entry) []int {
	var out []int
	for _, c := range series.Children {
		if c.MediaType == domain.MediaSeason && c.Number != nil {
			out = append(out, *c.Number)
		}
	}
	slices.Sort(out)
	return out
}
