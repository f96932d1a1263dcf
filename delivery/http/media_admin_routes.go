package http

import (
	"context"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"mediateka/domain"
	"mediateka/usecase/library"
)

// Library is what the /api/media-admin routes need from the library.
type Library interface {
	StartScan(req library.ScanRequest) (string, error)
	// CancelScan answers the id of the scan it cancelled.
	CancelScan() (string, error)
	ScanStatus() library.Status
	Roots() []library.RootStatus
	ListRoots(ctx context.Context) ([]library.RootInfo, error)
	SetRoots(ctx context.Context, roots []domain.Root) ([]library.RootInfo, error)
	Audit(ctx context.Context) (library.AuditReport, error)
	DuplicatesPaged(ctx context.Context, limit, offset int) (library.DuplicatesPage, error)
	Edit(ctx context.Context, id int64, p library.Patch) (domain.Media, error)
	Overview(ctx context.Context) (library.Overview, error)
}

// mountMediaAdmin adds the library administration routes (API.md §4).
func (s *Server) mountMediaAdmin(app *fiber.App) {
	if s.deps.Library == nil {
		return
	}
	g := app.Group("/api/media-admin", s.userAuth, requireAdmin)
	g.Post("/scan", s.scanStart)
	g.Delete("/scan", s.scanCancel)
	g.Get("/scan/status", s.scanStatus)
	g.Get("/roots", s.rootsGet)
	g.Put("/roots", s.rootsPut)
	g.Post("/audit", s.audit)
	g.Get("/duplicates", s.duplicates)
	g.Patch("/media/:id", s.mediaEdit)
	g.Get("/stats", s.stats)
	s.mountClassify(g)
	s.mountRAG(g)
}

type scanRequest struct {
	Paths []string `json:"paths"`
	Disk  string   `json:"disk"`
}

func (s *Server) scanStart(c *fiber.Ctx) error {
	var req scanRequest
	if err := parseJSON(c, &req); err != nil {
		return err
	}
	id, err := s.deps.Library.StartScan(library.ScanRequest{Paths: req.Paths, Disk: req.Disk})
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusAccepted).JSON(fiber.Map{"status": "started", "scan_id": id})
}

func (s *Server) scanCancel(c *fiber.Ctx) error {
	id, err := s.deps.Library.CancelScan()
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"status": "cancelling", "scan_id": id})
}

type scanErrorDTO struct {
	Path  string `json:"path"`
	Error string `json:"error"`
}

type rootDTO struct {
	Path      string  `json:"path"`
	Disk      string  `json:"disk"`
	Available bool    `json:"available"`
	Problem   *string `json:"problem"`
}

func (s *Server) scanStatus(c *fiber.Ctx) error {
	st := s.deps.Library.ScanStatus()
	errs := make([]scanErrorDTO, 0, len(st.Errors))
	for _, e := range st.Errors {
		errs = append(errs, scanErrorDTO{Path: e.Path, Error: e.Error})
	}
	roots := make([]rootDTO, 0)
	for _, r := range s.deps.Library.Roots() {
		roots = append(roots, rootDTO{Path: r.Path, Disk: r.Disk, Available: r.Available, Problem: optText(r.Problem)})
	}
	return c.JSON(fiber.Map{
		"state": st.State, "scan_id": optText(st.ScanID), "started_at": optTime(st.StartedAt),
		"finished_at": optTime(st.FinishedAt), "files_seen": st.FilesSeen, "added": st.Added,
		"updated": st.Updated, "missing": st.Missing, "errors": errs, "error_count": st.ErrorCount,
		"current_path": optText(st.CurrentPath), "failure": optText(st.Failure), "roots": roots,
	})
}

type issueDTO struct {
	Kind    string `json:"kind"`
	MediaID int64  `json:"media_id,omitempty"`
	Title   string `json:"title,omitempty"`
	Path    string `json:"path,omitempty"`
	Detail  string `json:"detail"`
}

func (s *Server) audit(c *fiber.Ctx) error {
	rep, err := s.deps.Library.Audit(c.UserContext())
	if err != nil {
		return err
	}
	issues := make([]issueDTO, 0, len(rep.Issues))
	for _, i := range rep.Issues {
		issues = append(issues, issueDTO{Kind: i.Kind, MediaID: i.MediaID, Title: i.Title, Path: i.Path, Detail: i.Detail})
	}
	return c.JSON(fiber.Map{"total": rep.Total, "checked": rep.Checked, "issues": issues, "summary": rep.Summary,
		"duration_ms": rep.Duration.Milliseconds()})
}

type duplicateGroupDTO struct {
	Reason  string              `json:"reason"`
	Entries []duplicateEntryDTO `json:"entries"`
}

// duplicateEntryDTO is what a duplicate group shows of a record: enough
// to tell the copies apart and open one, not its whole description.
type duplicateEntryDTO struct {
	ID        int64   `json:"id"`
	Title     string  `json:"title"`
	TitleRU   *string `json:"title_ru"`
	TitleOrig *string `json:"title_orig"`
	Year      *int    `json:"year"`
	MediaType string  `json:"media_type"`
	Status    string  `json:"status"`
	DiskName  *string `json:"disk_name"`
	Path      string  `json:"path"`
	Size      *int64  `json:"size"`
}

func toDuplicateEntryDTO(m domain.Media) duplicateEntryDTO {
	orNull := func(s string) *string {
		if s == "" {
			return nil
		}
		return &s
	}
	d := duplicateEntryDTO{ID: m.ID, Title: m.Title, TitleRU: orNull(m.TitleRu), TitleOrig: orNull(m.TitleOrig), Year: m.Year,
		MediaType: m.MediaType, Status: m.Status, DiskName: orNull(m.DiskName), Path: m.Path}
	if m.Size > 0 {
		d.Size = &m.Size
	}
	return d
}

// duplicatesPageSize is the page of /duplicates without a limit.
const duplicatesPageSize = 50

// duplicates answers a page of the duplicate groups (limit, offset; 50 by
// default) with the number of groups in X-Total-Count and "total".
func (s *Server) duplicates(c *fiber.Ctx) error {
	limit, offset, err := pageQuery(c)
	if err != nil {
		return err
	}
	if limit == nil {
		limit = new(int)
		*limit = duplicatesPageSize
	}
	page, err := s.deps.Library.DuplicatesPaged(c.UserContext(), *limit, offset)
	if err != nil {
		return err
	}
	out := make([]duplicateGroupDTO, 0, len(page.Groups))
	for _, g := range page.Groups {
		entries := make([]duplicateEntryDTO, 0, len(g.Entries))
		for _, m := range g.Entries {
			entries = append(entries, toDuplicateEntryDTO(m))
		}
		out = append(out, duplicateGroupDTO{Reason: g.Reason, Entries: entries})
	}
	c.Set("X-Total-Count", strconv.Itoa(page.Total))
	return c.JSON(fiber.Map{"groups": out, "total": page.Total})
}

func (s *Server) mediaEdit(c *fiber.Ctx) error {
	id, err := mediaID(c)
	if err != nil {
		return err
	}
	var patch map[string]any
	if err := parseJSON(c, &patch); err != nil {
		return err
	}
	m, err := s.deps.Library.Edit(c.UserContext(), id, library.Patch(patch))
	if err != nil {
		return err
	}
	return c.JSON(toMediaDTO(m))
}
