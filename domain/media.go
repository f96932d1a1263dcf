package domain

import "time"

// Media types as stored in media.media_type.
const (
	MediaMovie   = "movie"
	MediaSeries  = "series"
	MediaSeason  = "season"
	MediaEpisode = "episode"
)

// Media statuses: a file that vanished from disk is kept as "missing", never
// deleted, so a person's edits and the AI's metadata survive an unplugged disk.
const (
	StatusOK      = "ok"
	StatusMissing = "missing"
)

// ValidMediaType reports whether t is one of the four stored media types.
func ValidMediaType(t string) bool {
	switch t {
	case MediaMovie, MediaSeries, MediaSeason, MediaEpisode:
		return true
	}
	return false
}

// Media is one catalogue record: a movie, a series, a season or an episode.
// Optional numbers are pointers so "unknown" differs from zero; the JSON
// columns of the store are real slices and maps here.
type Media struct {
	ID                   int64
	DiskName             string
	Path                 string
	Title                string
	TitleRu              string
	TitleOrig            string
	Year                 *int
	MainCategory         string
	Country              string
	Status               string
	Genres               []string
	Directors            []string
	Cast                 []string
	Awards               []string
	Facts                []string
	Similar              []string
	NumEpisodesPerSeason []int
	Rating               map[string]float64
	NumOfSeasons         *int
	Number               *int
	Plot                 string
	Atmosphere           string
	WhyWatch             string
	Mood                 string
	FinalVerdict         string
	CanStopAt            string
	Quote                string
	ParentID             int64
	EpisodeScanSkipped   int
	MediaType            string

	// Size and ModTime describe the video file as last scanned; both are
	// zero for a series or season that has no file of its own. The scanner
	// compares them with the disk to skip unchanged files.
	Size    int64
	ModTime time.Time
	// EditedFields names the fields a person changed through the API; scans
	// and AI classification never overwrite them.
	EditedFields []string
	CreatedAt    time.Time
	UpdatedAt    time.Time
}

// HasFile reports whether the record stands for a video file on disk (a
// movie, an episode, or a season pack that could not be split), as opposed
// to a series or season folder.
func (m Media) HasFile() bool { return !m.ModTime.IsZero() }

// Edited reports whether a person changed field (a column name).
func (m Media) Edited(field string) bool {
	for _, f := range m.EditedFields {
		if f == field {
			return true
		}
	}
	return false
}

// SearchRecord is one row of search_history.
type SearchRecord struct {
	Query        string
	ResultsCount int
	At           time.Time
}
