package offline

import (
	"strings"

	"mediateka/domain"
	"mediateka/usecase/textmatch"
)

// topic is a category of the fixed list or a genre a question names
// ("фантастику", "comedies", "в жанре нуар"). An entry is on the topic when
// its main category is the category, or one of its genres names the
// category or the genre: people call a film with the genre "комедия" a
// comedy whatever shelf it stands on.
type topic struct {
	slug  string   // the category's slug; "" for a genre outside the list
	words []string // the words as asked, normalised
	// genres remembers, per genre string met, whether it is on the topic:
	// a catalogue repeats a few dozen genres many thousand times.
	genres map[string]bool
}

func categoryTopic(slug string, asked ...string) *topic {
	return &topic{slug: slug, words: asked, genres: map[string]bool{}}
}

func genreTopic(words []string) *topic {
	return &topic{words: words, genres: map[string]bool{}}
}

// name is what answers call the topic: the category's name in lang, else
// the genre as asked.
func (t *topic) name(lang string) string {
	if c, ok := domain.CategoryBySlug(t.slug); ok {
		return textmatch.Pick(lang, c.NameRu, c.NameEn)
	}
	return strings.Join(t.words, " ")
}

// matches reports whether m is on the topic.
func (t *topic) matches(m domain.Media) bool {
	if t.slug != "" && m.MainCategory == t.slug {
		return true
	}
	for _, g := range m.Genres {
		on, seen := t.genres[g]
		if !seen {
			on = t.genreIsOn(g)
			t.genres[g] = on
		}
		if on {
			return true
		}
	}
	return false
}

// genreIsOn reports whether the genre string g names the topic.
func (t *topic) genreIsOn(g string) bool {
	words := strings.Fields(textmatch.Normalize(g))
	if t.slug == "" {
		return phraseAt(words, t.words, nil) >= 0
	}
	if domain.CategoryForName(g) == t.slug {
		return true
	}
	c, _ := domain.CategoryBySlug(t.slug)
	for _, alias := range c.Aliases {
		if phraseAt(words, strings.Fields(textmatch.Normalize(alias)), nil) >= 0 {
			return true
		}
	}
	return false
}

// phraseAt finds where the words of phrase stand, in order and each in
// some form (textmatch.Inflects), among words not marked in used (nil:
// none is); -1 when they do not.
func phraseAt(words, phrase []string, used []bool) int {
	for i := 0; len(phrase) > 0 && i+len(phrase) <= len(words); i++ {
		ok := true
		for k, p := range phrase {
			if (used != nil && used[i+k]) || !textmatch.Inflects(words[i+k], p) {
				ok = false
				break
			}
		}
		if ok {
			return i
		}
	}
	return -1
}

// topicMarkers introduce a genre or category by name: "в жанре нуар",
// "genre noir", "категории вестерны".
func isTopicMarker(w string) bool {
	return strings.HasPrefix(w, "жанр") || strings.HasPrefix(w, "genre") || strings.HasPrefix(w, "категори") ||
		w == "category" || w == "categories"
}

// topicMarker reads the words after "жанр"/"genre": a category when they
// name one, else a genre of their own.
func (r *reader) topicMarker() {
	for i, w := range r.words {
		if !r.free(i) || !isTopicMarker(w) {
			continue
		}
		j := i + 1
		for j < len(r.words) && r.free(j) && !frameWords[r.words[j]] {
			if _, isUnit := unitOf(r.words[j]); isUnit {
				break
			}
			j++
		}
		if j == i+1 {
			continue
		}
		asked := r.words[i+1 : j]
		r.take(i, j)
		if slug := categoryOf(asked); slug != "" {
			r.s.topic = categoryTopic(slug, asked...)
		} else {
			r.s.topic = genreTopic(asked)
		}
		return
	}
}

// categoryOf maps the words of a name to a category slug, "" for none.
func categoryOf(words []string) string {
	for _, c := range domain.Categories() {
		for _, alias := range c.Aliases {
			aw := strings.Fields(textmatch.Normalize(alias))
			if len(aw) == len(words) && phraseAt(words, aw, nil) == 0 {
				return c.Slug
			}
		}
	}
	return ""
}

// multiwordCategories reads the categories named in several words
// ("научная фантастика", "science fiction", "sci-fi", "tv shows") before
// their words are taken one by one.
func (r *reader) multiwordCategories() {
	r.matchCategories(func(n int) bool { return n > 1 })
}

// categories reads a category named in one word ("фантастику",
// "комедий", "thrillers"), when no topic was read yet.
func (r *reader) categories() {
	r.matchCategories(func(n int) bool { return n == 1 })
}

func (r *reader) matchCategories(size func(int) bool) {
	if r.s.topic != nil {
		return
	}
	for _, c := range domain.Categories() {
		for _, alias := range c.Aliases {
			aw := strings.Fields(textmatch.Normalize(alias))
			if !size(len(aw)) {
				continue
			}
			if i := phraseAt(r.words, aw, r.used); i >= 0 {
				r.s.topic = categoryTopic(c.Slug, r.words[i:i+len(aw)]...)
				r.topicAt = [2]int{i, i + len(aw)}
				r.take(i, i+len(aw))
				return
			}
		}
	}
}
