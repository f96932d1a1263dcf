package release

import (
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/bench/libgen"
)

// memoName is one name to parse: a file and its folders, nearest first.
type memoName struct {
	file    string
	parents []string
}

// The accuracy table's names, sorted so each folder's files come together,
// as a scan lists them.
func tableNames(t *testing.T) []memoName {
	var out []memoName
	for _, r := range loadNameRows(t) {
		out = append(out, memoName{file: r.name, parents: r.parents})
	}
	// Obfuscated files in release folders: the file reads as a copy of
	// its folder's parse, which the later steps then change.
	for _, dir := range []string{"Show.S17E08.1080p-GRP", "Film.Name.DVDRip-GRP", "Rose.Garden.05.720p.HDTV-GRP",
		"Band.of.Brothers.Part.03.720p-GRP", "The.Simpsons.5.02.720p-GRP", "Bleach.125.720p-GRP"} {
		for _, file := range []string{"c48db7d2e1.mkv", "grp-fn.avi", "grp-fn-cd1.avi", "hp309.mkv"} {
			for _, parents := range [][]string{{dir}, {dir, "Season 1", "Bleach"}, {dir, "Сериалы"}} {
				out = append(out, memoName{file: file, parents: parents})
			}
		}
	}
	slices.SortStableFunc(out, func(a, b memoName) int {
		return strings.Compare(strings.Join(a.parents, "\x00"), strings.Join(b.parents, "\x00"))
	})
	return out
}

// A small synthetic library laid out the ways real ones are, walked in
// folder order.
func libgenNames(t testing.TB) []memoName {
	root := filepath.Join(t.TempDir(), "Library")
	_, err := libgen.Generate(root, 2000, 7)
	require.NoError(t, err)
	var out []memoName
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		var parents []string
		for dir := filepath.Dir(path); ; dir = filepath.Dir(dir) {
			parents = append(parents, filepath.Base(dir))
			if dir == root {
				break
			}
		}
		out = append(out, memoName{file: d.Name(), parents: parents})
		return nil
	})
	require.NoError(t, err)
	require.Greater(t, len(out), 1000)
	return out
}

// interleave deals the names out of n folders at a time in turn, so the
// Parser keeps meeting folders it has just forgotten.
func interleave(names []memoName, n int) []memoName {
	var groups [][]memoName
	for i, nm := range names {
		if i == 0 || !slices.Equal(nm.parents, names[i-1].parents) {
			groups = append(groups, nil)
		}
		groups[len(groups)-1] = append(groups[len(groups)-1], nm)
	}
	var out []memoName
	for start := 0; start < len(groups); start += n {
		batch := groups[start:min(start+n, len(groups))]
		for k := 0; ; k++ {
			added := false
			for _, g := range batch {
				if k < len(g) {
					out, added = append(out, g[k]), true
				}
			}
			if !added {
				break
			}
		}
	}
	return out
}

// A Parser gives exactly ParseAt's results, in folder order and with
// folders interleaved past its memory, and the folder readings it
// remembers stay as readFolders made them, whatever the files did.
func TestParserMatchesParseAt(t *testing.T) {
	now := time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)
	sources := map[string][]memoName{"table": tableNames(t), "libgen": libgenNames(t)}
	for name, names := range sources {
		for _, order := range []struct {
			name  string
			names []memoName
		}{
			{"folder order", names},
			{"3 folders interleaved", interleave(names, 3)},
			{"7 folders interleaved", interleave(names, memoSize+3)},
		} {
			t.Run(name+"/"+order.name, func(t *testing.T) {
				p := NewParser(now)
				hits := 0
				for _, nm := range order.names {
					want := ParseAt(nm.file, nm.parents, now)
					if len(p.memo) > 0 && slices.Equal(p.memo[0].parents, nm.parents) {
						hits++
					}
					require.Equal(t, want, p.Parse(nm.file, nm.parents), "%s in %q", nm.file, nm.parents)
					for _, e := range p.memo {
						require.Equal(t, readFolders(e.parents, p.maxYear), e.dirs, "memo of %q changed", e.parents)
					}
				}
				assert.LessOrEqual(t, len(p.memo), memoSize)
				if name == "libgen" && order.name == "folder order" { // table rows are mostly one per folder
					assert.Greater(t, hits, len(order.names)/3, "files of one folder share its reading")
				}
			})
		}
	}
}

// BenchmarkParseFolders parses a generated library's names in folder
// order, as a scan does, with ParseAt and with one Parser.
func BenchmarkParseFolders(b *testing.B) {
	names := libgenNames(b)
	now := time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)
	b.Run("ParseAt", func(b *testing.B) {
		for b.Loop() {
			for _, nm := range names {
				ParseAt(nm.file, nm.parents, now)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(names)), "ns/name")
	})
	b.Run("Parser", func(b *testing.B) {
		for b.Loop() {
			p := NewParser(now)
			for _, nm := range names {
				p.Parse(nm.file, nm.parents)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(names)), "ns/name")
	})
}
