package app

import (
	"encoding/json"
	"fmt"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/repository/sqlstore/sqlstoretest"
)

// typedLibrary is a scanned library in both languages for search as
// people type: two Бегущий films, three Матрица films and the English
// The Matrix, Брат, Белый ветер, a Latin-only Kholop, Интерстеллар, and
// Дьявол носит Prada stored split over title_ru and title_orig.
func typedLibrary(t *testing.T) *libApp {
	t.Helper()
	la := newLibApp(t, nil)
	la.put(t, map[string]string{
		"Фильмы/Бегущий по лезвию (1982).mkv":                    "br1",
		"Фильмы/Бегущий по лезвию 2049 (2017).mkv":               "br2",
		"Фильмы/Матрица (1999).mkv":                              "mx1",
		"Фильмы/Матрица. Перезагрузка (2003).mkv":                "mx2",
		"Фильмы/Матрица. Воскрешение (2021).mkv":                 "mx4",
		"Films/The.Matrix.1999.1080p.BluRay.mkv":                 "mx-en",
		"Фильмы/Брат (1997).avi":                                 "brat",
		"Фильмы/Белый ветер (2010).mkv":                          "wind",
		"Films/Kholop.2019.WEB-DL.mkv":                           "kholop",
		"Фильмы/Интерстеллар (2014).mkv":                         "inter",
		"Фильмы/Дьявол носит Prada (2006).mkv":                   "prada",
		"Сериалы/Бегущий человек/Сезон 1/01 Бегущий человек.avi": "run-e1",
	})
	la.scan(t)
	id := la.idOf(t, "Фильмы/Дьявол носит Prada (2006).mkv")
	resp, body := la.do(t, "PATCH", fmt.Sprintf("/api/media-admin/media/%d", id), la.admin,
		map[string]any{"title": "Дьявол носит", "title_ru": "Дьявол носит", "title_orig": "Prada"})
	require.Equal(t, 200, resp.StatusCode, "%v", body)
	return la
}

// byTitle searches over HTTP and returns the titles (with years) found,
// best first; nil when nothing is found.
func (la *libApp) byTitle(t *testing.T, query string) []string {
	t.Helper()
	resp, body := la.do(t, "POST", "/api/media/by-title", la.user, map[string]any{"title": query})
	if resp.StatusCode == 404 {
		assert.Equal(t, "media_not_found", errCode(body), query)
		return nil
	}
	require.Equal(t, 200, resp.StatusCode, "%q: %v", query, body)
	out := []string{label(body["match"])}
	for _, a := range body["alternatives"].([]any) {
		out = append(out, label(a))
	}
	return out
}

func label(entry any) string {
	e := entry.(map[string]any)
	if y, ok := e["year"].(float64); ok {
		return fmt.Sprintf("%s (%d)", e["title"], int(y))
	}
	return fmt.Sprint(e["title"])
}

// TestByTitleAsPeopleTypeOverHTTP: the cases of search as people type,
// through the whole server on a scanned library.
func TestByTitleAsPeopleTypeOverHTTP(t *testing.T) {
	t.Parallel()
	la := typedLibrary(t)
	for _, tt := range []struct{ query, first string }{
		{"бегущий 2049", "Бегущий по лезвию 2049 (2017)"},
		{"Матрица 1999", "Матрица (1999)"},
		{"Belyy Veter", "Белый ветер (2010)"},
		{"brat", "Брат (1997)"},
		{"Холоп", "Kholop (2019)"},
		{"vfnhbwf", "Матрица (1999)"},
		{"ьфекшч", "The Matrix (1999)"},
		{"интерстелар", "Интерстеллар (2014)"},
		{"Дьявол носит Prada", "Дьявол носит (2006)"},
		{"матрица", "Матрица (1999)"},
	} {
		got := la.byTitle(t, tt.query)
		if assert.NotEmpty(t, got, tt.query) {
			assert.Equal(t, tt.first, got[0], "%q: %v", tt.query, got)
		}
	}
	assert.Equal(t, []string{"Матрица (1999)", "Матрица. Воскрешение (2021)", "Матрица. Перезагрузка (2003)"},
		la.byTitle(t, "Матрица 1999"), "the film of the year first, then the others of the title")
	assert.Equal(t, []string{"Матрица (1999)", "Матрица. Воскрешение (2021)", "Матрица. Перезагрузка (2003)"},
		la.byTitle(t, "матрица"), "exact, then prefix matches newer first; a translation is not a spelling")
	assert.Nil(t, la.byTitle(t, "том"), "no typo allowance for a short word")
}

// TestFileListSearchesAsPeopleTypeOverHTTP: GET /api/media/files?q=
// selects what by-title finds, with the total and the other filters.
func TestFileListSearchesAsPeopleTypeOverHTTP(t *testing.T) {
	t.Parallel()
	la := typedLibrary(t)
	files := func(query string) ([]string, string) {
		resp, raw := la.raw(t, "GET", "/api/media/files?"+query, la.user, nil)
		require.Equal(t, 200, resp.StatusCode, "%s: %s", query, raw)
		var entries []any
		require.NoError(t, json.Unmarshal(raw, &entries))
		var out []string
		for _, e := range entries {
			out = append(out, label(e))
		}
		return out, resp.Header.Get("X-Total-Count")
	}
	got, total := files("q=" + url.QueryEscape("Belyy Veter"))
	assert.Equal(t, []string{"Белый ветер (2010)"}, got)
	assert.Equal(t, "1", total)
	got, total = files("q=" + url.QueryEscape("интерстелар"))
	assert.Equal(t, []string{"Интерстеллар (2014)"}, got)
	assert.Equal(t, "1", total)
	got, total = files("q=" + url.QueryEscape("бегущий 2049") + "&type=movie")
	assert.ElementsMatch(t, []string{"Бегущий по лезвию (1982)", "Бегущий по лезвию 2049 (2017)"}, got,
		"the films, with and without the year; the series is not a movie")
	assert.Equal(t, "2", total)
	got, total = files("q=vfnhbwf&limit=1")
	assert.Len(t, got, 1)
	assert.Equal(t, "3", total, "the three Матрица films, found on the other layout")
	got, _ = files("q=" + url.QueryEscape("Дьявол носит Prada"))
	assert.Equal(t, []string{"Дьявол носит (2006)"}, got)
}

// TestSearchesAsPeopleTypeAreLogged: every by-title search is written to
// search_history with its number of results, fuzzy matches included.
func TestSearchesAsPeopleTypeAreLogged(t *testing.T) {
	t.Parallel()
	la := typedLibrary(t)
	_, stop := runOnLoopback(t, la.testApp) // the search-log writer is a component of Run
	defer func() { require.NoError(t, stop()) }()
	la.byTitle(t, "vfnhbwf")
	la.byTitle(t, "интерстелар")
	la.byTitle(t, "qqqqzzzz")
	want := map[string]int{"vfnhbwf": 3, "интерстелар": 1, "qqqqzzzz": 0}
	require.Eventually(t, func() bool {
		var n int
		require.NoError(t, sqlstoretest.Raw(t, la.cfg.DBPath()).QueryRow(`SELECT count(*) FROM search_history`).Scan(&n))
		return n == len(want)
	}, 5*time.Second, 20*time.Millisecond)
	for query, count := range want {
		var n int
		require.NoError(t, sqlstoretest.Raw(t, la.cfg.DBPath()).QueryRow(`SELECT results_count FROM search_history WHERE query = ?`, query).Scan(&n))
		assert.Equal(t, count, n, query)
	}
}

// TestChatFindsWhatPeopleType: the offline assistant searches the
// catalogue the same way.
func TestChatFindsWhatPeopleType(t *testing.T) {
	t.Parallel()
	la := typedLibrary(t)
	for message, want := range map[string]string{
		"Есть ли у меня интерстелар?": "Интерстеллар",
		"Do I have Belyy Veter?":      "Белый ветер",
		"найди vfnhbwf":               "Матрица",
	} {
		resp, body := la.do(t, "POST", "/api/chat", la.user, map[string]any{"message": message})
		require.Equal(t, 200, resp.StatusCode, "%v", body)
		assert.Contains(t, body["text"], want, message)
	}
}
