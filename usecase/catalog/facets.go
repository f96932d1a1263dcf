package catalog

import (
	"context"
	"fmt"

	"mediateka/domain"
)

// Facets calls fn with the light view (domain.MediaFacet) of every entry
// q's type, category and disk select, in no set order; q's text, limit and
// offset are not used. Counting and suggesting over the whole catalogue
// read this instead of whole entries, at a fraction of the cost; Entries
// then loads the few they name.
func (s *Service) Facets(ctx context.Context, q FilesQuery, fn func(domain.MediaFacet) error) error {
	q.Text, q.Limit, q.Offset = "", nil, 0
	f, err := q.filter()
	if err != nil {
		return err
	}
	if err := s.repo.Facets(ctx, f, fn); err != nil {
		return fmt.Errorf("read the catalogue: %w", err)
	}
	return nil
}

// Entries returns the entries with these ids, in the order given; ids
// that do not exist are left out.
func (s *Service) Entries(ctx context.Context, ids []int64) ([]domain.Media, error) {
	out, err := s.repo.ByIDs(ctx, ids)
	if err != nil {
		return nil, fmt.Errorf("load entries: %w", err)
	}
	return out, nil
}
