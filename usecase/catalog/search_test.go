package catalog_test

import (
	"context"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/usecase/catalog"
)

// typedCatalogue is a small library in both languages with the near
// misses a fuzzy search could wrongly prefer: several Матрица films, two
// Бегущий films, Брат and its sequel, a Latin-only Brat, Братва, titles
// stored only in Latin letters, and a title split over title_ru and
// title_orig.
func typedCatalogue(t *testing.T) *env {
	e := newEnv(t)
	e.add(
		rec{path: "/m/br1", title: "Бегущий по лезвию", orig: "Blade Runner", typ: "movie", year: 1982},
		rec{path: "/m/br2", title: "Бегущий по лезвию 2049", orig: "Blade Runner 2049", typ: "movie", year: 2017},
		rec{path: "/m/run", title: "Бегущий человек", orig: "The Running Man", typ: "movie", year: 1987},
		rec{path: "/m/mx1", title: "Матрица", orig: "The Matrix", typ: "movie", year: 1999},
		rec{path: "/m/mx2", title: "Матрица: Перезагрузка", orig: "The Matrix Reloaded", typ: "movie", year: 2003},
		rec{path: "/m/mx4", title: "Матрица: Воскрешение", orig: "The Matrix Resurrections", typ: "movie", year: 2021},
		rec{path: "/m/wind", title: "Белый ветер", typ: "movie", year: 2010},
		rec{path: "/m/bim", title: "Белый Бим Чёрное ухо", typ: "movie", year: 1977},
		rec{path: "/m/brat", title: "Брат", typ: "movie", year: 1997},
		rec{path: "/m/brat2", title: "Брат 2", typ: "movie", year: 2000},
		rec{path: "/m/bratva", title: "Братва", typ: "movie", year: 2005},
		rec{path: "/m/brat-en", title: "Brat", typ: "movie", year: 2011},
		rec{path: "/m/don", title: "Tikhiy Don", typ: "movie", year: 1958},
		rec{path: "/m/kholop", title: "Kholop", typ: "movie", year: 2019},
		rec{path: "/m/inter", title: "Интерстеллар", orig: "Interstellar", typ: "movie", year: 2014},
		rec{path: "/m/prada", title: "Дьявол носит", ru: "Дьявол носит", orig: "Prada", typ: "movie", year: 2006},
		rec{path: "/m/dom", title: "Дом", typ: "movie", year: 2011},
		rec{path: "/s/kh", title: "Хрусталёв", typ: "series", year: 1998},
		rec{path: "/s/kh#S01", title: "Хрусталёв", typ: "season", parent: "/s/kh"},
	)
	return e
}

// TestSearchAsPeopleType: each query finds the entry people mean first,
// in Russian and in English.
func TestSearchAsPeopleType(t *testing.T) {
	e := typedCatalogue(t)
	tests := []struct {
		why, query, want string
	}{
		{"words in any order, not adjacent", "бегущий 2049", "Бегущий по лезвию 2049"},
		{"words in any order, not adjacent", "2049 бегущий", "Бегущий по лезвию 2049"},
		{"English words in any order", "runner blade", "Бегущий по лезвию"},
		{"English words in any order, with a number", "2049 runner", "Бегущий по лезвию 2049"},
		{"a title and a year", "Матрица 1999", "Матрица"},
		{"a title and a year", "матрица 2003", "Матрица: Перезагрузка"},
		{"an English title and a year", "the matrix 2021", "Матрица: Воскрешение"},
		{"a title and a year in brackets", "Бегущий по лезвию (1982)", "Бегущий по лезвию"},
		{"Latin for Cyrillic", "Belyy Veter", "Белый ветер"},
		{"Latin for Cyrillic, j for й", "belyj veter", "Белый ветер"},
		{"Latin for Cyrillic, i for й", "Belyi veter", "Белый ветер"},
		{"Latin for Cyrillic", "brat", "Brat"},
		{"Cyrillic for Latin", "Тихий Дон", "Tikhiy Don"},
		{"Cyrillic for Latin, х as h", "Холоп", "Kholop"},
		{"Latin h for х", "holop", "Kholop"},
		{"Latin c for ц", "matrica", "Матрица"},
		{"Latin ts for ц, yo for ё", "Matritsa", "Матрица"},
		{"Latin yo for ё", "khrustalyov", "Хрусталёв"},
		{"English layout, Russian meant", "vfnhbwf", "Матрица"},
		{"English layout with the х key", "[hecnfk`d", "Хрусталёв"},
		{"Russian layout, English meant", "ьфекшч", "Матрица"},
		{"Russian layout, English meant, two words", "идфву кгттук", "Бегущий по лезвию"},
		{"a typo", "интерстелар", "Интерстеллар"},
		{"a typo in English", "intersteller", "Интерстеллар"},
		{"two typos in a long word", "интестелар", "Интерстеллар"},
		{"swapped letters", "матирца", "Матрица"},
		{"a typo in one word of two", "бегущий человак", "Бегущий человек"},
		{"Russian and original title in one query", "Дьявол носит Prada", "Дьявол носит"},
		{"the original title and a year", "prada 2006", "Дьявол носит"},
		{"exact still works", "Брат 2", "Брат 2"},
		{"ё as е", "Хрусталев", "Хрусталёв"},
	}
	for _, tt := range tests {
		tm, err := e.svc.ByTitle(context.Background(), tt.query, "")
		if assert.NoError(t, err, "%s: %q", tt.why, tt.query) {
			assert.Equal(t, tt.want, tm.Match.Title, "%s: %q (got %v)", tt.why, tt.query, titlesOf(tm))
		}
	}
}

// TestExactMatchesRankFirst: the exact kinds keep API.md's order, and
// every fuzzy match comes after them.
func TestExactMatchesRankFirst(t *testing.T) {
	e := typedCatalogue(t)
	ctx := context.Background()
	tm, err := e.svc.ByTitle(ctx, "брат", "")
	require.NoError(t, err)
	assert.Equal(t, []string{"Брат", "Братва", "Брат 2", "Brat"}, titlesOf(tm),
		"exact, prefix (newer first), then the Latin Brat, found only by transliteration")

	tm, err = e.svc.ByTitle(ctx, "brat", "")
	require.NoError(t, err)
	assert.Equal(t, []string{"Brat", "Брат", "Брат 2", "Братва"}, titlesOf(tm),
		"both ways: the Cyrillic ones after the exact Latin one, the shortest title first")

	tm, err = e.svc.ByTitle(ctx, "Матрица 1999", "")
	require.NoError(t, err)
	assert.Equal(t, []string{"Матрица", "Матрица: Воскрешение", "Матрица: Перезагрузка"}, titlesOf(tm),
		"the film of that year first, then the others of the title, newer first")

	tm, err = e.svc.ByTitle(ctx, "бегущий", "")
	require.NoError(t, err)
	assert.Equal(t, []string{"Бегущий по лезвию 2049", "Бегущий человек", "Бегущий по лезвию"}, titlesOf(tm),
		"a plain prefix ranks as before: newer first")

	tm, err = e.svc.ByTitle(ctx, "хрусталев", "")
	require.NoError(t, err)
	assert.Equal(t, domain.MediaSeries, tm.Match.MediaType, "the series before its season")
	assert.Equal(t, domain.MediaSeason, tm.Alternatives[0].MediaType)
}

// TestFuzzyMatchesStayNarrow: short words get no typo allowance, a typo
// is never looked for when the word is in the catalogue as typed, and an
// unknown word in a query finds nothing rather than anything.
func TestFuzzyMatchesStayNarrow(t *testing.T) {
	e := typedCatalogue(t)
	for _, q := range []string{"том", "дым", "Матрица Бим", "blade runner 3000 extra", "интрестедлор", "zzzz"} {
		tm, err := e.svc.ByTitle(context.Background(), q, "")
		assert.ErrorIs(t, err, domain.ErrMediaNotFound, "%q found %v", q, titlesOf(tm))
	}
	tm, err := e.svc.ByTitle(context.Background(), "дом", "")
	require.NoError(t, err)
	assert.Equal(t, []string{"Дом"}, titlesOf(tm), "a word in the catalogue is not also taken as a typo of others")
}

// TestFileListFindsWhatTitleSearchFinds: the file list's q selects the
// entries by-title finds, in id order, with the other filters and paging.
func TestFileListFindsWhatTitleSearchFinds(t *testing.T) {
	e := typedCatalogue(t)
	ctx := context.Background()
	list := func(q catalog.FilesQuery) ([]string, int64) {
		l, err := e.svc.Files(ctx, q)
		require.NoError(t, err)
		var out []string
		require.NoError(t, l.Each(ctx, func(m domain.Media) error { out = append(out, m.Title); return nil }))
		return out, l.Total
	}
	got, total := list(catalog.FilesQuery{Text: "Матрица 1999"})
	assert.Equal(t, []string{"Матрица", "Матрица: Перезагрузка", "Матрица: Воскрешение"}, got, "id order")
	assert.EqualValues(t, 3, total)
	for query, want := range map[string][]string{
		"бегущий 2049":       {"Бегущий по лезвию", "Бегущий по лезвию 2049", "Бегущий человек"},
		"Belyy Veter":        {"Белый ветер"},
		"vfnhbwf":            {"Матрица", "Матрица: Перезагрузка", "Матрица: Воскрешение"},
		"интерстелар":        {"Интерстеллар"},
		"Дьявол носит Prada": {"Дьявол носит"},
	} {
		got, _ := list(catalog.FilesQuery{Text: query})
		assert.Equal(t, want, got, query)
		tm, err := e.svc.ByTitle(ctx, query, "")
		require.NoError(t, err, query)
		assert.ElementsMatch(t, want, titlesOf(tm), "by-title finds the same for %q", query)
	}
	got, total = list(catalog.FilesQuery{Text: "хрусталев", Type: "season"})
	assert.Equal(t, []string{"Хрусталёв"}, got)
	assert.EqualValues(t, 1, total)
	got, total = list(catalog.FilesQuery{Text: "brat", Limit: new(2), Offset: 1})
	assert.Equal(t, []string{"Брат 2", "Братва"}, got, "the page after the first of Брат, Брат 2, Братва, Brat")
	assert.EqualValues(t, 4, total)
	got, total = list(catalog.FilesQuery{Text: "brat", Limit: new(0)})
	assert.Empty(t, got)
	assert.EqualValues(t, 4, total)
	got, _ = list(catalog.FilesQuery{Text: "brat", Disk: "Elsewhere"})
	assert.Empty(t, got)
	got, _ = list(catalog.FilesQuery{Text: "brat", Disk: "Disk", Category: "uncategorized"})
	assert.Len(t, got, 4)
}

// TestChatSearchIsTheSameSearch: the chat's look-up (SearchTitles) finds
// what people type, ranked like by-title.
func TestChatSearchIsTheSameSearch(t *testing.T) {
	e := typedCatalogue(t)
	for query, want := range map[string]string{"матрица 1999": "Матрица", "vfnhbwf": "Матрица", "интерстелар": "Интерстеллар",
		"Belyy Veter": "Белый ветер", "дьявол носит prada": "Дьявол носит"} {
		res, err := e.svc.SearchTitles(context.Background(), query, 3)
		require.NoError(t, err)
		if assert.NotEmpty(t, res, query) {
			assert.Equal(t, want, res[0].Title, query)
		}
	}
}

// TestConcurrentSearchesAgree: searches running at once, while the index
// is rebuilt under them, each get their own answer (the per-search state
// and the entry cache are shared by none of them).
func TestConcurrentSearchesAgree(t *testing.T) {
	e := typedCatalogue(t)
	want := map[string]string{"бегущий 2049": "Бегущий по лезвию 2049", "vfnhbwf": "Матрица", "интерстелар": "Интерстеллар",
		"Belyy Veter": "Белый ветер", "brat": "Brat", "Матрица 1999": "Матрица", "хрусталев": "Хрусталёв"}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 100 {
				for q, title := range want {
					tm, err := e.svc.ByTitle(context.Background(), q, "")
					if !assert.NoError(t, err, q) || !assert.Equal(t, title, tm.Match.Title, q) {
						return
					}
					if g == 0 && i%25 == 0 {
						e.svc.MediaChanged() // the next search rebuilds the index
					}
				}
			}
		})
	}
	wg.Wait()
}
