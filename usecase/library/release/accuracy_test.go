package release

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
)

// The accuracy table: testdata/names/<class>.tsv, one failure class per
// file. Each row is a path (folders and the file, split at every "/" with
// no space beside it; " / " is part of a torrent-style name), the
// expected title, year, season and episode; "-" means none. A title
// written "Русское / Original" asserts both titles, any other the display
// title (the series title for an episode), compared without case and
// punctuation. A row with a season or an episode expects an episode.
const namesDir = "testdata/names"

// Accuracy targets over the whole table, in percent.
const (
	minTitleAcc   = 95.0
	minYearAcc    = 98.0
	minEpisodeAcc = 98.0
	minRows       = 600
)

// nameRow is one row of the accuracy table.
type nameRow struct {
	class, file string
	line        int
	name        string   // the file's base name
	parents     []string // its folders, nearest first
	title       string
	year        int
	season      int // -1: no season
	episode     int // -1: no episode
}

// loadNameRows reads every table file, sorted by class.
func loadNameRows(t testing.TB) []nameRow {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(namesDir, "*.tsv"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	sort.Strings(files)
	var rows []nameRow
	for _, f := range files {
		rows = append(rows, readNameFile(t, f)...)
	}
	return rows
}

func readNameFile(t testing.TB, path string) []nameRow {
	t.Helper()
	fh, err := os.Open(path)
	require.NoError(t, err)
	defer fh.Close()
	class := strings.TrimSuffix(filepath.Base(path), ".tsv")
	var rows []nameRow
	sc := bufio.NewScanner(fh)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		row, err := parseNameRow(line)
		require.NoError(t, err, "%s:%d", path, n)
		row.class, row.file, row.line = class, path, n
		rows = append(rows, row)
	}
	require.NoError(t, sc.Err())
	return rows
}

func parseNameRow(line string) (nameRow, error) {
	cols := strings.Split(line, "\t")
	if len(cols) != 5 {
		return nameRow{}, fmt.Errorf("want 5 tab-separated columns, got %d", len(cols))
	}
	for i := range cols {
		cols[i] = strings.TrimSpace(cols[i])
	}
	parts := splitPath(cols[0])
	row := nameRow{name: parts[len(parts)-1], title: cols[1]}
	for i := len(parts) - 2; i >= 0; i-- {
		row.parents = append(row.parents, parts[i])
	}
	var err error
	if row.year, err = optNum(cols[2], 0); err != nil {
		return row, err
	}
	if row.season, err = optNum(cols[3], -1); err != nil {
		return row, err
	}
	row.episode, err = optNum(cols[4], -1)
	return row, err
}

// splitPath splits a table path into folders and the file at every "/"
// without a space beside it: " / " belongs to a torrent-style name
// ("Брат / Brother (1997)"), which no folder level can hold.
func splitPath(path string) []string {
	var parts []string
	start := 0
	for i := 0; i < len(path); i++ {
		if path[i] == '/' && (i == 0 || path[i-1] != ' ') && (i+1 == len(path) || path[i+1] != ' ') {
			parts = append(parts, path[start:i])
			start = i + 1
		}
	}
	return append(parts, path[start:])
}

func optNum(s string, none int) (int, error) {
	if s == "-" {
		return none, nil
	}
	return strconv.Atoi(s)
}

// path is the row's path as written in the table.
func (r nameRow) path() string {
	parts := make([]string, 0, len(r.parents)+1)
	for i := len(r.parents) - 1; i >= 0; i-- {
		parts = append(parts, r.parents[i])
	}
	return strings.Join(append(parts, r.name), "/")
}

// rowScore is which of the three measures one parse got right.
type rowScore struct{ title, year, episode bool }

func scoreRow(r nameRow, got Release) rowScore {
	return rowScore{title: titleMatches(r, got), year: got.Year == r.year, episode: episodeMatches(r, got)}
}

func titleMatches(r nameRow, got Release) bool {
	if ru, orig, ok := strings.Cut(r.title, " / "); ok {
		return fold(ru) == fold(got.TitleRu) && fold(orig) == fold(got.TitleOrig)
	}
	shown := got.Title
	if got.MediaType == domain.MediaEpisode {
		shown = got.SeriesTitle
	}
	return fold(r.title) == fold(shown)
}

func episodeMatches(r nameRow, got Release) bool {
	wantEpisode := r.season >= 0 || r.episode >= 0
	if wantEpisode != (got.MediaType == domain.MediaEpisode) {
		return false
	}
	if (r.season >= 0) != got.HasSeason || (r.season >= 0 && r.season != got.Season) {
		return false
	}
	if r.episode < 0 {
		return got.Episode == 0
	}
	return got.Episode == r.episode
}

// TestParseAccuracy parses every row of the table and fails when the share
// of right titles, years or season+episode pairs drops below its target.
// With -v it prints each failure, grouped by class, and a per-class summary.
func TestParseAccuracy(t *testing.T) {
	rows := loadNameRows(t)
	require.GreaterOrEqual(t, len(rows), minRows, "the table is too small to measure")
	var total [3]int
	perClass := map[string]*[4]int{}
	var classes []string
	for _, r := range rows {
		got := ParseAt(r.name, r.parents, testNow())
		assertSane(t, got, testNow())
		s := scoreRow(r, got)
		c := perClass[r.class]
		if c == nil {
			c = &[4]int{}
			perClass[r.class] = c
			classes = append(classes, r.class)
		}
		c[3]++
		for i, ok := range [3]bool{s.title, s.year, s.episode} {
			if ok {
				total[i]++
				c[i]++
			}
		}
		if testing.Verbose() && (!s.title || !s.year || !s.episode) {
			t.Logf("%s:%d %q\n    want %q %d S%d E%d\n    got  title=%q ru=%q orig=%q series=%q %d %s S%d(%v) E%d",
				r.class, r.line, r.path(), r.title, r.year, r.season, r.episode,
				got.Title, got.TitleRu, got.TitleOrig, got.SeriesTitle, got.Year, got.MediaType, got.Season, got.HasSeason, got.Episode)
		}
	}
	for _, name := range classes {
		c := perClass[name]
		t.Logf("%-16s %4d rows  title %5.1f%%  year %5.1f%%  season+episode %5.1f%%",
			name, c[3], pct(c[0], c[3]), pct(c[1], c[3]), pct(c[2], c[3]))
	}
	n := len(rows)
	t.Logf("%-16s %4d rows  title %5.1f%%  year %5.1f%%  season+episode %5.1f%%",
		"all", n, pct(total[0], n), pct(total[1], n), pct(total[2], n))
	assert.GreaterOrEqual(t, pct(total[0], n), minTitleAcc, "title accuracy")
	assert.GreaterOrEqual(t, pct(total[1], n), minYearAcc, "year accuracy")
	assert.GreaterOrEqual(t, pct(total[2], n), minEpisodeAcc, "season+episode accuracy")
}

func pct(a, n int) float64 { return 100 * float64(a) / float64(n) }

// BenchmarkParseTable parses every name of the accuracy table; ns/op is the
// time for one name.
func BenchmarkParseTable(b *testing.B) {
	rows := loadNameRows(b)
	now := testNow()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		r := rows[i%len(rows)]
		_ = ParseAt(r.name, r.parents, now)
	}
}
