package library

import (
	"context"
	"fmt"

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
