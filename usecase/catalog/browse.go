package catalog

import (
	"context"
	"fmt"
	"slices"

	"mediateka/domain"
)

// CategoryCount is one shelf and how many works it holds.
type CategoryCount struct {
	Slug   string
	NameRu string
	NameEn string
	Count  int
}

// Shelves is the by-category view of movies and series (seasons and
// episodes hang below them): every category with its count, and the
// entries of each non-empty shelf, read as they are walked.
type Shelves struct {
	Categories []CategoryCount
	// shelves are the non-empty shelves, by slug in byte order.
	shelves []string
	walk    func(ctx context.Context, f domain.MediaFilter, fn func(domain.Media) error) error
}

// Each calls fn for every entry of mediaType (movie or series), shelf by
// shelf in slug byte order, in id order within a shelf, at flat memory;
// an error from fn stops it. An entry whose category is not in the fixed
// list is on the "uncategorized" shelf.
func (sh Shelves) Each(ctx context.Context, mediaType string, fn func(shelf string, m domain.Media) error) error {
	for _, slug := range sh.shelves {
		err := sh.walk(ctx, domain.MediaFilter{Type: mediaType, Category: slug}, func(m domain.Media) error { return fn(slug, m) })
		if err != nil {
			return fmt.Errorf("read shelf %s: %w", slug, err)
		}
	}
	return nil
}

// ByCategory counts the movies and series per category; category, when
// set (a slug, a name or "uncategorized"), keeps one shelf. Every category
// of the fixed list is in Categories, with its count, then
// "uncategorized". The entries are read when the shelves are walked.
func (s *Service) ByCategory(ctx context.Context, category string) (Shelves, error) {
	slug, err := resolveCategory(category)
	if err != nil {
		return Shelves{}, err
	}
	out := Shelves{walk: s.walk}
	all := append(domain.Categories(), domain.Category{Slug: domain.CategoryUncategorized, NameRu: "Без категории", NameEn: "Uncategorized"})
	for _, c := range all {
		if slug != "" && slug != c.Slug {
			continue
		}
		n, err := s.repo.Count(ctx, domain.MediaFilter{TopLevel: true, Category: c.Slug})
		if err != nil {
			return Shelves{}, fmt.Errorf("count category %s: %w", c.Slug, err)
		}
		out.Categories = append(out.Categories, CategoryCount{Slug: c.Slug, NameRu: c.NameRu, NameEn: c.NameEn, Count: int(n)})
		if n > 0 {
			out.shelves = append(out.shelves, c.Slug)
		}
	}
	slices.Sort(out.shelves)
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
