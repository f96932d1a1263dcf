package http

import (
	"context"
	"time"

	"github.com/gofiber/fiber/v2"

	"mediateka/domain"
	"mediateka/usecase/torrent"
)

// TorrentService is what the torrent routes need (API.md §5).
type TorrentService interface {
	List(ctx context.Context) ([]domain.Torrent, error)
	Download(ctx context.Context, req torrent.DownloadRequest) (torrent.Added, error)
	Relocate(ctx context.Context, dirs []string) (torrent.RelocateOutcome, error)
	RelocateStatus() torrent.RelocateStatus
	AssignCategories(ctx context.Context, dryRun bool) (torrent.AssignResult, error)
}

// mountTorrents adds /api/torrents for signed-in users.
func (s *Server) mountTorrents() {
	if s.deps.Torrents == nil {
		return
	}
	g := s.app.Group("/api/torrents", s.userAuth)
	g.Get("/", s.torrentList)
	if s.deps.TorrentSearch != nil {
		g.Get("/search", s.torrentSearch)
	}
	g.Post("/download", s.torrentDownload)
	g.Post("/relocate", requireAdmin, s.torrentRelocate)
	g.Get("/relocate/status", requireAdmin, s.torrentRelocateStatus)
	g.Post("/assign-categories", requireAdmin, s.torrentAssignCategories)
}

// torrentDTO is one torrent of GET /api/torrents. eta is seconds, null
// when the client does not know it.
type torrentDTO struct {
	Hash          string     `json:"hash"`
	Name          string     `json:"name"`
	State         string     `json:"state"`
	ClientState   string     `json:"client_state"`
	Progress      float64    `json:"progress"`
	Size          int64      `json:"size"`
	Category      string     `json:"category"`
	SavePath      string     `json:"save_path"`
	AddedOn       *time.Time `json:"added_on"`
	ETA           *int64     `json:"eta"`
	DownloadSpeed int64      `json:"download_speed"`
}

func newTorrentDTO(t domain.Torrent) torrentDTO {
	d := torrentDTO{Hash: t.Hash, Name: t.Name, State: string(t.State), ClientState: t.ClientState,
		Progress: t.Progress, Size: t.Size, Category: t.Category, SavePath: t.SavePath,
		AddedOn: optTime(t.AddedOn), DownloadSpeed: t.DownloadSpeed}
	if t.ETA > 0 {
		secs := int64(t.ETA.Seconds())
		d.ETA = &secs
	}
	return d
}

func (s *Server) torrentList(c *fiber.Ctx) error {
	ts, err := s.deps.Torrents.List(c.UserContext())
	if err != nil {
		return err
	}
	out := make([]torrentDTO, 0, len(ts))
	for _, t := range ts {
		out = append(out, newTorrentDTO(t))
	}
	return c.JSON(out)
}

type downloadRequest struct {
	URL string `json:"url"`
	// TorrentFile is a .torrent file, base64 in JSON (encoding/json's
	// []byte), for a client that has the file rather than a link.
	TorrentFile []byte `json:"torrent_file"`
	Title       string `json:"title"`
	Source      string `json:"source"`
}

func (s *Server) torrentDownload(c *fiber.Ctx) error {
	var req downloadRequest
	if err := parseJSON(c, &req); err != nil {
		return err
	}
	u, _ := CurrentUser(c)
	added, err := s.deps.Torrents.Download(c.UserContext(),
		torrent.DownloadRequest{URL: req.URL, File: req.TorrentFile, Title: req.Title, Source: req.Source, Admin: u.Admin()})
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(fiber.Map{"status": "added", "hash": added.Hash, "method": added.Method})
}
