package catalog

import (
	"context"
	"io/fs"
	"time"

	"mediateka/domain"
)

// Repository is what the catalogue reads from the media store.
type Repository interface {
	ByID(ctx context.Context, id int64) (domain.Media, error)
	// ByPath finds the record stored under exactly this path.
	ByPath(ctx context.Context, path string) (domain.Media, error)
	ByIDs(ctx context.Context, ids []int64) ([]domain.Media, error)
	Children(ctx context.Context, parentIDs []int64) ([]domain.Media, error)
	// Each streams the records a filter selects, in id order.
	Each(ctx context.Context, f domain.MediaFilter, fn func(domain.Media) error) error
	Count(ctx context.Context, f domain.MediaFilter) (int64, error)
	// Facets streams the light view of the records a filter selects, in
	// no set order, ignoring its limit and offset.
	Facets(ctx context.Context, f domain.MediaFilter, fn func(domain.MediaFacet) error) error
	// Keys streams the light view the title index is built from.
	Keys(ctx context.Context, fn func(domain.MediaKey) error) error
	// Version changes whenever any process writes a record.
	Version(ctx context.Context) (string, error)
}

// SearchLog keeps the history of title searches.
type SearchLog interface {
	LogSearches(ctx context.Context, recs []domain.SearchRecord) error
	// PruneSearches deletes rows written before cutoff, then the oldest
	// rows beyond the newest keep.
	PruneSearches(ctx context.Context, keep int, cutoff time.Time) error
}

// Files is the disk where catalogue files and their subtitles live.
type Files interface {
	Stat(path string) (fs.FileInfo, error)
	ReadDir(path string) ([]fs.DirEntry, error)
	ReadFile(path string) ([]byte, error)
	Open(path string) (domain.FileReader, error)
	// RealPath resolves every symbolic link in path.
	RealPath(path string) (string, error)
}
