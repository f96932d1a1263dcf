package domain

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
}

// SearchRecord is one row of search_history.
type SearchRecord struct {
	Query        string
	ResultsCount int
}
