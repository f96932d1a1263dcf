package watching

import (
	"context"
	"fmt"

	"mediateka/domain"
)

// Paging of Continue (API.md §0's list convention).
const (
	DefaultLimit = 100
	MaxLimit     = 1000
)

// Item is one entry of continue watching with the account's state of it.
type Item struct {
	Media domain.Media
	State domain.WatchState
}

// Page is a page of continue watching and how many entries it has in all.
type Page struct {
	Items []Item
	Total int64
}

// Continue lists what userID started and may go on with: begun, short of
// domain.WatchedShare and not marked watched, most recently updated
// first; limit nil means DefaultLimit, else 0..MaxLimit (0: the total
// alone), offset 0 or more.
func (s *Service) Continue(ctx context.Context, userID int64, limit *int, offset int) (Page, error) {
	n := DefaultLimit
	if limit != nil {
		n = *limit
	}
	problems := map[string]string{}
	if n < 0 || n > MaxLimit {
		problems["limit"] = "must be between 0 and 1000"
	}
	if offset < 0 {
		problems["offset"] = "must be 0 or more"
	}
	if len(problems) > 0 {
		return Page{}, domain.ErrInvalid("invalid list parameters", problems)
	}
	states, total, err := s.store.Continue(ctx, userID, n, offset)
	if err != nil {
		return Page{}, fmt.Errorf("list continue watching: %w", err)
	}
	ids := make([]int64, len(states))
	byID := make(map[int64]domain.WatchState, len(states))
	for i, w := range states {
		ids[i], byID[w.MediaID] = w.MediaID, w
	}
	// Entries leaves out what no longer exists (a row the database's
	// cascade missed), keeping the order.
	entries, err := s.cat.Entries(ctx, ids)
	if err != nil {
		return Page{}, fmt.Errorf("load continue watching: %w", err)
	}
	page := Page{Items: make([]Item, 0, len(entries)), Total: total}
	for _, m := range entries {
		page.Items = append(page.Items, Item{Media: m, State: byID[m.ID]})
	}
	return page, nil
}
