package release

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

func allCases() []parseCase {
	var all []parseCase
	for _, cs := range [][]parseCase{movieCases(), russianCases(), episodeCases(), folderCases(), edgeCases()} {
		all = append(all, cs...)
	}
	return all
}

// FuzzParse feeds arbitrary file and folder names (folders joined by "/")
// and checks the parser never panics, returns valid UTF-8, keeps years in
// range and is deterministic. The seeds are the table cases and every row
// of the accuracy table.
func FuzzParse(f *testing.F) {
	for _, c := range allCases() {
		f.Add(c.file, strings.Join(c.parents, "/"))
	}
	for _, r := range loadNameRows(f) {
		f.Add(r.name, strings.Join(r.parents, "/"))
	}
	for _, name := range edgeSeeds() {
		f.Add(name, "Show.S01E01.720p-GRP/Season 1/TV")
	}
	f.Fuzz(func(t *testing.T, file, dirs string) {
		var parents []string
		if dirs != "" {
			parents = strings.Split(dirs, "/")
		}
		r := ParseAt(file, parents, testNow())
		assertSane(t, r, testNow())
		assert.Equal(t, r, ParseAt(file, parents, testNow()), "not deterministic")
		if utf8.ValidString(file) {
			assert.Len(t, lowerSameLen(file), len(file), "lower case moved offsets")
		}
	})
}

// edgeSeeds are names at the edges of the newer rules: runs and glued
// words that stop mid-way, sites and brackets that never close, typo'd
// years, lone signs and hyphen-joined names.
func edgeSeeds() []string {
	return []string{
		"S2014E18E19E20E21E22E23E24E25E26E27", "S01E01-02-03-04-05-06-07-08-09", "S013", "S0130E", "Sxe1",
		"1of", "12of", "1of6of7", "Season", "Season1x", "Серия", "с01е", "е5", "05х", "№", "# - №1",
		"www.", "www.a.b -", "[ www.", "a.co_", "Kinozal.tv -", "[", "(((2019", "[402", "[03] [04]",
		"20113-", "20113-2", "19999-1900", "2006гг.", "2011-1", "-2019", "0-9", "#", "А-Я",
		"a-s01e01-b-c", "-s01e01-", "--", "01-", "-01", "1-05-", "Show - 01-", "Show S2 - ", "Show S2 (2019) -",
		"11 Большой", "12 The", "The Limited", "THE PROPER", "Ford против Ferrari Ford v", "Prada Prada Prada",
		"hp309", "grp-", "-grp", "c48db7d2e1", "VIDEO_TS", "movie", "CD1", "Disc 01",
	}
}

// benchNames are typical names, with their folders, in the mix a library
// scan sees.
func benchNames() []parseCase {
	return []parseCase{
		{file: "The.Matrix.1999.1080p.BluRay.x264-GROUP.mkv", parents: []string{"Боевики", "Фильмы"}},
		{file: "Русское название / Original Title (Режиссёр) [2009, США, драма, WEBRip 1080p] [rutracker-123]"},
		{file: "Волшебная страна Finding Neverland (Марк Форстер) [2004, США, драма, BDRip 720p].avi"},
		{file: "Breaking.Bad.S01E02.720p.HDTV.x264.mkv", parents: []string{"Season 1", "Breaking Bad", "Series"}},
		{file: "05 Прослушка.avi", parents: []string{"Сезон 1", "Прослушка", "Сериалы"}},
		{file: "1883.S01E02.1080p.rus.LostFilm.TV.mkv", parents: []string{"1883 1 - LostFilm.TV [1080p]", "Сериалы"}},
		{file: "Game.of.Thrones.S08E06.The.Iron.Throne.1080p.AMZN.WEB-DL.DDP5.1.H.264-GoT.mkv"},
		{file: "Polnoch'_v_Parizhe_2011_BDRip.avi", parents: []string{"Комедии"}},
	}
}

// BenchmarkParse reports the time per name over the mix in benchNames.
func BenchmarkParse(b *testing.B) {
	names := benchNames()
	now := testNow()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		c := names[i%len(names)]
		_ = ParseAt(c.file, c.parents, now)
	}
}

// BenchmarkParseHuge bounds the cost of a pathological name.
func BenchmarkParseHuge(b *testing.B) {
	name := strings.Repeat("a.(b)[c]-1x2.", 1000)
	now := testNow()
	for b.Loop() {
		_ = ParseAt(name, []string{name, name}, now)
	}
}
