package sqlstore

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"mediateka/domain"
)

// BenchmarkApplyScanFirstScan writes what a first scan of a 100 000-file
// library writes — series, seasons, episodes and movies, in batches of
// 2000 sorted as the scan sorts them — into an empty table; one op is the
// whole library, and ns/row is the writer's cost per record.
func BenchmarkApplyScanFirstScan(b *testing.B) {
	batches := scanBatches(100000, 2000)
	rows := 0
	for _, bt := range batches {
		rows += len(bt)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		s, err := Open(context.Background(), b.TempDir()+"/bench.db")
		if err != nil {
			b.Fatal(err)
		}
		r := NewMedia(s, lowerNorm)
		work := make([][]domain.MediaChange, len(batches))
		for j, bt := range batches {
			work[j] = append([]domain.MediaChange(nil), bt...)
		}
		b.StartTimer()
		for _, bt := range work {
			if _, err := r.ApplyScan(context.Background(), bt); err != nil {
				b.Fatal(err)
			}
		}
		b.StopTimer()
		_ = s.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*rows), "ns/row")
}

// scanBatches makes n files as a first scan writes them: 30 % movies,
// the rest episodes of series of 4 seasons × 20 episodes, in batches of
// about size rows holding whole series; the scan's writer sorts each batch
// series → seasons → files by path, which sortScanBatch does here.
func scanBatches(n, size int) [][]domain.MediaChange {
	var out [][]domain.MediaChange
	var cur []domain.MediaChange
	flush := func() { sortScanBatch(cur); out, cur = append(out, cur), nil }
	year := 1990
	mtime := time.Unix(1_700_000_000, 0)
	for f := 0; f < n; f++ {
		e := f - n*3/10
		if len(cur) >= size && (e < 0 || e%80 == 0) { // a batch holds whole series
			flush()
		}
		if e < 0 {
			m := domain.Media{DiskName: "library", Path: fmt.Sprintf("/lib/Фильмы/Movie %06d (%d)/Movie.%06d.%d.1080p.mkv", f, year+f%30, f, year+f%30),
				Title: fmt.Sprintf("Movie %d", f), TitleOrig: fmt.Sprintf("Movie %d", f), Year: ptrInt(year + f%30), MediaType: domain.MediaMovie,
				Status: domain.StatusOK, Size: int64(f*7919%1000003 + 1), ModTime: mtime}
			cur = append(cur, domain.MediaChange{Media: m})
			continue
		}
		show, season, ep := e/80, e/20%4+1, e%20+1
		sp := fmt.Sprintf("/lib/Сериалы/Show %05d (%d)", show, year+show%30)
		if ep == 1 && season == 1 {
			cur = append(cur, domain.MediaChange{Media: domain.Media{DiskName: "library", Path: sp, Title: fmt.Sprintf("Show %d", show), MediaType: domain.MediaSeries, Status: domain.StatusOK}})
		}
		seap := fmt.Sprintf("%s/Season %d", sp, season)
		if ep == 1 {
			cur = append(cur, domain.MediaChange{Media: domain.Media{DiskName: "library", Path: seap, Title: fmt.Sprintf("Show %d", show), MediaType: domain.MediaSeason, Status: domain.StatusOK, Number: ptrInt(season)}, ParentPath: sp})
		}
		m := domain.Media{DiskName: "library", Path: fmt.Sprintf("%s/Show.%05d.S%02dE%02d.720p.mkv", seap, show, season, ep), Title: fmt.Sprintf("Show %d", show),
			MediaType: domain.MediaEpisode, Status: domain.StatusOK, Number: ptrInt(ep), Size: int64(f*7919%1000003 + 1), ModTime: mtime}
		cur = append(cur, domain.MediaChange{Media: m, ParentPath: seap})
	}
	flush()
	return out
}

func ptrInt(n int) *int { return &n }

// sortScanBatch sorts as the scan's writer does: series, seasons, then
// the rest, each by path.
func sortScanBatch(b []domain.MediaChange) {
	rank := map[string]int{domain.MediaSeries: 0, domain.MediaSeason: 1}
	key := func(c domain.MediaChange) int {
		if r, ok := rank[c.Media.MediaType]; ok {
			return r
		}
		return 2
	}
	slices.SortStableFunc(b, func(x, y domain.MediaChange) int {
		if kx, ky := key(x), key(y); kx != ky {
			return kx - ky
		}
		return strings.Compare(x.Media.Path, y.Media.Path)
	})
}
