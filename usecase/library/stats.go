package library

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"mediateka/domain"
)

// Stats counts the catalogue: records by type, and how many of them are
// marked missing.
type Stats struct {
	Movies   int
	Series   int
	Seasons  int
	Episodes int
	Missing  int
}

// Stats counts the catalogue's records.
func (s *Service) Stats(ctx context.Context) (Stats, error) {
	counts, err := s.store.CountByType(ctx)
	if err != nil {
		return Stats{}, fmt.Errorf("count the catalogue: %w", err)
	}
	var st Stats
	for typ, byStatus := range counts {
		n := 0
		for status, c := range byStatus {
			n += c
			if status == domain.StatusMissing {
				st.Missing += c
			}
		}
		switch typ {
		case domain.MediaMovie:
			st.Movies = n
		case domain.MediaSeries:
			st.Series = n
		case domain.MediaSeason:
			st.Seasons = n
		case domain.MediaEpisode:
			st.Episodes = n
		}
	}
	return st, nil
}

// CategoryCount is how many movies and series one category holds.
type CategoryCount struct {
	Category domain.Category
	Count    int
}

// DecadeCount is how many movies and series come from one decade.
type DecadeCount struct {
	Decade int // 1990 holds 1990–1999
	Count  int
}

// RootUsage is a library folder with what the catalogue holds under it
// and, when the folder is there and its file system could be measured,
// that file system's size and free space.
type RootUsage struct {
	RootInfo
	Bytes int64
	Space *domain.DiskSpace
}

// Overview is the admin panel's first look at the library: the counts of
// Stats, the works (movies and series) by category and by decade, and the
// library folders with their disk use.
type Overview struct {
	Stats
	// ByCategory holds every category of the fixed list in order, then
	// uncategorized, as GET /api/media/by-category counts them.
	ByCategory []CategoryCount
	// ByDecade holds the decades that have works, oldest first; Undated
	// counts the works without a year.
	ByDecade []DecadeCount
	Undated  int
	Roots    []RootUsage
}

// Overview counts the catalogue for the admin panel. Each part is one
// grouped query whose cost does not grow with the number of folders; the
// counts are kept until the catalogue or the folders change (one indexed
// look-up tells), so a panel opened again and again over 100 000 records
// costs nothing (docs/PERFORMANCE.md, "Admin overview"). The file
// systems' free space is measured on every call.
func (s *Service) Overview(ctx context.Context) (Overview, error) {
	version, err := s.store.Version(ctx)
	if err != nil {
		return Overview{}, fmt.Errorf("read the catalogue's version: %w", err)
	}
	roots := s.roots.Roots()
	out, ok := s.overview.get(version, roots)
	if !ok {
		if out, err = s.countOverview(ctx, roots); err != nil {
			return Overview{}, err
		}
		s.overview.put(version, roots, out)
	}
	out.Roots = slices.Clone(out.Roots)
	statuses := s.rootStatuses(roots)
	for i := range out.Roots {
		out.Roots[i].Exists = statuses[i].Available
		out.Roots[i].Space = s.measure(statuses[i])
	}
	return out, nil
}

// overviewCache keeps the last overview's counts with the catalogue
// version and the folders they were counted for.
type overviewCache struct {
	mu      sync.Mutex
	version string
	roots   []domain.Root
	counted Overview
	valid   bool
}

func (c *overviewCache) get(version string, roots []domain.Root) (Overview, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.valid || c.version != version || !slices.Equal(c.roots, roots) {
		return Overview{}, false
	}
	return c.counted, true
}

func (c *overviewCache) put(version string, roots []domain.Root, ov Overview) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.version, c.roots, c.counted, c.valid = version, roots, ov, true
}

// countOverview runs the overview's queries.
func (s *Service) countOverview(ctx context.Context, roots []domain.Root) (Overview, error) {
	st, err := s.Stats(ctx)
	if err != nil {
		return Overview{}, err
	}
	out := Overview{Stats: st}
	works, err := s.store.CountWorks(ctx)
	if err != nil {
		return Overview{}, fmt.Errorf("count the works: %w", err)
	}
	byCat := map[string]int{}
	byDecade := map[int]int{}
	for _, w := range works {
		slug := w.Category
		if _, ok := domain.CategoryBySlug(slug); !ok {
			slug = domain.CategoryUncategorized
		}
		byCat[slug] += w.Count
		if w.Decade > 0 {
			byDecade[w.Decade] += w.Count
		} else {
			out.Undated += w.Count
		}
	}
	for _, c := range domain.Categories() {
		out.ByCategory = append(out.ByCategory, CategoryCount{Category: c, Count: byCat[c.Slug]})
	}
	out.ByCategory = append(out.ByCategory, CategoryCount{Category: domain.Category{Slug: domain.CategoryUncategorized,
		NameRu: "Без категории", NameEn: "Uncategorized"}, Count: byCat[domain.CategoryUncategorized]})
	for d, n := range byDecade {
		out.ByDecade = append(out.ByDecade, DecadeCount{Decade: d, Count: n})
	}
	slices.SortFunc(out.ByDecade, func(a, b DecadeCount) int { return a.Decade - b.Decade })
	paths := make([]string, len(roots))
	for i, r := range roots {
		paths[i] = r.Path
	}
	usage, err := s.store.UsageUnder(ctx, paths)
	if err != nil {
		return Overview{}, fmt.Errorf("measure the library folders: %w", err)
	}
	out.Roots = make([]RootUsage, len(roots))
	for i, r := range roots {
		out.Roots[i] = RootUsage{RootInfo: RootInfo{Path: r.Path, Disk: r.Disk, Entries: usage[i].Entries}, Bytes: usage[i].Bytes}
	}
	return out, nil
}

// measure asks the optional Space port about a folder that is there; a
// folder that cannot be measured has no Space: the overview still shows it.
func (s *Service) measure(st RootStatus) *domain.DiskSpace {
	if !st.Available || s.opt.Space == nil {
		return nil
	}
	sp, err := s.opt.Space.Space(st.Path)
	if err != nil {
		s.log.Debug("library folder not measured", "path", st.Path, "error", err)
		return nil
	}
	return &sp
}
