package offline

import (
	"context"

	"mediateka/domain"
	"mediateka/usecase/catalog"
)

// Catalog is what the assistant reads of the media catalogue (the
// catalogue use case provides it). A nil Catalog means the catalogue is not
// available, and the assistant says so.
type Catalog interface {
	// SearchTitles finds entries whose titles (title, title_ru, title_orig)
	// match query, best first, at most limit of them.
	SearchTitles(ctx context.Context, query string, limit int) ([]domain.Media, error)
	// Files counts the entries a query selects (and hands over the first
	// few): counts by kind and disk are the store's.
	Files(ctx context.Context, q catalog.FilesQuery) (catalog.Listing, error)
	// Facets walks the light view of the entries a query selects: counts
	// by topic or years and suggestions read the catalogue through it.
	Facets(ctx context.Context, q catalog.FilesQuery, fn func(domain.MediaFacet) error) error
	// Entries loads the entries an answer names, in the order given.
	Entries(ctx context.Context, ids []int64) ([]domain.Media, error)
	// Get returns one entry with its seasons and episodes.
	Get(ctx context.Context, id int64) (catalog.Entry, error)
	// Subtitles lists the subtitle files beside an entry's video.
	Subtitles(ctx context.Context, id int64) ([]catalog.Subtitle, error)
}

// Watching is the per-person watching state (usecase/watching implements
// it). With it, finished entries are left out of suggestions and started
// ones come first ("continue"); without it (nil) they are made from the
// catalogue alone, without claiming to know what anyone has watched.
type Watching interface {
	// Seen reports, for the entries of ids that userID has started or
	// finished, how far they got; entries left out are domain.NotSeen.
	Seen(ctx context.Context, userID int64, ids []int64) (map[int64]domain.Seen, error)
}
