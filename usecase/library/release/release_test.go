package release

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
)

const (
	mv = domain.MediaMovie
	ep = domain.MediaEpisode
)

// testNow is the clock every table case runs at: years up to 2027 are valid.
func testNow() time.Time { return time.Date(2026, time.June, 1, 12, 0, 0, 0, time.UTC) }

// parseCase is one table row. Every non-zero field of want is asserted
// (Tags as a subset); zero lists fields, space-separated, that must stay
// zero, so "not a year" and "no season" are asserted too.
type parseCase struct {
	file    string
	parents []string
	want    Release
	zero    string
}

func runCases(t *testing.T, cases []parseCase) {
	t.Helper()
	for i, c := range cases {
		t.Run(fmt.Sprintf("%03d", i), func(t *testing.T) {
			got := ParseAt(c.file, c.parents, testNow())
			msg := fmt.Sprintf("%q in %q\ngot %+v", c.file, c.parents, got)
			gv, wv := reflect.ValueOf(got), reflect.ValueOf(c.want)
			for f := 0; f < wv.NumField(); f++ {
				name, w := wv.Type().Field(f).Name, wv.Field(f)
				switch {
				case w.IsZero():
				case name == "Tags":
					assert.Subset(t, got.Tags, c.want.Tags, "Tags of %s", msg)
				default:
					assert.Equal(t, w.Interface(), gv.Field(f).Interface(), "%s of %s", name, msg)
				}
			}
			for _, name := range strings.Fields(c.zero) {
				f := gv.FieldByName(name)
				require.True(t, f.IsValid(), "no field %s", name)
				assert.True(t, f.IsZero(), "%s = %v, want zero, for %s", name, f.Interface(), msg)
			}
			assertSane(t, got, testNow())
		})
	}
}

// assertSane checks what must hold for every input: valid UTF-8, years in
// range, consistent episode numbers, a known media type.
func assertSane(t *testing.T, r Release, now time.Time) {
	t.Helper()
	v := reflect.ValueOf(r)
	for f := 0; f < v.NumField(); f++ {
		if s, ok := v.Field(f).Interface().(string); ok {
			assert.True(t, utf8.ValidString(s), "%s is not UTF-8: %q", v.Type().Field(f).Name, s)
		}
	}
	for _, tag := range r.Tags {
		assert.True(t, utf8.ValidString(tag), "tag %q is not UTF-8", tag)
	}
	if r.Year != 0 {
		assert.GreaterOrEqual(t, r.Year, 1900)
		assert.LessOrEqual(t, r.Year, now.Year()+1)
	}
	assert.GreaterOrEqual(t, r.Season, 0)
	assert.LessOrEqual(t, r.Season, 2100, "a season is a number or a year")
	assert.GreaterOrEqual(t, r.Episode, 0)
	assert.LessOrEqual(t, r.EpisodeEnd, 9999)
	assert.GreaterOrEqual(t, r.EpisodeEnd, r.Episode)
	assert.Contains(t, []string{domain.MediaMovie, domain.MediaEpisode}, r.MediaType)
	if r.Season > 0 {
		assert.True(t, r.HasSeason)
	}
	if r.MediaType == domain.MediaMovie {
		assert.False(t, r.HasSeason, "a movie has no season")
		assert.Zero(t, r.Episode, "a movie has no episode")
	}
	for _, s := range []string{r.Title, r.TitleRu, r.TitleOrig, r.SeriesTitle, r.EpisodeTitle} {
		assert.Equal(t, strings.TrimSpace(s), s, "untrimmed title %q", s)
	}
	if r.Title == "" {
		assert.Empty(t, r.TitleRu+r.TitleOrig, "titles without a display title")
	}
}

func TestParseMovies(t *testing.T)   { runCases(t, movieCases()) }
func TestParseRussian(t *testing.T)  { runCases(t, russianCases()) }
func TestParseEpisodes(t *testing.T) { runCases(t, episodeCases()) }
func TestParseFolders(t *testing.T)  { runCases(t, folderCases()) }
func TestParseEdges(t *testing.T)    { runCases(t, edgeCases()) }

func TestCaseCount(t *testing.T) {
	n := len(movieCases()) + len(russianCases()) + len(episodeCases()) + len(folderCases()) + len(edgeCases())
	assert.GreaterOrEqual(t, n, 150)
}

func TestParseUsesTheClock(t *testing.T) {
	name := "Future.Film.2027.1080p.mkv"
	assert.Equal(t, 2027, ParseAt(name, nil, testNow()).Year)
	assert.Equal(t, 0, ParseAt(name, nil, time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)).Year)
	assert.Equal(t, "Future Film 2027", ParseAt(name, nil, time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)).Title)
	assert.NotEmpty(t, Parse(name, nil).Title)
}

func TestParseDoesNotKeepInput(t *testing.T) {
	parents := []string{"Season 1", "Show"}
	r := ParseAt("Show.S01E01.mkv", parents, testNow())
	assert.Equal(t, []string{"Season 1", "Show"}, parents)
	assert.Equal(t, "Show", r.SeriesTitle)
}

func TestLowerSameLenKeepsOffsets(t *testing.T) {
	for in, want := range map[string]string{
		"":                      "",
		"already lower":         "already lower",
		"The.Matrix.1999":       "the.matrix.1999",
		"ВО ВСЕ ТЯЖКИЕ Ё":       "во все тяжкие ё",
		"İstanbul KAPI":         "İstanbul kapi", // İ lower-cases to three bytes: kept
		"Ⱥ and Ɐ stay the size": "Ⱥ and Ɐ stay the size",
	} {
		got := lowerSameLen(in)
		assert.Equal(t, want, got, in)
		assert.Len(t, got, len(in), in)
	}
}

func TestTokensCoverTheName(t *testing.T) {
	p := parseName("Во все тяжкие / Breaking Bad [01x01-08 из 10] (2008) WEB-DL 1080p", false, 2027)
	var words []string
	for i := range p.toks {
		words = append(words, p.core(i))
	}
	assert.Equal(t, []string{"Во", "все", "тяжкие", "/", "Breaking", "Bad", "[", "01x01-08", "из", "10", "]",
		"(", "2008", ")", "WEB-DL", "1080p"}, words)
	assert.Equal(t, "web-dl", p.low(14))
}

// TestIsTagDropsOnlyUnambiguousTags: the words a file name's junk is made
// of are tags; English words that are weak tags, years and titles are not.
func TestIsTagDropsOnlyUnambiguousTags(t *testing.T) {
	t.Parallel()
	for _, w := range []string{"1080p", "x264", "bluray", "webrip", "hevc", "lostfilm", "rus", "ac3"} {
		assert.True(t, IsTag(w), w)
	}
	for _, w := range []string{"proper", "french", "matrix", "1999", "web", "брат", ""} {
		assert.False(t, IsTag(w), w)
	}
}
