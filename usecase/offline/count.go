package offline

import (
	"context"
	"fmt"
	"strings"

	"mediateka/domain"
	"mediateka/usecase/catalog"
	"mediateka/usecase/textmatch"
)

// Sentences of counting answers.
var (
	countHas = textmatch.Phrase{RU: "В каталоге %s", EN: "The catalogue has %s"}
	noDisk   = textmatch.Phrase{
		RU: "Диска «%s» в библиотеке нет. Диски библиотеки: %s.",
		EN: "The library has no disk “%s”. Its disks: %s.",
	}
	noDisks    = textmatch.Phrase{RU: "ни у одной папки библиотеки нет имени диска", EN: "no library folder has a disk name"}
	noSuchName = textmatch.Phrase{
		RU: "«%s» в каталоге не нашлось — ни такого названия, ни такого жанра.",
		EN: "“%s” is not in the catalogue, neither as a title nor as a genre.",
	}
)

// listedUpTo is how many titles a count lists when it narrows the
// catalogue; whole-library counts list none.
const listedUpTo = 5

// count answers "сколько…" / "how many…": for a title, its seasons and
// episodes (or the films of that name); otherwise the entries of each
// unit asked within the scope (category or genre, years, disk).
func (m *Model) count(ctx context.Context, q question) ([]string, error) {
	s := q.scope
	if s.diskAsked != "" {
		return []string{m.unknownDisk(s.diskAsked, q.lang)}, nil
	}
	if err := m.widen(ctx, &s); err != nil {
		return nil, err
	}
	if len(s.title) > 0 {
		q.scope = s
		return m.countTitle(ctx, q)
	}
	if len(s.units) == 0 {
		s.units = []unit{unitMovie, unitSeries}
	}
	t, err := m.tally(ctx, s)
	if err != nil {
		return nil, err
	}
	return t.say(s, q.lang), nil
}

// unknownDisk says that "диск X" names no disk and lists the disks.
func (m *Model) unknownDisk(asked, lang string) string {
	names := diskNames(m.opt.Roots())
	list := noDisks.In(lang)
	if len(names) > 0 {
		quoted := make([]string, len(names))
		for i, n := range names {
			quoted[i] = quote(lang, n)
		}
		list = strings.Join(quoted, ", ")
	}
	return fmt.Sprintf(noDisk.In(lang), asked, list)
}

// tally is what a scoped count found: how many of each unit asked, and the
// first few movies and series, to name them.
type tally struct {
	units []unit
	n     map[unit]int
	some  []domain.Media
}

// say is the answer: "В каталоге 3 фильма и 1 сериал (Комедии, 2010 год)."
// with the titles when the scope narrows the catalogue.
func (t tally) say(s scope, lang string) []string {
	parts := make([]string, 0, len(t.units))
	total := 0
	for _, u := range t.units {
		if u == unitMovie || u == unitSeries {
			total += t.n[u]
		}
	}
	for _, u := range t.units {
		// "3 фильма", not "3 фильма и 0 сериалов": a kind with none is
		// left out when another has some.
		if t.n[u] == 0 && total > 0 && len(t.units) > 1 {
			continue
		}
		parts = append(parts, unitCount(u, t.n[u], lang))
	}
	line := fmt.Sprintf(countHas.In(lang), joinAnd(parts, lang))
	if l := scopeLabel(s, lang); l != "" {
		line += " (" + l + ")"
	}
	lines := []string{line + "."}
	if s.narrows() && total > 0 {
		lines = append(lines, bullets(t.some, total, listedUpTo, lang)...)
	}
	return lines
}

// tally counts each unit of s within s. Without a topic or years the store
// counts (and hands over the first few entries); otherwise the entries are
// walked and matched here.
func (m *Model) tally(ctx context.Context, s scope) (tally, error) {
	t := tally{units: s.units, n: map[unit]int{}}
	for _, u := range s.units {
		var err error
		switch {
		case u == unitSeason || u == unitEpisode:
			t.n[u], err = m.countParts(ctx, s, u)
		case s.topic == nil && !s.years.set():
			t.n[u], err = m.first(ctx, catalog.FilesQuery{Type: unitType(u), Disk: s.disk}, &t.some)
		default:
			var named []int64
			err = m.walk(ctx, unitType(u), s.disk, s.matches, func(e domain.Media, _ bool) {
				t.n[u]++
				if len(t.some)+len(named) < listedUpTo {
					named = append(named, e.ID)
				}
			})
			if err == nil {
				err = m.load(ctx, named, &t.some)
			}
		}
		if err != nil {
			return tally{}, err
		}
	}
	return t, nil
}

// countParts counts the seasons or episodes within s: on a disk by the
// store; on a topic or in years, those of the series that match.
func (m *Model) countParts(ctx context.Context, s scope, u unit) (int, error) {
	if s.topic == nil && !s.years.set() {
		return m.first(ctx, catalog.FilesQuery{Type: unitType(u), Disk: s.disk}, nil)
	}
	var ids []int64
	if err := m.walk(ctx, domain.MediaSeries, s.disk, s.matches, func(e domain.Media, _ bool) { ids = append(ids, e.ID) }); err != nil {
		return 0, err
	}
	n := 0
	for _, id := range ids {
		e, err := m.catalog.Get(ctx, id)
		if err != nil {
			return 0, fmt.Errorf("read series %d: %w", id, err)
		}
		seasons, episodes := parts(e)
		if u == unitSeason {
			n += seasons
		} else {
			n += episodes
		}
	}
	return n, nil
}

// first returns how many entries q selects and, when some is not nil,
// appends the first of them to it, up to listedUpTo in all.
func (m *Model) first(ctx context.Context, q catalog.FilesQuery, some *[]domain.Media) (int, error) {
	limit := 0
	if some != nil {
		limit = max(0, listedUpTo-len(*some))
	}
	q.Limit = &limit
	l, err := m.catalog.Files(ctx, q)
	if err != nil {
		return 0, fmt.Errorf("count the catalogue: %w", err)
	}
	if limit > 0 {
		err = l.Each(ctx, func(e domain.Media) error { *some = append(*some, e); return nil })
	}
	if err != nil {
		return 0, fmt.Errorf("read the catalogue: %w", err)
	}
	return int(l.Total), nil
}

// walk calls fn for every entry of type typ (on disk, when set) that keep
// accepts, in the store's order. It reads the light view of the entries
// (domain.MediaFacet): fn gets an entry with its titles, year, category,
// genres, status and ratings but none of its texts, and whether it has a
// description.
func (m *Model) walk(ctx context.Context, typ, disk string, keep func(domain.Media) bool, fn func(e domain.Media, described bool)) error {
	err := m.catalog.Facets(ctx, catalog.FilesQuery{Type: typ, Disk: disk}, func(f domain.MediaFacet) error {
		if e := facetMedia(f); keep(e) {
			fn(e, f.Described)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("read the catalogue: %w", err)
	}
	return nil
}

// facetMedia is the light view as an entry, without its texts.
func facetMedia(f domain.MediaFacet) domain.Media {
	e := domain.Media{ID: f.ID, MediaType: f.Type, Title: f.Title, TitleRu: f.TitleRu, TitleOrig: f.TitleOrig,
		MainCategory: f.MainCategory, Status: f.Status, Genres: f.Genres, Rating: f.Rating}
	if f.Year != 0 {
		year := f.Year
		e.Year = &year
	}
	return e
}

// load appends the whole entries of ids to into.
func (m *Model) load(ctx context.Context, ids []int64, into *[]domain.Media) error {
	if len(ids) == 0 {
		return nil
	}
	entries, err := m.catalog.Entries(ctx, ids)
	if err != nil {
		return fmt.Errorf("load entries: %w", err)
	}
	*into = append(*into, entries...)
	return nil
}

// matches reports whether an entry is within the scope's topic and years
// (the disk is the store's filter).
func (s scope) matches(e domain.Media) bool {
	return s.years.has(e) && (s.topic == nil || s.topic.matches(e))
}

// parts counts a series' seasons and episodes (episodes directly below
// the series too).
func parts(e catalog.Entry) (seasons, episodes int) {
	for _, c := range e.Children {
		switch c.MediaType {
		case domain.MediaSeason:
			seasons++
			_, n := parts(c)
			episodes += n
		case domain.MediaEpisode:
			episodes++
		}
	}
	return seasons, episodes
}

func unitType(u unit) string {
	return [...]string{unitMovie: domain.MediaMovie, unitSeries: domain.MediaSeries,
		unitSeason: domain.MediaSeason, unitEpisode: domain.MediaEpisode}[u]
}

// Count answers message when it is a counting question ("сколько серий в
// Кухне", "how many films are on Disk 2") and reports false otherwise. It
// lets the media_organizer plugin answer scoped counts from the catalogue
// when a remote AI model, which cannot see the catalogue, is configured;
// the answer carries no "no model configured" sentence.
func (m *Model) Count(ctx context.Context, message string) (string, bool, error) {
	q := m.read(ctx, domain.Prompt{Message: message})
	if q.intent != intentCount || m.catalog == nil {
		return "", false, nil
	}
	lines, err := m.count(ctx, q)
	if err != nil {
		return "", false, fmt.Errorf("count for the chat: %w", err)
	}
	return strings.Join(lines, "\n"), true, nil
}
