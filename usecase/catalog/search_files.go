package catalog

import (
	"context"
	"fmt"

	"mediateka/domain"
)

// searchFiles answers the file list with a text filter: every entry title
// search finds for q.Text (all its kinds, so the list and by-title agree),
// narrowed by the other filters of f, in id order. The title index knows
// each entry's type, category and disk, so the selection and its count
// cost no query; the page's entries are read by id, walkPage at a time.
func (s *Service) searchFiles(ctx context.Context, q FilesQuery, f domain.MediaFilter) (Listing, error) {
	ix, err := s.titleIndex(ctx)
	if err != nil {
		return Listing{}, err
	}
	var ids []int64
	ix.find(q.Text, func(sc *scratch, _ query) { ids = ix.matching(sc, ix.listFilter(f)) })
	total := int64(len(ids))
	ids = ids[min(f.Offset, len(ids)):]
	if q.Limit != nil {
		if *q.Limit == 0 {
			return Listing{Total: total}, nil
		}
		ids = ids[:min(*q.Limit, len(ids))]
	}
	return Listing{Total: total, each: func(ctx context.Context, fn func(domain.Media) error) error {
		return s.eachByID(ctx, ids, fn)
	}}, nil
}

// eachByID calls fn for the entries of ids in that order, reading
// walkPage of them at a time (see walk).
func (s *Service) eachByID(ctx context.Context, ids []int64, fn func(domain.Media) error) error {
	for len(ids) > 0 {
		page := ids[:min(walkPage, len(ids))]
		ids = ids[len(page):]
		batch, err := s.repo.ByIDs(ctx, page)
		if err != nil {
			return fmt.Errorf("read the file list: %w", err)
		}
		for _, m := range batch {
			if err := fn(m); err != nil {
				return err
			}
		}
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	return nil
}

// listFilter is the file list's type, category, disk and status filter
// (the store's filterSQL) over index entries; nil when f has none.
func (ix *titleIndex) listFilter(f domain.MediaFilter) func(*indexEntry) bool {
	if f.Type == "" && f.Category == "" && f.Disk == "" && f.Status == "" {
		return nil
	}
	typ, typOK := ix.name(f.Type)
	cat, catOK := ix.name(f.Category)
	disk, diskOK := ix.name(f.Disk)
	state, stateOK := ix.name(f.Status)
	known := make([]bool, len(ix.names)) // names that are categories of the fixed list
	for _, c := range domain.Categories() {
		if id, ok := ix.name(c.Slug); ok {
			known[id] = true
		}
	}
	return func(e *indexEntry) bool {
		switch {
		case f.Type != "" && (!typOK || e.typ != typ):
			return false
		case f.Category == domain.CategoryUncategorized:
			if known[e.cat] {
				return false
			}
		case f.Category != "" && (!catOK || e.cat != cat):
			return false
		}
		if f.Disk != "" && (!diskOK || e.disk != disk) {
			return false
		}
		return f.Status == "" || stateOK && e.state == state
	}
}
