package offline_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/repository/localfs"
	"mediateka/repository/sqlstore/sqlstoretest"
	"mediateka/usecase/catalog"
	"mediateka/usecase/textmatch"
)

// The library of the question table, on two disks:
//
//	movies (12): Матрица 1999, Матрица: Перезагрузка 2003, Интерстеллар 2014,
//	  Начало 2010, Брат 1997 (file missing), Брат 2 2000, Мальчишник в Вегасе
//	  2009, Джентльмены 2019, Социальная сеть 2010, Король Лев 1994,
//	  Мальтийский сокол 1941, Криминальное чтиво 1994;
//	series (4): Кухня (2 seasons, 5 + 4 episodes; described as 6 seasons),
//	  Адская кухня (1 season, 2 episodes), Тьма / Dark (3 seasons, 3 + 2 + 1),
//	  Во все тяжкие (1 season, 2 episodes) — 19 episodes in all.
//
// Disk 1: 7 movies, 2 series; Disk 2: 5 movies, 2 series. Comedies: two
// movies (one by genre only) and Кухня. Science fiction: four movies and
// Тьма (by genre). The Matrix has two subtitle files beside its video;
// Interstellar's folder has none.
func libraryCatalog(t *testing.T) *catalog.Service {
	t.Helper()
	db := sqlstoretest.New(t, textmatch.Normalize)
	dir := t.TempDir()
	movie := func(ru, orig string, year int, disk, category string, more ...func(*domain.Media)) {
		edits := append([]func(*domain.Media){func(m *domain.Media) {
			m.TitleRu, m.TitleOrig, m.DiskName, m.MainCategory = ru, orig, disk, category
		}}, more...)
		db.Movie(ru, year, edits...)
	}
	genres := func(g ...string) func(*domain.Media) { return func(m *domain.Media) { m.Genres = g } }
	rated := func(r float64, why string) func(*domain.Media) {
		return func(m *domain.Media) { m.Rating, m.WhyWatch = map[string]float64{"imdb": r}, why }
	}
	movie("Матрица", "The Matrix", 1999, "Disk 1", "sci_fi", genres("фантастика", "боевик"),
		rated(8.7, "Классика киберпанка, которая изменила боевики."), videoIn(t, dir, "Matrix (1999)", "The.Matrix.1999.mkv",
			"The.Matrix.1999.ru.srt", "The.Matrix.1999.en.forced.srt"))
	movie("Матрица: Перезагрузка", "The Matrix Reloaded", 2003, "Disk 1", "sci_fi")
	movie("Интерстеллар", "Interstellar", 2014, "Disk 2", "sci_fi", genres("фантастика", "драма"),
		rated(8.6, "Космос, время и отец, который обещал вернуться."), videoIn(t, dir, "Interstellar (2014)", "Interstellar.mkv"))
	movie("Начало", "Inception", 2010, "Disk 2", "sci_fi", genres("фантастика", "триллер"), rated(8.8, "Сон во сне."))
	movie("Брат", "", 1997, "Disk 2", "crime", func(m *domain.Media) { m.Status = domain.StatusMissing })
	movie("Брат 2", "", 2000, "Disk 2", "crime")
	movie("Мальчишник в Вегасе", "The Hangover", 2009, "Disk 1", "comedy", genres("комедия"))
	movie("Джентльмены", "The Gentlemen", 2019, "Disk 2", "crime", genres("криминал", "комедия"))
	movie("Социальная сеть", "The Social Network", 2010, "Disk 1", "drama")
	movie("Король Лев", "The Lion King", 1994, "Disk 1", "animation", genres("мультфильм", "семейный"))
	movie("Мальтийский сокол", "The Maltese Falcon", 1941, "Disk 1", "detective", genres("нуар", "детектив"))
	movie("Криминальное чтиво", "Pulp Fiction", 1994, "Disk 1", "crime")

	series(db, "Кухня", "", "Disk 1", "comedy", 2012, []int{5, 4}, genres("комедия"), func(m *domain.Media) {
		six := 6
		m.NumOfSeasons = &six
	})
	series(db, "Адская кухня", "Hell's Kitchen", "Disk 2", "tv_show", 2005, []int{2})
	series(db, "Тьма", "Dark", "Disk 2", "thriller", 2017, []int{3, 2, 1}, genres("фантастика", "триллер"))
	series(db, "Во все тяжкие", "Breaking Bad", "Disk 1", "crime", 2008, []int{2})

	svc := catalog.New(db.Media, db.Media, localfs.FS{}, catalog.Options{})
	t.Cleanup(svc.Close)
	return svc
}

// libraryRoots are the library folders of the table's catalogue.
func libraryRoots() []domain.Root {
	return []domain.Root{{Path: "/library", Disk: "Disk 1"}, {Path: "/library2", Disk: "Disk 2"}}
}

// series stores a series on disk with one season per count of episodes.
func series(db *sqlstoretest.DB, ru, orig, disk, category string, year int, episodes []int, more ...func(*domain.Media)) {
	onDisk := func(m *domain.Media) { m.DiskName = disk }
	edits := append([]func(*domain.Media){func(m *domain.Media) {
		m.TitleRu, m.TitleOrig, m.DiskName, m.MainCategory = ru, orig, disk, category
	}, sqlstoretest.Year(year)}, more...)
	s := db.Series(ru, edits...)
	for i, n := range episodes {
		season := s.Season(i+1, onDisk)
		for e := 1; e <= n; e++ {
			season.Episode(e, onDisk)
		}
	}
}

// videoIn writes a video file and its sidecars into dir/folder and points
// the entry at the video.
func videoIn(t *testing.T, dir, folder, video string, sidecars ...string) func(*domain.Media) {
	t.Helper()
	p := filepath.Join(dir, folder)
	require.NoError(t, os.MkdirAll(p, 0o755))
	for _, f := range append([]string{video}, sidecars...) {
		require.NoError(t, os.WriteFile(filepath.Join(p, f), []byte("1\n00:00:01,000 --> 00:00:02,000\nx\n"), 0o644))
	}
	return func(m *domain.Media) { m.Path = filepath.Join(p, video) }
}
