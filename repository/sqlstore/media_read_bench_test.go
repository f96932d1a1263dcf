package sqlstore

import (
	"context"
	"fmt"
	"testing"

	"mediateka/domain"
)

// BenchmarkEachPage reads pages of 50 scanned episodes (the file list's
// usual page) with Each; one op is one page. "rows" continues a walk
// (AfterID), which is always read from SQLite: the cost of reading rows;
// "kept" asks the same first pages again, as clients of the file list do.
func BenchmarkEachPage(b *testing.B) {
	s, err := Open(context.Background(), b.TempDir()+"/bench.db")
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	r := NewMedia(s, lowerNorm)
	ctx := context.Background()
	var batch []domain.MediaChange
	for i := range 5000 {
		m := fileMedia(fmt.Sprintf("/tv/Show %d/Season 1/Show.S01E%02d.720p.WEB-DL.mkv", i/20, i%20), fmt.Sprintf("Show %d", i/20), domain.MediaEpisode)
		year, n := 1990+i%30, i%20+1
		m.Year, m.Number, m.TitleOrig = &year, &n, m.Title
		batch = append(batch, domain.MediaChange{Media: m})
	}
	if _, err := r.ApplyScan(ctx, batch); err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name   string
		filter func(i int) domain.MediaFilter
	}{
		{"rows", func(i int) domain.MediaFilter { return domain.MediaFilter{Limit: 50, AfterID: int64(i%90)*50 + 1} }},
		{"kept", func(i int) domain.MediaFilter { return domain.MediaFilter{Limit: 50, Offset: (i % 4) * 50} }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				n := 0
				if err := r.Each(ctx, bc.filter(i), func(domain.Media) error { n++; return nil }); err != nil || n != 50 {
					b.Fatal(err, n)
				}
			}
		})
	}
}
