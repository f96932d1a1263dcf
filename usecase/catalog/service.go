// Package catalog answers what people ask of the library: the file list,
// search by title, the shelves by category, one entry with its seasons and
// episodes, and where to stream a file and its subtitles from. Title search
// runs on an in-memory index that is rebuilt after the library changes.
package catalog

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"mediateka/domain"
	"mediateka/usecase/textmatch"
)

// Limits of catalogue requests.
const (
	maxTitleChars   = 500
	maxAlternatives = 10
	maxPageLimit    = 1000
)

// Options configure the service.
type Options struct {
	Logger *slog.Logger
	// Now is the clock of search_history rows; nil means time.Now.
	Now func() time.Time
	// SearchLogEvery is how often queued search history is written
	// (default 200ms).
	SearchLogEvery time.Duration
	// SearchHistoryRows and SearchHistoryAge bound search_history
	// (defaults 100 000 rows, 90 days); the writer prunes after each batch.
	SearchHistoryRows int
	SearchHistoryAge  time.Duration
	// Roots lists the library folders now; a sidecar subtitle is served
	// only when its real path lies inside one. nil keeps sidecars to the
	// video's own folder.
	Roots func() []domain.Root
	// IndexRefreshGap is the least time between two builds of the title
	// index when it catches up with changes in the background (default
	// 2s).
	IndexRefreshGap time.Duration
}

// Service is the catalogue use case.
type Service struct {
	repo  Repository
	files Files
	log   *slog.Logger
	now   func() time.Time
	hist  *searchLogger
	roots func() []domain.Root

	index atomic.Pointer[titleIndex]
	// changes counts the changes reported (MediaChanged, or another
	// process's write seen by fresh); an index records the count it was
	// built at.
	changes atomic.Uint64
	buildMu sync.Mutex
	refresh atomic.Pointer[refresher] // nil unless started
	gap     time.Duration             // Options.IndexRefreshGap
}

// New builds the service; Start runs its search-history writer and Close
// stops it. New starts nothing, so building the server has no side effect
// until its lifecycle runs.
func New(repo Repository, history SearchLog, files Files, opt Options) *Service {
	if opt.Logger == nil {
		opt.Logger = slog.New(slog.DiscardHandler)
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.SearchLogEvery <= 0 {
		opt.SearchLogEvery = 200 * time.Millisecond
	}
	if opt.IndexRefreshGap <= 0 {
		opt.IndexRefreshGap = defaultRefreshGap
	}
	s := &Service{repo: repo, files: files, log: opt.Logger, now: opt.Now, roots: opt.Roots,
		hist: newSearchLogger(history, opt), gap: opt.IndexRefreshGap}
	s.changes.Store(1) // nothing is indexed yet
	return s
}

// Start runs the search-history writer, which logs searches in small
// batches in the background, and the title index's background rebuilds,
// until Close.
func (s *Service) Start(context.Context) error {
	s.hist.start()
	s.startRefresher()
	return nil
}

// Close stops the index rebuilds, writes the queued search history and
// stops the writer.
func (s *Service) Close() {
	s.stopRefresher()
	s.hist.close()
}

// staleCheckEvery is how often a search asks the store whether another
// process (the command-line scan) changed the catalogue.
const staleCheckEvery = time.Second

// titleIndex returns the index to search. Only a missing index is built
// on the search's path; a stale one is served while the background
// rebuild catches up (see refresher), or, when the service was not
// started, rebuilt here. Changes made by another process (the
// command-line scan) are noticed within staleCheckEvery.
func (s *Service) titleIndex(ctx context.Context) (*titleIndex, error) {
	ix := s.index.Load()
	if ix != nil && ix.changes >= s.changes.Load() && s.fresh(ctx, ix) {
		return ix, nil
	}
	if ix != nil && s.kick() {
		return ix, nil
	}
	return s.rebuild(ctx, s.changes.Load())
}

// fresh reports whether ix still matches the store, asking the store at
// most once per staleCheckEvery; a difference counts as a change.
func (s *Service) fresh(ctx context.Context, ix *titleIndex) bool {
	now := s.now().UnixNano()
	last := ix.checked.Load()
	if now-last < int64(staleCheckEvery) || !ix.checked.CompareAndSwap(last, now) {
		return true
	}
	v, err := s.repo.Version(ctx)
	if err != nil {
		s.log.Warn("cannot tell whether the title index is stale", "err", err.Error())
		return true
	}
	if v != ix.version {
		s.changes.Add(1)
		return false
	}
	return true
}

// TitleMatch is the answer of by-title: the best entry and the next best.
type TitleMatch struct {
	Match        domain.Media
	Alternatives []domain.Media
}

// ByTitle finds entries by title as people type it: the whole text inside
// a title, case-insensitively and ignoring punctuation, ё/е and accents,
// or its words in any order over the title, Russian title, original
// title and year, in the other script, on the other keyboard layout or
// with small typos; best first (see grade and titleIndex.rank). typ, when
// set, keeps one media type. Every search is logged in search_history.
func (s *Service) ByTitle(ctx context.Context, title, typ string) (TitleMatch, error) {
	title = strings.TrimSpace(title)
	switch {
	case title == "":
		return TitleMatch{}, domain.ErrInvalid("the title is empty", map[string]string{"title": "must not be empty"})
	case utf8.RuneCountInString(title) > maxTitleChars:
		return TitleMatch{}, domain.ErrInvalid("the title is too long", map[string]string{"title": "must be at most 500 characters"})
	case typ != "" && !domain.ValidMediaType(typ):
		return TitleMatch{}, domain.ErrInvalidType
	}
	ix, err := s.titleIndex(ctx)
	if err != nil {
		return TitleMatch{}, err
	}
	total, ids := ix.search(title, typ, maxAlternatives+1)
	s.hist.add(domain.SearchRecord{Query: strings.ToValidUTF8(title, "\uFFFD"), ResultsCount: total, At: s.now().UTC()})
	entries, err := ix.cached.load(ctx, s.repo, ids)
	if err != nil {
		return TitleMatch{}, fmt.Errorf("load search results: %w", err)
	}
	if len(entries) == 0 {
		return TitleMatch{}, domain.ErrMediaNotFound
	}
	return TitleMatch{Match: entries[0], Alternatives: entries[1:]}, nil
}

// FilesQuery filters the file list. A nil Limit means the whole
// catalogue; Limit 0 an empty page that still counts (the total alone).
type FilesQuery struct {
	Type     string
	Category string
	Disk     string
	// Status is "ok" or "missing" (whether the file is on disk); "" any.
	Status string
	Text   string
	Limit  *int
	Offset int
}

// filter validates q and turns it into a store filter.
func (q FilesQuery) filter() (domain.MediaFilter, error) {
	problems := map[string]string{}
	if q.Type != "" && !domain.ValidMediaType(q.Type) {
		return domain.MediaFilter{}, domain.ErrInvalidType
	}
	category, err := resolveCategory(q.Category)
	if err != nil {
		return domain.MediaFilter{}, err
	}
	f := domain.MediaFilter{Type: q.Type, Category: category, Disk: q.Disk, Status: q.Status, Offset: q.Offset}
	if q.Status != "" && q.Status != domain.StatusOK && q.Status != domain.StatusMissing {
		problems["status"] = "must be ok or missing"
	}
	if q.Limit != nil {
		if *q.Limit < 0 || *q.Limit > maxPageLimit {
			problems["limit"] = "must be between 0 and 1000 (leave it out for the whole catalogue)"
		}
		f.Limit = *q.Limit
	}
	if q.Offset < 0 {
		problems["offset"] = "must be 0 or more"
	}
	if len(problems) > 0 {
		return domain.MediaFilter{}, domain.ErrInvalid("invalid list parameters", problems)
	}
	return f, nil
}

// Files answers the file list: the number of entries q selects, ignoring
// paging, and the page itself, streamed when walked (the whole catalogue
// passes at flat memory). An invalid q fails here, before anything is
// written.
func (s *Service) Files(ctx context.Context, q FilesQuery) (Listing, error) {
	f, err := q.filter()
	if err != nil {
		return Listing{}, err
	}
	if textmatch.Normalize(q.Text) != "" {
		return s.searchFiles(ctx, q, f)
	}
	total, err := s.repo.Count(ctx, f)
	if err != nil {
		return Listing{}, fmt.Errorf("count the file list: %w", err)
	}
	if q.Limit != nil && *q.Limit == 0 {
		return Listing{Total: total}, nil
	}
	return Listing{Total: total, each: func(ctx context.Context, fn func(domain.Media) error) error {
		return s.walk(ctx, f, fn)
	}}, nil
}

// resolveCategory accepts a category slug, one of its names, or
// "uncategorized"; "" means any.
func resolveCategory(c string) (string, error) {
	if c == "" || c == domain.CategoryUncategorized {
		return c, nil
	}
	if cat, ok := domain.CategoryBySlug(c); ok {
		return cat.Slug, nil
	}
	if slug := domain.CategoryForName(c); slug != "" {
		return slug, nil
	}
	return "", domain.ErrInvalidCategory
}

// SearchTitles returns up to limit entries whose titles match query, best
// first, with the same ranking as ByTitle. It serves the chat (the offline
// assistant and plugins): no match is an empty list, and these look-ups are
// not written to search_history, which records what people searched for.
func (s *Service) SearchTitles(ctx context.Context, query string, limit int) ([]domain.Media, error) {
	if textmatch.Normalize(query) == "" || limit <= 0 {
		return nil, nil
	}
	ix, err := s.titleIndex(ctx)
	if err != nil {
		return nil, err
	}
	_, ids := ix.search(query, "", min(limit, maxAlternatives+1))
	return ix.cached.load(ctx, s.repo, ids)
}
