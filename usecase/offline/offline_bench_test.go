package offline_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"syscall"
	"testing"
	"time"

	"mediateka/domain"
	"mediateka/repository/localfs"
	"mediateka/repository/sqlstore/sqlstoretest"
	"mediateka/usecase/catalog"
	"mediateka/usecase/offline"
	"mediateka/usecase/textmatch"
)

// benchCatalog stores about 100 000 records: 20 000 movies on two disks
// with categories, genres, years and (for a third) ratings, and 1 000
// series of 4 seasons of 20 episodes. Only benchmarks build it.
func benchCatalog(b *testing.B) *catalog.Service {
	b.Helper()
	db := sqlstoretest.New(b, textmatch.Normalize)
	ctx := context.Background()
	rnd := rand.New(rand.NewPCG(1, 2))
	cats := domain.Categories()
	modTime := time.Unix(1_700_000_000, 0).UTC()
	var batch []domain.MediaChange
	flush := func() {
		if _, err := db.Media.ApplyScan(ctx, batch); err != nil {
			b.Fatal(err)
		}
		batch = batch[:0]
	}
	for i := range 20_000 {
		c := cats[rnd.IntN(len(cats))]
		year := 1950 + rnd.IntN(75)
		m := domain.Media{DiskName: fmt.Sprint("Disk ", 1+i%2), Path: fmt.Sprintf("/lib/m/%d.mkv", i), Title: fmt.Sprint("Фильм ", i),
			MediaType: domain.MediaMovie, Status: domain.StatusOK, Year: &year, MainCategory: c.Slug,
			Genres: []string{c.Aliases[0], cats[rnd.IntN(len(cats))].Aliases[0]}, Size: 1, ModTime: modTime}
		if i%3 == 0 {
			m.Rating, m.WhyWatch = map[string]float64{"imdb": 5 + rnd.Float64()*4}, "Потому что."
		}
		if batch = append(batch, domain.MediaChange{Media: m}); len(batch) == 1000 {
			flush()
		}
	}
	for s := range 1000 {
		year := 1990 + rnd.IntN(35)
		base := fmt.Sprintf("/lib/s/%d", s)
		batch = append(batch, domain.MediaChange{Media: domain.Media{DiskName: "Disk 1", Path: base, Title: fmt.Sprint("Сериал ", s),
			MediaType: domain.MediaSeries, Status: domain.StatusOK, Year: &year, MainCategory: cats[s%len(cats)].Slug}})
		for n := 1; n <= 4; n++ {
			season, num := fmt.Sprintf("%s/Season %d", base, n), n
			batch = append(batch, domain.MediaChange{ParentPath: base, Media: domain.Media{DiskName: "Disk 1", Path: season,
				Title: fmt.Sprint("Сериал ", s), MediaType: domain.MediaSeason, Status: domain.StatusOK, Number: &num}})
			for e := 1; e <= 20; e++ {
				ep := e
				batch = append(batch, domain.MediaChange{ParentPath: season, Media: domain.Media{DiskName: "Disk 1",
					Path: fmt.Sprintf("%s/E%02d.mkv", season, e), Title: fmt.Sprint("Сериал ", s), MediaType: domain.MediaEpisode,
					Status: domain.StatusOK, Number: &ep, Size: 1, ModTime: modTime}})
			}
		}
		if len(batch) >= 1000 {
			flush()
		}
	}
	flush()
	svc := catalog.New(db.Media, db.Media, localfs.FS{}, catalog.Options{})
	b.Cleanup(svc.Close)
	if err := svc.Warm(ctx); err != nil {
		b.Fatal(err)
	}
	return svc
}

// BenchmarkQuestions answers each kind of question over the 100 000-record
// catalogue. Counts by title or disk ask the store; counts by topic or
// year and suggestions walk the movies (or series) once.
//
//	go test ./usecase/offline -run '^$' -bench Questions -benchtime 20x
func BenchmarkQuestions(b *testing.B) {
	svc := benchCatalog(b)
	roots := func() []domain.Root {
		return []domain.Root{{Path: "/lib", Disk: "Disk 1"}, {Path: "/lib2", Disk: "Disk 2"}}
	}
	m := offline.New(svc, offline.Options{Roots: roots})
	ctx := domain.WithCaller(context.Background(), domain.Caller{UserID: 1, Lang: domain.LangRussian})
	for _, q := range []struct{ name, message string }{
		{"title_episodes", "сколько серий в Сериал 517"},
		{"disk_movies", "сколько фильмов на Disk 2"},
		{"year_movies", "сколько фильмов 2010 года"},
		{"category_count", "сколько комедий"},
		{"recommend_category", "посоветуй комедию"},
		{"recommend_tonight", "что посмотреть вечером"},
		{"list_decade", "фильмы 90-х"},
		{"search", "есть ли у меня Фильм 12345"},
		{"small_talk", "привет"},
	} {
		b.Run(q.name, func(b *testing.B) {
			cpu := cpuTime()
			for b.Loop() {
				if _, err := m.Generate(ctx, domain.Prompt{Message: q.message}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64((cpuTime()-cpu).Microseconds())/1000/float64(b.N), "cpu-ms/op")
		})
	}
}

// cpuTime is the CPU time the process has used, user and system: on a
// machine shared with other work it says more than the wall clock.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
