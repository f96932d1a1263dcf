package http

import (
	"context"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"mediateka/usecase/torrent"
)

// TorrentSearcher is what GET /api/torrents/search needs.
type TorrentSearcher interface {
	Search(ctx context.Context, query, category string) (torrent.SearchResult, error)
}

// headerFailedIndexers names the indexers that failed while others
// answered (API.md §5).
const headerFailedIndexers = "X-Failed-Indexers"

// parsedDTO is what the release-name parser read; unknown numbers are null.
type parsedDTO struct {
	Title   string `json:"title"`
	Year    *int   `json:"year"`
	Season  *int   `json:"season"`
	Episode *int   `json:"episode"`
	Quality string `json:"quality"`
}

// libraryEntryDTO is the catalogue entry a result stands for.
type libraryEntryDTO struct {
	ID    int64   `json:"id"`
	Title string  `json:"title"`
	Score float64 `json:"score"`
}

// foundDTO is one search result.
type foundDTO struct {
	Title          string           `json:"title"`
	Size           int64            `json:"size"`
	Seeders        int              `json:"seeders"`
	Leechers       *int             `json:"leechers"`
	DownloadURL    *string          `json:"download_url"`
	Magnet         *string          `json:"magnet"`
	InfoHash       *string          `json:"info_hash"`
	Indexer        string           `json:"indexer"`
	Published      *time.Time       `json:"published"`
	Categories     []int            `json:"categories"`
	DownloadFactor float64          `json:"download_volume_factor"`
	UploadFactor   float64          `json:"upload_volume_factor"`
	Parsed         parsedDTO        `json:"parsed"`
	InLibrary      bool             `json:"in_library"`
	LibraryEntry   *libraryEntryDTO `json:"library_entry,omitempty"`
}

func newFoundDTO(f torrent.Found) foundDTO {
	d := foundDTO{Title: f.Title, Size: f.Size, Seeders: f.Seeders, DownloadURL: optString(f.DownloadURL),
		Magnet: optString(f.Magnet), InfoHash: optString(f.InfoHash), Indexer: f.Indexer, Published: optTime(f.Published),
		Categories: f.Categories, DownloadFactor: f.DownloadFactor, UploadFactor: f.UploadFactor,
		Parsed: parsedDTO{Title: f.Parsed.Title, Year: optInt(f.Parsed.Year), Quality: f.Parsed.Quality}}
	if d.Categories == nil {
		d.Categories = []int{}
	}
	if f.Leechers >= 0 {
		d.Leechers = &f.Leechers
	}
	if f.Parsed.Kind != "movie" {
		d.Parsed.Season, d.Parsed.Episode = optInt(f.Parsed.Season), optInt(f.Parsed.Episode)
	}
	if e := f.InLibrary; e != nil {
		d.InLibrary, d.LibraryEntry = true, &libraryEntryDTO{ID: e.ID, Title: e.Title, Score: e.Score}
	}
	return d
}

func optString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func optInt(n int) *int {
	if n <= 0 {
		return nil
	}
	return &n
}

// torrentSearch is GET /api/torrents/search?query=&category=.
func (s *Server) torrentSearch(c *fiber.Ctx) error {
	res, err := s.deps.TorrentSearch.Search(c.UserContext(), c.Query("query"), c.Query("category"))
	if err != nil {
		return err
	}
	if len(res.Failed) > 0 {
		names := make([]string, len(res.Failed))
		for i, f := range res.Failed {
			names[i] = f.Indexer
		}
		c.Set(headerFailedIndexers, strings.Join(names, ", "))
	}
	out := make([]foundDTO, 0, len(res.Items))
	for _, f := range res.Items {
		out = append(out, newFoundDTO(f))
	}
	return c.JSON(out)
}
