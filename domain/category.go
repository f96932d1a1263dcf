package domain

import (
	"strings"
	"sync"
)

// Category is one entry of the fixed category list. media.main_category
// stores the Slug; the names are for people; Aliases are lower-case folder
// names and words (Russian and English) that map to it at scan time.
type Category struct {
	Slug    string
	NameRu  string
	NameEn  string
	Aliases []string
}

// CategoryUncategorized is what by-category shows for entries with no category.
const CategoryUncategorized = "uncategorized"

// Categories returns the fixed category list, in display order. It is a
// function, not a package variable, so nobody can change it at run time.
func Categories() []Category {
	return []Category{
		{"action", "Боевики", "Action", []string{"боевик", "боевики", "action", "экшн", "экшен"}},
		{"comedy", "Комедии", "Comedy", []string{"комедия", "комедии", "comedy", "comedies"}},
		{"drama", "Драмы", "Drama", []string{"драма", "драмы", "drama", "dramas"}},
		{"thriller", "Триллеры", "Thriller", []string{"триллер", "триллеры", "thriller", "thrillers"}},
		{"horror", "Ужасы", "Horror", []string{"ужасы", "ужастики", "хоррор", "horror"}},
		{"sci_fi", "Фантастика", "Science fiction", []string{"фантастика", "научная фантастика", "sci-fi", "scifi", "sci_fi", "science fiction"}},
		{"fantasy", "Фэнтези", "Fantasy", []string{"фэнтези", "фентези", "fantasy"}},
		{"adventure", "Приключения", "Adventure", []string{"приключения", "приключение", "adventure", "adventures"}},
		{"crime", "Криминал", "Crime", []string{"криминал", "криминальные", "crime"}},
		{"detective", "Детективы", "Mystery", []string{"детектив", "детективы", "mystery", "detective"}},
		{"romance", "Мелодрамы", "Romance", []string{"мелодрама", "мелодрамы", "романтика", "romance", "romantic"}},
		{"animation", "Мультфильмы", "Animation", []string{"мультфильмы", "мультфильм", "мультики", "мульты", "анимация", "animation", "cartoons", "cartoon"}},
		{"anime", "Аниме", "Anime", []string{"аниме", "anime"}},
		{"documentary", "Документальные", "Documentary", []string{"документальные", "документальный", "документалки", "documentary", "documentaries", "docs"}},
		{"family", "Семейные", "Family", []string{"семейные", "семейный", "детские", "детям", "family", "kids", "children"}},
		{"history", "Исторические", "History", []string{"исторические", "исторический", "история", "history", "historical"}},
		{"war", "Военные", "War", []string{"военные", "военный", "war"}},
		{"western", "Вестерны", "Western", []string{"вестерн", "вестерны", "western", "westerns"}},
		{"music", "Музыка и концерты", "Music", []string{"музыка", "музыкальные", "концерты", "мюзиклы", "music", "musical", "musicals", "concerts"}},
		{"tv_show", "Телешоу", "TV shows", []string{"телешоу", "шоу", "передачи", "tv show", "tv shows", "show", "shows"}},
	}
}

// CategoryBySlug finds a category by its slug.
func CategoryBySlug(slug string) (Category, bool) {
	for _, c := range Categories() {
		if c.Slug == slug {
			return c, true
		}
	}
	return Category{}, false
}

// aliasIndex maps every alias to its slug. It is built once on first use
// (the scanner asks for every folder of a library) and never changed after.
var aliasIndex = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	for _, c := range Categories() {
		for _, a := range c.Aliases {
			m[a] = c.Slug
		}
	}
	return m
})

// CategoryForName maps a folder name or genre word (any case) to a category
// slug, or "" when none matches.
func CategoryForName(name string) string {
	n := strings.ReplaceAll(strings.ToLower(strings.TrimSpace(name)), "ё", "е")
	return aliasIndex()[n]
}
