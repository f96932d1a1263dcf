package domain

import "io"

// Root is one library folder of search_dirs.json. Disk is the name shown as
// media.disk_name for everything found under it.
type Root struct {
	Path string
	Disk string
}

// FileReader is an open file read by offset: a stream serving a Range, or
// the duplicate search reading parts of a video.
type FileReader interface {
	io.ReaderAt
	io.Closer
}

// MediaFilter selects catalogue entries. Empty fields do not filter.
// Category "uncategorized" selects entries without a category. Text
// search is no filter of the store: the catalogue's title index selects
// those entries and applies Type, Category and Disk itself.
type MediaFilter struct {
	Type     string
	Category string
	Disk     string
	// Status keeps records of that status (StatusOK or StatusMissing):
	// the administrator's list of files gone from disk.
	Status string
	// TopLevel keeps movies and series only.
	TopLevel bool
	// AfterID keeps records with a larger id: a long walk reads page by
	// page from where the last page ended, holding no cursor in between.
	AfterID int64
	// Limit 0 means no limit.
	Limit  int
	Offset int
}

// MediaKey is the light view of a record that in-memory indexes and the
// duplicate search work on. Year is 0 when unknown.
type MediaKey struct {
	ID       int64
	ParentID int64
	Type     string
	Status   string
	Year     int
	// Category and Disk are main_category and disk_name, so the title
	// index can apply the file list's filters itself.
	Category string
	Disk     string
	// Titles are the normalised values of the searchable fields, in the
	// order of MediaFieldNames(FieldSearchable), so a field flagged
	// searchable is searched with no change here. A row written before a
	// field became searchable may have fewer; use Title to read one.
	Titles []string
}

// Title returns Titles[i], or "" when the key has no i-th title.
func (k MediaKey) Title(i int) string {
	if i < 0 || i >= len(k.Titles) {
		return ""
	}
	return k.Titles[i]
}

// MediaChange is one write of a scan batch: an insert when Media.ID is 0,
// else an update of Columns only. ParentPath names a parent inserted earlier
// in the same batch, whose id nobody knows yet; it overrides Media.ParentID.
type MediaChange struct {
	Media      Media
	Columns    []string
	ParentPath string
}

// FileHash is a video file's partial content hash, kept for duplicate
// detection; Hash is "" until computed, and cleared when the file changes.
type FileHash struct {
	ID   int64
	Path string
	Size int64
	Hash string
}

// Errors of the media library: the catalogue, the scanner, the audit and
// editing. Their codes are part of the API (docs/API.md §3 and §4).
var (
	ErrMediaNotFound   = NewError(KindNotFound, "media_not_found", "no media entry matches")
	ErrInvalidType     = NewError(KindInvalid, "invalid_type", "type must be one of movie, series, season, episode")
	ErrInvalidCategory = NewError(KindInvalid, "invalid_category", "unknown category")
	ErrScanRunning     = NewError(KindConflict, "scan_running", "a media scan is already running")
	ErrScanNotRunning  = NewError(KindConflict, "scan_not_running", "no media scan is running")
	ErrAuditRunning    = NewError(KindConflict, "audit_running", "an audit is already running")
	ErrNoRoots         = NewError(KindConflict, "no_library_roots", "no library folder is configured in search_dirs.json")
	ErrNoFile          = NewError(KindNotFound, "no_file", "this entry is a folder, not a video file")
	ErrFileMissing     = NewError(KindNotFound, "file_missing", "the video file of this entry is not on disk")
	ErrSubtitleMissing = NewError(KindNotFound, "subtitle_not_found", "no such subtitle track")
	// ErrNotPlayable refuses to a series or season folder what only a
	// video file has: a play, a watching state.
	ErrNotPlayable = NewError(KindInvalid, "not_playable", "only a movie or an episode plays; open one of its episodes")
)

// FolderUsage is what the catalogue holds under one library folder:
// Entries counts every record (missing ones too), Bytes adds the sizes of
// the files not marked missing, which are what occupy the disk.
type FolderUsage struct {
	Entries int
	Bytes   int64
}

// WorkCount is how many movies and series share one main_category (as
// stored, "" for none) and one decade (1990; 0 when the year is unknown).
type WorkCount struct {
	Category string
	Decade   int
	Count    int
}

// DiskSpace is the size of the file system a folder is on and what is
// free there, in bytes.
type DiskSpace struct {
	Total uint64
	Free  uint64
}
