package library

import (
	"context"
	"io/fs"

	"mediateka/domain"
)

// Store is what the library needs from the media repository.
type Store interface {
	// ScanState yields the light scan view of every record under prefixes.
	ScanState(ctx context.Context, prefixes []string, fn func(domain.Media) error) error
	// ApplyScan writes one batch in one transaction and returns the ids of
	// inserted rows by path.
	ApplyScan(ctx context.Context, changes []domain.MediaChange) (map[string]int64, error)
	MarkMissing(ctx context.Context, ids []int64) (int, error)
	// Reconcile refreshes the columns series and seasons derive from their
	// children, writing only what changes.
	Reconcile(ctx context.Context) (int, error)
	ByID(ctx context.Context, id int64) (domain.Media, error)
	ByIDs(ctx context.Context, ids []int64) ([]domain.Media, error)
	Update(ctx context.Context, m domain.Media, columns []string) (domain.Media, error)
	Keys(ctx context.Context, fn func(domain.MediaKey) error) error
	SharedSizeFiles(ctx context.Context) ([]domain.FileHash, error)
	SetContentHashes(ctx context.Context, hashes []domain.FileHash) error
	CountByType(ctx context.Context) (map[string]map[string]int, error)
	// CountUnder counts the records under each folder, in order, with a
	// cost that does not grow with the number of folders.
	CountUnder(ctx context.Context, prefixes []string) ([]int, error)
	// CountWorks counts the movies and series by category and decade;
	// UsageUnder is CountUnder with the bytes of the files. Both are one
	// grouped query (the admin overview).
	CountWorks(ctx context.Context) ([]domain.WorkCount, error)
	UsageUnder(ctx context.Context, prefixes []string) ([]domain.FolderUsage, error)
	// Version names the catalogue's state; it changes with every write,
	// so the overview's counts are kept until it does.
	Version(ctx context.Context) (string, error)
}

// SpaceMeter measures the file system a folder is on (statfs).
type SpaceMeter interface {
	Space(path string) (domain.DiskSpace, error)
}

// RootStore owns the library folders: every scan and audit reads the
// current list, and SetRoots replaces it durably, so a change needs no
// restart. Roots returns a copy.
type RootStore interface {
	Roots() []domain.Root
	SaveRoots(roots []domain.Root) error
}

// FileSystem is the disk as the scanner and the audit see it. Paths are
// absolute. Stat follows symbolic links; RealPath resolves them.
// ReadDirStat lists a folder sorted by name; the regular files stat
// accepts may come with their Info read together with the listing, which
// is cheaper than asking for each file by its path afterwards.
type FileSystem interface {
	ReadDirStat(path string, stat func(name string) bool) ([]fs.DirEntry, error)
	Stat(path string) (fs.FileInfo, error)
	RealPath(path string) (string, error)
	Open(path string) (domain.FileReader, error)
}

// Release is what a file or folder name says, as far as the scanner cares.
// Zero values mean unknown.
type Release struct {
	Title     string
	TitleRu   string
	TitleOrig string
	Year      int
	// Episode is true when the name (or its folders) carries a season or an
	// episode number: the file belongs to a series.
	Episode      bool
	Season       int
	HasSeason    bool
	EpisodeNum   int
	EpisodeTitle string
	SeriesTitle  string
	// Category is a domain category slug found in the folder names.
	Category string
}

// Parser reads a release name: the file (or folder) name and the names of
// the folders above it, nearest first. It must be pure and never panic.
type Parser func(name string, parents []string) Release

// Publisher sends events to live listeners; it must never block.
type Publisher interface {
	Publish(e domain.Event)
}

// Locker keeps two scans (the server's and the command line's) from
// running at once. TryLock returns ok=false when another holds the lock.
type Locker interface {
	TryLock() (unlock func(), ok bool, err error)
}

// ChangeListener hears that catalogue records were written, so caches such
// as the title index can refresh. MediaChanged lets them catch up in
// their own time; Settle brings them up to date now, so what a finished
// scan or an edit wrote is found by the very next search.
type ChangeListener interface {
	MediaChanged()
	Settle(ctx context.Context) error
}
