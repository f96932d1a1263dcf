package offline

import (
	"context"
	"fmt"
	"strings"

	"mediateka/domain"
)

// search answers a question about a title: the catalogue's entries that
// match it, with year, type and category.
func (m *Model) search(ctx context.Context, q question) ([]string, error) {
	t := textsIn(q.lang)
	if q.phrase == "" {
		return []string{t.askTitle}, nil
	}
	found, more, err := m.findTitles(ctx, q.phrase, m.opt.Limit)
	switch {
	case err != nil:
		return nil, err
	case len(found) == 0:
		return []string{fmt.Sprintf(t.notFound, q.phrase)}, nil
	}
	lines := []string{fmt.Sprintf(t.found, q.phrase)}
	for _, media := range found {
		lines = append(lines, t.describe(media, q.lang))
	}
	if more {
		lines = append(lines, t.more)
	}
	return lines, nil
}

// findTitles tries the search terms of phrase best first and keeps the
// first that finds anything, at most limit entries; more reports that the
// catalogue had more than that.
func (m *Model) findTitles(ctx context.Context, phrase string, limit int) (found []domain.Media, more bool, err error) {
	for _, term := range searchTerms(phrase) {
		res, err := m.catalog.SearchTitles(ctx, term, limit+1)
		if err != nil {
			return nil, false, fmt.Errorf("search the catalogue for %q: %w", term, err)
		}
		if len(res) > 0 {
			return res[:min(len(res), limit)], len(res) > limit, nil
		}
	}
	return nil, false, nil
}

// widen reads "Star Wars" as a title rather than "star" on the war shelf:
// when the title words with the category word beside them are found as
// one phrase, they are the title and there is no category.
func (m *Model) widen(ctx context.Context, s *scope) error {
	if len(s.wide) == 0 {
		return nil
	}
	phrase := strings.Join(s.wide, " ")
	found, err := m.catalog.SearchTitles(ctx, phrase, 1)
	if err != nil {
		return fmt.Errorf("search the catalogue for %q: %w", phrase, err)
	}
	if len(found) > 0 {
		s.title, s.topic, s.wide = s.wide, nil, nil
	}
	return nil
}
