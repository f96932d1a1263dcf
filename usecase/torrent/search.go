package torrent

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"mediateka/domain"
	"mediateka/usecase/library/release"
	"mediateka/usecase/textmatch"
)

// Indexer is one Torznab indexer (repository/torznab). Find answers within
// the indexer's own timeout; an indexer's error element is a
// *domain.IndexerError.
type Indexer interface {
	Name() string
	Find(ctx context.Context, q domain.TorrentQuery) ([]domain.TorrentRelease, error)
}

// Limits of a torrent search.
const (
	maxQueryChars = 200
	// MaxResults is the most results a search returns, best seeded first.
	MaxResults = 100
)

// SearchOptions are the searcher's collaborators.
type SearchOptions struct {
	Logger *slog.Logger
	// Titles marks results already in the catalogue; nil marks none.
	Titles TitleSearch
	// Problem, when set, is why the indexers' configuration could not be
	// read: the search then answers ErrTorrentSearchNotConfigured with it.
	Problem error
	Now     func() time.Time
}

// Searcher asks every configured Torznab indexer at once and merges what
// they find (API.md §5, GET /api/torrents/search).
type Searcher struct {
	indexers []Indexer
	opt      SearchOptions
}

// NewSearcher builds the searcher over indexers (none: every search
// answers ErrTorrentSearchNotConfigured).
func NewSearcher(indexers []Indexer, opt SearchOptions) *Searcher {
	if opt.Logger == nil {
		opt.Logger = slog.New(slog.DiscardHandler)
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	return &Searcher{indexers: indexers, opt: opt}
}

// Parsed is what the release-name parser reads from a result's title.
type Parsed struct {
	Title   string
	Year    int
	Season  int
	Episode int
	Quality string
	Kind    string // domain.MediaMovie or domain.MediaEpisode
}

// LibraryEntry is the catalogue entry a result stands for.
type LibraryEntry struct {
	ID    int64
	Title string
	Score float64
}

// Found is one merged search result.
type Found struct {
	domain.TorrentRelease
	Parsed Parsed
	// InLibrary is set when the catalogue has what the result is.
	InLibrary *LibraryEntry
}

// IndexerFailure is an indexer that did not answer, and why (for people).
type IndexerFailure struct {
	Indexer string
	Reason  string
}

// SearchResult is a search's results, most seeders first, and the
// indexers that failed while others answered.
type SearchResult struct {
	Items  []Found
	Failed []IndexerFailure
}

// Search validates the request, asks every indexer at once, and merges
// their results: one per info-hash (the best seeded), most seeders first,
// at most MaxResults, each with its parsed name and, when the catalogue
// has it, its entry. An indexer that fails is reported in Failed while
// the others answer; when all fail it is ErrIndexersUnavailable.
func (s *Searcher) Search(ctx context.Context, query, category string) (SearchResult, error) {
	q, err := buildQuery(query, category)
	if err != nil {
		return SearchResult{}, err
	}
	if err := s.Configured(); err != nil {
		return SearchResult{}, err
	}
	found, failed := s.ask(ctx, q)
	if len(failed) == len(s.indexers) {
		return SearchResult{}, allFailed(failed)
	}
	items := merge(found)
	if err := s.mark(ctx, items); err != nil {
		return SearchResult{}, err
	}
	return SearchResult{Items: items, Failed: failed}, nil
}

// Configured is nil when at least one indexer is configured, else
// ErrTorrentSearchNotConfigured (with the config's problem, if any).
func (s *Searcher) Configured() error {
	switch {
	case s.opt.Problem != nil:
		e := *domain.ErrTorrentSearchNotConfigured
		e.Message = "the Torznab indexers' configuration is not valid (" + s.opt.Problem.Error() + "); " + e.Message
		return &e
	case len(s.indexers) == 0:
		return domain.ErrTorrentSearchNotConfigured
	}
	return nil
}

// buildQuery checks the query and reads the category: "movies" (t=movie,
// Torznab 2000), "series" or "tv" (t=tvsearch, 5000), Torznab category
// ids separated by commas, or nothing (everything).
func buildQuery(query, category string) (domain.TorrentQuery, error) {
	q := domain.TorrentQuery{Text: strings.Join(strings.Fields(query), " ")}
	fields := map[string]string{}
	switch n := utf8.RuneCountInString(q.Text); {
	case n == 0:
		fields["query"] = "must not be empty"
	case n > maxQueryChars:
		fields["query"] = fmt.Sprintf("must be at most %d characters", maxQueryChars)
	}
	switch c := strings.ToLower(strings.TrimSpace(category)); c {
	case "":
	case "movie", "movies", "film", "films":
		q.Kind, q.Cats = domain.MediaMovie, []int{2000}
	case "series", "tv", "show", "shows":
		q.Kind, q.Cats = domain.MediaSeries, []int{5000}
	default:
		for _, part := range strings.Split(c, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(part))
			if err != nil || n <= 0 || n > 999999 || len(q.Cats) == 20 {
				fields["category"] = `must be "movies", "series" or Torznab category ids such as 2000,5000`
				break
			}
			q.Cats = append(q.Cats, n)
		}
	}
	if len(fields) > 0 {
		return domain.TorrentQuery{}, domain.ErrInvalid("the torrent search is not valid", fields)
	}
	return q, nil
}

// ask runs q on every indexer at once; each is bounded by its timeout.
func (s *Searcher) ask(ctx context.Context, q domain.TorrentQuery) ([]domain.TorrentRelease, []IndexerFailure) {
	results := make([][]domain.TorrentRelease, len(s.indexers))
	errs := make([]error, len(s.indexers))
	var wg sync.WaitGroup
	for i, ix := range s.indexers {
		wg.Go(func() { results[i], errs[i] = ix.Find(ctx, q) })
	}
	wg.Wait()
	var all []domain.TorrentRelease
	var failed []IndexerFailure
	for i, ix := range s.indexers {
		if errs[i] != nil {
			s.opt.Logger.Warn("torrent indexer failed", "indexer", ix.Name(), "err", errs[i].Error())
			failed = append(failed, IndexerFailure{Indexer: ix.Name(), Reason: errs[i].Error()})
			continue
		}
		all = append(all, results[i]...)
	}
	return all, failed
}

func allFailed(failed []IndexerFailure) error {
	reasons := make([]string, len(failed))
	for i, f := range failed {
		reasons[i] = f.Reason
	}
	e := *domain.ErrIndexersUnavailable
	e.Message += ": " + strings.Join(reasons, "; ")
	return &e
}

// merge keeps one result per torrent (its info-hash, from the attribute
// or the magnet), the best seeded, and sorts them: most seeders, then the
// larger, then by title.
func merge(all []domain.TorrentRelease) []Found {
	slices.SortStableFunc(all, func(a, b domain.TorrentRelease) int {
		if c := cmp.Compare(b.Seeders, a.Seeders); c != 0 {
			return c
		}
		if c := cmp.Compare(b.Size, a.Size); c != 0 {
			return c
		}
		return cmp.Compare(a.Title, b.Title)
	})
	seen := map[string]bool{}
	out := make([]Found, 0, min(len(all), MaxResults))
	for _, r := range all {
		if h := releaseHash(r); h != "" {
			if seen[h] {
				continue
			}
			seen[h] = true
		}
		out = append(out, Found{TorrentRelease: r})
		if len(out) == MaxResults {
			break
		}
	}
	return out
}

// releaseHash is a result's info-hash, "" when unknown.
func releaseHash(r domain.TorrentRelease) string {
	if r.InfoHash != "" {
		return strings.ToLower(r.InfoHash)
	}
	if r.Magnet != "" {
		if h, err := MagnetHash(r.Magnet); err == nil {
			return h
		}
	}
	return ""
}

// mark parses every result's title and looks each distinct title up in
// the catalogue once; an entry scoring MinAssignScore (as for categories)
// marks the result.
func (s *Searcher) mark(ctx context.Context, items []Found) error {
	type key struct {
		title string
		year  int
		kind  string
	}
	seen := map[key]*LibraryEntry{}
	for i := range items {
		r := release.ParseAt(items[i].Title, nil, s.opt.Now())
		items[i].Parsed = parsedOf(r)
		title := items[i].Parsed.Title
		if s.opt.Titles == nil || textmatch.Normalize(title) == "" {
			continue
		}
		k := key{textmatch.Normalize(title), r.Year, r.MediaType}
		entry, done := seen[k]
		if !done {
			found, err := s.opt.Titles.SearchTitles(ctx, title, searchCandidates)
			if err != nil {
				return fmt.Errorf("search the catalogue for %q: %w", title, err)
			}
			if best, score := bestEntry(r, found); score >= MinAssignScore {
				entry = &LibraryEntry{ID: best.ID, Title: best.Title, Score: score}
			}
			seen[k] = entry
		}
		items[i].InLibrary = entry
	}
	return nil
}

func parsedOf(r release.Release) Parsed {
	p := Parsed{Title: r.Title, Year: r.Year, Season: r.Season, Episode: r.Episode, Quality: r.Quality, Kind: r.MediaType}
	if r.SeriesTitle != "" {
		p.Title = r.SeriesTitle
	}
	return p
}

// Problem is why the indexers' configuration could not be read, nil when
// it could (the torrent_search plugin then declines to load).
func (s *Searcher) Problem() error { return s.opt.Problem }
