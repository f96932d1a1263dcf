package library_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/repository/localfs"
	"mediateka/usecase/library"
)

// spaceOf answers the statfs of the real disk, except for the folders
// listed in broken, as an unreadable mount would.
type spaceOf struct{ broken map[string]bool }

func (s spaceOf) Space(path string) (domain.DiskSpace, error) {
	if s.broken[path] {
		return domain.DiskSpace{}, errors.New("input/output error")
	}
	return localfs.Space{}.Space(path)
}

func TestStatsOverviewOfTheLibrary(t *testing.T) {
	dir := t.TempDir()
	second, gone, broken := filepath.Join(dir, "second"), filepath.Join(dir, "unplugged"), filepath.Join(dir, "broken")
	require.NoError(t, os.MkdirAll(second, 0o755))
	require.NoError(t, os.MkdirAll(broken, 0o755))
	e := newEnv(t, withOptions(func(o *library.Options) {
		o.Roots = append(o.Roots, domain.Root{Path: second, Disk: "Disk 2"}, domain.Root{Path: gone, Disk: "USB"},
			domain.Root{Path: broken, Disk: "NAS"})
		o.Space = spaceOf{broken: map[string]bool{broken: true}}
	}))
	e.touch("Фильмы/Боевики/Heat (1995)/Heat.1995.mkv", "Фильмы/Фантастика/The Matrix (1999)/The.Matrix.1999.mkv",
		"Фильмы/Брат (1997)/Brat.1997.mkv", "Сериалы/Dark (2017)/Season 1/Dark.S01E01.mkv",
		"Сериалы/Dark (2017)/Season 1/Dark.S01E02.mkv", "Прочее/Home video.mkv")
	require.NoError(t, os.WriteFile(filepath.Join(second, "Interstellar (2014).mkv"), []byte("12345"), 0o644))
	e.scan(library.ScanRequest{})

	ov, err := e.svc.Overview(context.Background())
	require.NoError(t, err)
	st, err := e.svc.Stats(context.Background())
	require.NoError(t, err)
	assert.Equal(t, st, ov.Stats, "the counts are Stats'")
	assert.Equal(t, library.Stats{Movies: 5, Series: 1, Seasons: 1, Episodes: 2}, ov.Stats)

	byCat := map[string]int{}
	total := 0
	for _, c := range ov.ByCategory {
		byCat[c.Category.Slug] = c.Count
		total += c.Count
	}
	assert.Len(t, ov.ByCategory, len(domain.Categories())+1, "every category, then uncategorized")
	assert.Equal(t, domain.CategoryUncategorized, ov.ByCategory[len(ov.ByCategory)-1].Category.Slug)
	assert.Equal(t, 1, byCat["action"])
	assert.Equal(t, 1, byCat["sci_fi"])
	assert.Equal(t, 4, byCat[domain.CategoryUncategorized], "Брат, Dark, the home video and Interstellar have none")
	assert.Equal(t, 6, total, "movies and series only")
	assert.Equal(t, []library.DecadeCount{{Decade: 1990, Count: 3}, {Decade: 2010, Count: 2}}, ov.ByDecade)
	assert.Equal(t, 1, ov.Undated, "the home video has no year")

	require.Len(t, ov.Roots, 4)
	first := ov.Roots[0]
	assert.Equal(t, "Disk 1", first.Disk)
	assert.True(t, first.Exists)
	assert.Equal(t, 9-1, first.Entries, "everything but Interstellar")
	var want int64
	for _, m := range e.all() {
		if m.Path != filepath.Join(second, "Interstellar (2014).mkv") {
			want += m.Size
		}
	}
	assert.Equal(t, want, first.Bytes, "the bytes of its files")
	require.NotNil(t, first.Space, "statfs measured it")
	assert.Positive(t, first.Space.Total)
	assert.Equal(t, library.RootUsage{RootInfo: library.RootInfo{Path: second, Disk: "Disk 2", Exists: true, Entries: 1}, Bytes: 5,
		Space: ov.Roots[1].Space}, ov.Roots[1])
	assert.NotNil(t, ov.Roots[1].Space)
	assert.Equal(t, library.RootUsage{RootInfo: library.RootInfo{Path: gone, Disk: "USB"}}, ov.Roots[2], "an unplugged disk is shown, unmeasured")
	assert.True(t, ov.Roots[3].Exists)
	assert.Nil(t, ov.Roots[3].Space, "a file system that cannot be measured leaves the size out, not the overview")

	roots, err := e.svc.ListRoots(context.Background())
	require.NoError(t, err)
	for i, r := range roots {
		assert.Equal(t, r, ov.Roots[i].RootInfo, "the same folders as /roots")
	}

	// The counts are kept until the catalogue changes, then counted again.
	e.touch("Фильмы/Драмы/Зеркало (1975)/Zerkalo.1975.mkv")
	e.scan(library.ScanRequest{})
	ov, err = e.svc.Overview(context.Background())
	require.NoError(t, err)
	assert.Equal(t, 6, ov.Movies, "a scan that added a film shows at once")
	assert.Equal(t, []library.DecadeCount{{Decade: 1970, Count: 1}, {Decade: 1990, Count: 3}, {Decade: 2010, Count: 2}}, ov.ByDecade)
	assert.Equal(t, 9, ov.Roots[0].Entries)
	_, err = e.svc.SetRoots(context.Background(), []domain.Root{{Path: second, Disk: "Disk 2"}})
	require.NoError(t, err)
	ov, err = e.svc.Overview(context.Background())
	require.NoError(t, err)
	require.Len(t, ov.Roots, 1, "a change of folders shows at once")
	assert.Equal(t, 1, ov.Roots[0].Entries)
}

func TestStatsOverviewOfAnEmptyLibraryWithoutSpaceMeter(t *testing.T) {
	e := newEnv(t)
	ov, err := e.svc.Overview(context.Background())
	require.NoError(t, err)
	assert.Zero(t, ov.Stats)
	assert.Empty(t, ov.ByDecade)
	require.Len(t, ov.Roots, 1)
	assert.True(t, ov.Roots[0].Exists)
	assert.Nil(t, ov.Roots[0].Space)
	for _, c := range ov.ByCategory {
		assert.Zero(t, c.Count)
	}
}
