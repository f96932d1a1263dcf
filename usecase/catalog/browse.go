package catalog

import (
	"context"
	"fmt"

	"mediateka/domain"
)

// CategoryCount is one shelf and how many works it holds.
type CategoryCount struct {
	Slug   string
	NameRu string
	NameEn string
	Count  int
}

// Shelves is the by-category view: movies and series (seasons and
// episodes hang below them) grouped by category slug.
type Shelves struct {
	Categories []CategoryCount
	Movies     map[string][]domain.Media
	Series     map[string][]domain.Media
}

// ByCategory groups the movies and series by category; category, when set
// (a slug, a name or "uncategorized"), keeps one shelf. Every category of
// the fixed list is in Categories, with its count, then "uncategorized".
func (s *Service) ByCategory(ctx context.Context, category string) (Shelves, error) {
	slug, err := resolveCategory(category)
	if err != nil {
		return Shelves{}, err
	}
	out := Shelves{Movies: map[string][]domain.Media{}, Series: map[string][]domain.Media{}}
	counts := map[string]int{}
	err = s.repo.Each(ctx, domain.MediaFilter{TopLevel: true, Category: slug}, func(m domain.Media) error {
		key := m.MainCategory
		if _, ok := domain.CategoryBySlug(key); !ok {
			key = domain.CategoryUncategorized
		}
		counts[key]++
		if m.MediaType == domain.MediaSeries {
			out.Series[key] = append(out.Series[key], m)
		} else {
			out.Movies[key] = append(out.Movies[key], m)
		}
		return nil
	})
	if err != nil {
		return Shelves{}, fmt.Errorf("group by category: %w", err)
	}
	for _, c := range domain.Categories() {
		if slug == "" || slug == c.Slug {
			out.Categories = append(out.Categories, CategoryCount{Slug: c.Slug, NameRu: c.NameRu, NameEn: c.NameEn, Count: counts[c.Slug]})
		}
	}
	if slug == "" || slug == domain.CategoryUncategorized {
		out.Categories = append(out.Categories, CategoryCount{Slug: domain.CategoryUncategorized,
			NameRu: "Без категории", NameEn: "Uncategorized", Count: counts[domain.CategoryUncategorized]})
	}
	return out, nil
}

// Entry is a record with its children: a series' seasons, each with its
// episodes, or a season's episodes.
type Entry struct {
	domain.Media
	Children []Entry
}

// Get returns one entry with its children; media_not_found when absent.
func (s *Service) Get(ctx context.Context, id int64) (Entry, error) {
	m, err := s.repo.ByID(ctx, id)
	if err != nil {
		return Entry{}, err
	}
	return s.withChildren(ctx, m, 2)
}

// withChildren loads depth levels of children (two: seasons, episodes).
func (s *Service) withChildren(ctx context.Context, m domain.Media, depth int) (Entry, error) {
	e := Entry{Media: m, Children: []Entry{}}
	if depth == 0 || m.MediaType == domain.MediaMovie || m.MediaType == domain.MediaEpisode {
		return e, nil
	}
	kids, err := s.repo.Children(ctx, []int64{m.ID})
	if err != nil {
		return Entry{}, fmt.Errorf("load children of %d: %w", m.ID, err)
	}
	for _, k := range kids {
		c, err := s.withChildren(ctx, k, depth-1)
		if err != nil {
			return Entry{}, err
		}
		e.Children = append(e.Children, c)
	}
	return e, nil
}
