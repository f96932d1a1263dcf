package catalog

import (
	"context"

	"mediateka/domain"
)

// walkPage is how many entries one read of a walk holds. A walk reads a
// page, releases the database connection, then hands the page on: a
// client that reads slowly (or not at all) pins one page, never a
// connection of the small read pool nor the whole answer.
const walkPage = 256

// walk calls fn for every record f selects, in id order, reading the store
// a page at a time (keyset paging on id, so no page costs more than the
// first). f.Limit 0 means every record. An error from fn stops the walk.
func (s *Service) walk(ctx context.Context, f domain.MediaFilter, fn func(domain.Media) error) error {
	left := f.Limit
	for {
		page := f
		page.Limit = walkPage
		if left > 0 {
			page.Limit = min(walkPage, left)
		}
		batch := make([]domain.Media, 0, page.Limit)
		if err := s.repo.Each(ctx, page, func(m domain.Media) error { batch = append(batch, m); return nil }); err != nil {
			return err
		}
		for _, m := range batch {
			if err := fn(m); err != nil {
				return err
			}
		}
		if len(batch) < page.Limit {
			return nil
		}
		if left > 0 {
			if left -= len(batch); left == 0 {
				return nil
			}
		}
		f.AfterID, f.Offset = batch[len(batch)-1].ID, 0
		if err := ctx.Err(); err != nil {
			return err
		}
	}
}

// Listing is the answer of Files: how many entries the filters select
// (whatever the page) and the entries of the page, read as they are
// walked.
type Listing struct {
	Total int64
	each  func(ctx context.Context, fn func(domain.Media) error) error
}

// Each calls fn for every entry of the page, in id order, at flat memory;
// an error from fn (the client went away) stops it. ctx may outlive the
// request that asked: the answer is written after the handler returns.
func (l Listing) Each(ctx context.Context, fn func(domain.Media) error) error {
	if l.each == nil {
		return nil
	}
	return l.each(ctx, fn)
}
