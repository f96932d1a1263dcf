package offline

import (
	"cmp"
	"context"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"

	"mediateka/domain"
)

// poolSize is how many of the best candidates a suggestion chooses from:
// enough for variety, few enough to ask the watching state about at once.
const poolSize = 60

// candidate is an entry a suggestion may name, with its score. While
// choosing, media is the light view (no texts); the picks are loaded whole.
type candidate struct {
	media   domain.Media
	score   float64
	started bool
}

// suggest answers "посоветуй комедию", "what can I watch tonight" (a few
// varied titles, with why) and "покажи фантастику" (the titles of a
// category, genre, year or kind, best first). Titles the assistant named
// earlier in the conversation are left out, so "а ещё?" brings new ones.
func (m *Model) suggest(ctx context.Context, q question) ([]string, error) {
	s := q.scope
	if s.diskAsked != "" {
		return []string{m.unknownDisk(s.diskAsked, q.lang)}, nil
	}
	if err := m.widen(ctx, &s); err != nil {
		return nil, err
	}
	like, err := m.likeTitle(ctx, &s)
	if err != nil {
		return nil, err
	}
	sg := suggestion{q: q, s: s, units: topLevel(s.units), like: like, totals: map[unit]int{}}
	pool, err := m.candidates(ctx, &sg)
	if err != nil {
		return nil, err
	}
	if sg.total() == 0 && sg.asksUnknown() {
		// "посоветуй что-нибудь про кенгуру": no such title or genre. By
		// meaning, when the semantic index is built; else say so and
		// suggest from the rest of the scope.
		if lines, ok, err := m.bySemantics(ctx, &sg); err != nil || ok {
			return lines, err
		}
		sg.unknown, sg.s.topic, sg.s.title = strings.Join(s.title, " "), nil, nil
		sg.totals = map[unit]int{}
		if pool, err = m.candidates(ctx, &sg); err != nil {
			return nil, err
		}
	}
	n := m.opt.Picks
	if q.intent == intentList {
		n = m.opt.Limit
	}
	sg.picks = choose(pool, n)
	if err := m.loadPicks(ctx, sg.picks); err != nil {
		return nil, err
	}
	return sg.lines(), nil
}

// loadPicks replaces the light view of the picks with whole entries, for
// the reasons to watch them.
func (m *Model) loadPicks(ctx context.Context, picks []candidate) error {
	ids := make([]int64, len(picks))
	for i, c := range picks {
		ids[i] = c.media.ID
	}
	var whole []domain.Media
	if err := m.load(ctx, ids, &whole); err != nil {
		return err
	}
	byID := make(map[int64]domain.Media, len(whole))
	for _, e := range whole {
		byID[e.ID] = e
	}
	for i := range picks {
		if e, ok := byID[picks[i].media.ID]; ok {
			picks[i].media = e
		}
	}
	return nil
}

// likeTitle reads the title words of a suggestion: a title to find
// something like ("похожее на Матрицу": its category and genres become the
// topic) or else a genre. It returns the title found, if any.
func (m *Model) likeTitle(ctx context.Context, s *scope) (*domain.Media, error) {
	if len(s.title) == 0 {
		return nil, nil
	}
	e, ok, err := m.findEntry(ctx, s.title, isWork)
	if err != nil {
		return nil, err
	}
	if ok && isWork(e) {
		if s.topic == nil {
			s.topic = likeTopic(e)
		}
		return &e, nil
	}
	if s.topic == nil {
		s.topic = genreTopic(s.title)
	}
	return nil, nil
}

// likeTopic is the topic of "something like e": its category, else its
// first genre.
func likeTopic(e domain.Media) *topic {
	if _, ok := domain.CategoryBySlug(e.MainCategory); ok {
		return categoryTopic(e.MainCategory)
	}
	if len(e.Genres) > 0 {
		return genreTopic(words(e.Genres[0]))
	}
	return nil
}

func isWork(e domain.Media) bool {
	return e.MediaType == domain.MediaMovie || e.MediaType == domain.MediaSeries
}

// topLevel maps the units asked to what can be suggested: films and
// series ("серии" and "сезоны" mean series); none asked means both.
func topLevel(units []unit) []unit {
	var out []unit
	for _, u := range units {
		if u == unitSeason || u == unitEpisode {
			u = unitSeries
		}
		if !slices.Contains(out, u) {
			out = append(out, u)
		}
	}
	if len(out) == 0 {
		return []unit{unitMovie, unitSeries}
	}
	return out
}

// candidates walks the entries of the suggestion's units within its scope
// and keeps the best poolSize of those that can be watched (the file is
// there; a list names the others last), were not named earlier in the
// conversation, are not the title they should be like, and that the
// caller has not finished. It counts every entry within the scope
// (totals) and those eligible.
func (m *Model) candidates(ctx context.Context, sg *suggestion) ([]candidate, error) {
	said := saidBefore(sg.q.history)
	day := m.opt.Now().UTC().Format("2006-01-02")
	var pool []candidate
	for _, u := range sg.units {
		err := m.walk(ctx, unitType(u), sg.s.disk, sg.s.matches, func(e domain.Media, described bool) {
			if sg.like != nil && e.ID == sg.like.ID {
				return
			}
			sg.totals[u]++
			missing := e.Status == domain.StatusMissing
			if (missing && sg.q.intent != intentList) || said(e) {
				return
			}
			sg.eligible++
			c := candidate{media: e, score: score(e, described, day)}
			if missing { // a list names it, last: it cannot be watched now
				c.score -= 100
			}
			pool = keepBest(pool, c)
		})
		if err != nil {
			return nil, err
		}
	}
	kept, err := m.applyWatching(ctx, sg.q.caller, pool)
	sg.eligible -= len(pool) - len(kept)
	return kept, err
}

// keepBest adds c to the pool, keeping the poolSize best by score.
func keepBest(pool []candidate, c candidate) []candidate {
	if len(pool) < poolSize {
		return append(pool, c)
	}
	worst := 0
	for i := range pool {
		if pool[i].score < pool[worst].score {
			worst = i
		}
	}
	if c.score > pool[worst].score {
		pool[worst] = c
	}
	return pool
}

// applyWatching leaves out what the caller finished and puts what they
// started first, when the watching state is wired; without it the pool
// stays as it is.
func (m *Model) applyWatching(ctx context.Context, caller domain.Caller, pool []candidate) ([]candidate, error) {
	if m.opt.Watching == nil || caller.UserID == 0 || len(pool) == 0 {
		return pool, nil
	}
	ids := make([]int64, len(pool))
	for i, c := range pool {
		ids[i] = c.media.ID
	}
	seen, err := m.opt.Watching.Seen(ctx, caller.UserID, ids)
	if err != nil {
		return nil, fmt.Errorf("read the watching state: %w", err)
	}
	out := pool[:0]
	for _, c := range pool {
		switch seen[c.media.ID] {
		case domain.SeenFinished:
			continue
		case domain.SeenStarted:
			c.started, c.score = true, c.score+100
		}
		out = append(out, c)
	}
	return out, nil
}

// score ranks an entry for suggestions: its rating (0–10) first, a little
// more when it has a description of why to watch it, and a small share
// (under 0.3) that changes each day, so equally good titles take turns.
func score(e domain.Media, described bool, day string) float64 {
	s := rating(e)
	if described {
		s += 0.5
	}
	h := fnv.New32a()
	fmt.Fprintf(h, "%s/%d", day, e.ID)
	return s + float64(h.Sum32()%300)/1000
}

// rating is the mean of an entry's ratings on a 0–10 scale (a rating
// above 10 is read as out of 100); 0 without ratings.
func rating(e domain.Media) float64 {
	sum, n := 0.0, 0
	for _, v := range e.Rating {
		if v > 10 {
			v /= 10
		}
		if v > 0 {
			sum, n = sum+v, n+1
		}
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}

// choose picks n from the pool, best first, each from a category not
// picked yet while there are such; then the best of the rest.
func choose(pool []candidate, n int) []candidate {
	slices.SortStableFunc(pool, func(a, b candidate) int {
		switch {
		case a.score > b.score:
			return -1
		case a.score < b.score:
			return 1
		}
		return cmp.Compare(a.media.ID, b.media.ID)
	})
	var picks []candidate
	taken := map[int64]bool{}
	shelves := map[string]bool{}
	for _, varied := range []bool{true, false} {
		for _, c := range pool {
			if len(picks) == n {
				return picks
			}
			if taken[c.media.ID] || (varied && shelves[c.media.MainCategory]) {
				continue
			}
			picks, taken[c.media.ID], shelves[c.media.MainCategory] = append(picks, c), true, true
		}
	}
	return picks
}

// saidBefore reports whether the assistant named an entry in an earlier
// answer of the conversation (in either language's quotes).
func saidBefore(history []domain.ChatTurn) func(domain.Media) bool {
	var said []string
	for _, t := range history {
		if t.Role == domain.TurnModel || t.Role == domain.TurnAssistant {
			said = append(said, t.Text)
		}
	}
	return func(e domain.Media) bool {
		for _, text := range said {
			for _, lang := range []string{domain.LangRussian, domain.LangEnglish} {
				if strings.Contains(text, "• "+quote(lang, nameOf(e, lang))) {
					return true
				}
			}
		}
		return false
	}
}
