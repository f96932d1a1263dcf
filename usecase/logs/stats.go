package logs

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"mediateka/domain"
)

// Stats sums up the log folder: sizes, file and report counts, and lines
// per level over the last 24 hours.
type Stats struct {
	TotalSizeBytes int64
	FileCount      int
	ReportCount    int
	// ByLevel counts the records of the last 24 hours per level (debug,
	// info, warn, error; always all four).
	ByLevel       map[string]int
	ErrorsLast24h int
	// ErrorsPerHour counts the error records of each of the last 24 whole
	// hours, oldest first, the last being the hour under way: the chart of
	// the admin panel, counted in the same pass as ByLevel.
	ErrorsPerHour HourlyCounts
}

// HourlyCounts are 24 counts; Hours[i] (UTC) starts the hour of Counts[i].
type HourlyCounts struct {
	Hours  [24]time.Time
	Counts [24]int
}

// add counts a record at t when it falls in one of the hours.
func (h *HourlyCounts) add(t time.Time) {
	if t.Before(h.Hours[0]) {
		return
	}
	if i := int(t.Sub(h.Hours[0]) / time.Hour); i < len(h.Counts) {
		h.Counts[i]++
	}
}

// statsWindow is how far back Stats counts levels.
const statsWindow = 24 * time.Hour

// Stats reads only files changed within the window, and the plain ones
// backwards from their end up to the first older record, so its cost
// follows the last day's lines, not the folder's size.
func (s *Service) Stats(ctx context.Context) (Stats, error) {
	files, err := s.Files(ctx)
	if err != nil {
		return Stats{}, err
	}
	reports, err := s.Reports(ctx)
	if err != nil {
		return Stats{}, err
	}
	st := Stats{FileCount: len(files), ReportCount: len(reports), ByLevel: map[string]int{"debug": 0, "info": 0, "warn": 0, "error": 0}}
	now := s.opt.Now()
	since := now.Add(-statsWindow)
	first := now.UTC().Truncate(time.Hour).Add(-23 * time.Hour)
	for i := range st.ErrorsPerHour.Hours {
		st.ErrorsPerHour.Hours[i] = first.Add(time.Duration(i) * time.Hour)
	}
	for _, f := range files {
		st.TotalSizeBytes += f.Size
		if f.Modified.Before(since) {
			continue
		}
		if err := s.countLevels(f.Name, since, st.ByLevel, &st.ErrorsPerHour); err != nil {
			var de *domain.Error
			if errors.As(err, &de) && de.Kind == domain.KindNotFound {
				continue // rotated away meanwhile
			}
			return Stats{}, fmt.Errorf("count the levels of %s: %w", f.Name, err)
		}
	}
	st.ErrorsLast24h = st.ByLevel["error"]
	return st, nil
}

// countLevels adds the records of name timed at or after since, and its
// errors to their hours.
func (s *Service) countLevels(name string, since time.Time, by map[string]int, hourly *HourlyCounts) error {
	add := func(line []byte) (older bool) {
		t, lvl, ok := timeLevel(line)
		if !ok || t.IsZero() {
			return false
		}
		if t.Before(since) {
			return true
		}
		if b := bucket(lvl); b != "other" {
			by[b]++
			if b == "error" {
				hourly.add(t)
			}
		}
		return false
	}
	if !strings.HasSuffix(name, ".gz") {
		return s.folder.ReadBackward(name, func(line []byte) bool { return !add(line) })
	}
	r, err := s.folder.Open(name)
	if err != nil {
		return err
	}
	defer r.Close()
	return forEachLine(r, maxLineParsed, func(line []byte) bool { add(line); return true })
}
