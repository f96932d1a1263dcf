package torrent

import (
	"context"
	"fmt"
	"math"
	"slices"

	"mediateka/domain"
	"mediateka/usecase/library/release"
	"mediateka/usecase/textmatch"
)

// MinAssignScore is the score a catalogue entry needs for its category to
// be given to a torrent: the title matched as a whole (or as the start of
// the entry's title) and the years, when both are known, agree.
const MinAssignScore = 0.7

// searchCandidates is how many entries of the title search are scored.
const searchCandidates = 5

// Reasons a torrent stays without a category.
const (
	ReasonNoTitle    = "no_title"    // the parser found no title in the name
	ReasonNoMatch    = "no_match"    // no entry scored MinAssignScore
	ReasonNoCategory = "no_category" // the entry matched has no main_category
)

// Assignment is a torrent filed (or, in a dry run, to be filed) under the
// category of the catalogue entry it matched, with the match's score 0..1.
type Assignment struct {
	Hash, Name, Category string
	Score                float64
	EntryID              int64
	EntryTitle           string
}

// Unassigned is a torrent left without a category: Title is what the
// parser read from its name, Reason one of the Reason* constants.
type Unassigned struct {
	Hash, Name, Title, Reason string
}

// AssignResult is what AssignCategories did; Skipped counts the torrents
// that had a category already.
type AssignResult struct {
	Assigned  []Assignment
	Unmatched []Unassigned
	Skipped   int
}

// AssignCategories matches every torrent without a category to a
// catalogue entry (the release-name parser reads its name, the title
// search finds entries, each is scored on title, year and type) and files
// it under the entry's main_category, creating the client's category when
// missing. A dry run answers the same and changes nothing.
func (s *Service) AssignCategories(ctx context.Context, dryRun bool) (AssignResult, error) {
	if s.client == nil {
		return AssignResult{}, errNotConfigured
	}
	all, err := s.client.List(ctx)
	if err != nil {
		return AssignResult{}, fmt.Errorf("list torrents: %w", err)
	}
	var res AssignResult
	for _, t := range all {
		if t.Category != "" {
			res.Skipped++
			continue
		}
		a, miss, err := s.match(ctx, t)
		if err != nil {
			return AssignResult{}, err
		}
		if miss != nil {
			res.Unmatched = append(res.Unmatched, *miss)
		} else {
			res.Assigned = append(res.Assigned, a)
		}
	}
	if dryRun || len(res.Assigned) == 0 {
		return res, nil
	}
	return res, s.fileUnder(ctx, res.Assigned)
}

// match finds the entry a torrent's name stands for.
func (s *Service) match(ctx context.Context, t domain.Torrent) (Assignment, *Unassigned, error) {
	r := release.ParseAt(t.Name, nil, s.opt.Now())
	title := r.Title
	if r.SeriesTitle != "" {
		title = r.SeriesTitle
	}
	miss := &Unassigned{Hash: t.Hash, Name: t.Name, Title: title, Reason: ReasonNoMatch}
	if textmatch.Normalize(title) == "" {
		miss.Reason = ReasonNoTitle
		return Assignment{}, miss, nil
	}
	if s.opt.Titles == nil {
		return Assignment{}, miss, nil
	}
	found, err := s.opt.Titles.SearchTitles(ctx, title, searchCandidates)
	if err != nil {
		return Assignment{}, nil, fmt.Errorf("search the catalogue for %q: %w", title, err)
	}
	best, score := bestEntry(r, found)
	switch {
	case score < MinAssignScore:
		return Assignment{}, miss, nil
	case best.MainCategory == "":
		miss.Reason = ReasonNoCategory
		return Assignment{}, miss, nil
	}
	return Assignment{Hash: t.Hash, Name: t.Name, Category: best.MainCategory, Score: score,
		EntryID: best.ID, EntryTitle: best.Title}, nil, nil
}

// bestEntry scores the movies and series found; the search's order
// breaks ties.
func bestEntry(r release.Release, found []domain.Media) (domain.Media, float64) {
	var best domain.Media
	top := 0.0
	for _, m := range found {
		if m.MediaType != domain.MediaMovie && m.MediaType != domain.MediaSeries {
			continue
		}
		if sc := matchScore(r, m); sc > top {
			best, top = m, sc
		}
	}
	return best, math.Round(top*100) / 100
}

// matchScore rates how well an entry fits a parsed name, 0..1: the best
// grade of any parsed title against any of the entry's titles (a title
// the search found only by its words, another spelling or a typo counts
// 0.5), lowered when the years differ or one is unknown, and when a
// series name meets a movie or the reverse.
func matchScore(r release.Release, m domain.Media) float64 {
	grades := map[textmatch.Match]float64{textmatch.Exact: 1, textmatch.Prefix: 0.85,
		textmatch.Word: 0.75, textmatch.Substring: 0.6}
	score := 0.5
	for _, q := range []string{r.Title, r.TitleRu, r.TitleOrig, r.SeriesTitle} {
		q = textmatch.Normalize(q)
		for _, field := range []string{m.Title, m.TitleRu, m.TitleOrig} {
			field = textmatch.Normalize(field)
			score = max(score, grades[textmatch.Grade(field, q)], grades[textmatch.Grade(q, field)]*0.9)
		}
	}
	switch {
	case r.Year == 0 || m.Year == nil:
		score *= 0.9
	case r.Year == *m.Year:
	case abs(r.Year-*m.Year) == 1:
		score *= 0.9 // festival year against release year
	default:
		score *= 0.4
	}
	if (r.MediaType == domain.MediaEpisode) != (m.MediaType == domain.MediaSeries) {
		score *= 0.8
	}
	return score
}

func abs(n int) int { return max(n, -n) }

// fileUnder creates each category once and files its torrents under it.
func (s *Service) fileUnder(ctx context.Context, as []Assignment) error {
	byCategory := map[string][]string{}
	for _, a := range as {
		byCategory[a.Category] = append(byCategory[a.Category], a.Hash)
	}
	cats := make([]string, 0, len(byCategory))
	for c := range byCategory {
		cats = append(cats, c)
	}
	slices.Sort(cats)
	for _, c := range cats {
		if err := s.client.CreateCategory(ctx, c, ""); err != nil {
			return fmt.Errorf("create category %s: %w", c, err)
		}
		if err := s.client.SetCategory(ctx, c, byCategory[c]...); err != nil {
			return fmt.Errorf("set category %s: %w", c, err)
		}
		s.log.Info("torrents filed under a category", "category", c, "torrents", len(byCategory[c]))
	}
	return nil
}
