package http

import (
	"github.com/gofiber/fiber/v2"

	"mediateka/usecase/torrent"
)

// The administrators' torrent routes (API.md §5): relocation of torrents
// whose files moved, and categories from the catalogue.

type relocateRequest struct {
	Dirs []string `json:"dirs"`
}

type relocatedDTO struct {
	Hash string `json:"hash"`
	Name string `json:"name"`
	To   string `json:"to"`
}

type torrentRefDTO struct {
	Hash string `json:"hash"`
	Name string `json:"name"`
}

type relocateErrorDTO struct {
	Hash  string `json:"hash"`
	Name  string `json:"name"`
	Error string `json:"error"`
}

// relocateResultDTO is the answer of a relocation done within the request,
// and the result part of the job's status.
type relocateResultDTO struct {
	Relocated []relocatedDTO  `json:"relocated"`
	NotFound  []torrentRefDTO `json:"not_found"`
	Truncated bool            `json:"truncated"`
}

func newRelocateResultDTO(r torrent.RelocateResult) relocateResultDTO {
	d := relocateResultDTO{Relocated: make([]relocatedDTO, 0, len(r.Relocated)),
		NotFound: make([]torrentRefDTO, 0, len(r.NotFound)), Truncated: r.Truncated}
	for _, x := range r.Relocated {
		d.Relocated = append(d.Relocated, relocatedDTO{Hash: x.Hash, Name: x.Name, To: x.To})
	}
	for _, x := range r.NotFound {
		d.NotFound = append(d.NotFound, torrentRefDTO{Hash: x.Hash, Name: x.Name})
	}
	return d
}

func (s *Server) torrentRelocate(c *fiber.Ctx) error {
	var req relocateRequest
	if err := parseJSON(c, &req); err != nil {
		return err
	}
	out, err := s.deps.Torrents.Relocate(c.UserContext(), req.Dirs)
	if err != nil {
		return err
	}
	if out.JobID != "" {
		return c.Status(fiber.StatusAccepted).JSON(fiber.Map{"status": "started", "job_id": out.JobID, "total": out.Total})
	}
	return c.JSON(newRelocateResultDTO(out.Result))
}

func (s *Server) torrentRelocateStatus(c *fiber.Ctx) error {
	st := s.deps.Torrents.RelocateStatus()
	errs := make([]relocateErrorDTO, 0, len(st.Errors))
	for _, e := range st.Errors {
		errs = append(errs, relocateErrorDTO{Hash: e.Hash, Name: e.Name, Error: e.Error})
	}
	res := newRelocateResultDTO(st.Result)
	return c.JSON(fiber.Map{"state": st.State, "job_id": optText(st.ID), "started_at": optTime(st.StartedAt),
		"finished_at": optTime(st.FinishedAt), "total": st.Total, "checked": st.Checked,
		"relocated": res.Relocated, "not_found": res.NotFound, "truncated": res.Truncated,
		"errors": errs, "error": optText(st.Failure)})
}

type assignRequest struct {
	DryRun bool `json:"dry_run"`
}

type assignedDTO struct {
	Hash       string  `json:"hash"`
	Name       string  `json:"name"`
	Category   string  `json:"category"`
	Score      float64 `json:"score"`
	EntryID    int64   `json:"entry_id"`
	EntryTitle string  `json:"entry_title"`
}

type unmatchedDTO struct {
	Hash   string `json:"hash"`
	Name   string `json:"name"`
	Title  string `json:"title"`
	Reason string `json:"reason"`
}

func (s *Server) torrentAssignCategories(c *fiber.Ctx) error {
	var req assignRequest
	if err := parseJSON(c, &req); err != nil {
		return err
	}
	res, err := s.deps.Torrents.AssignCategories(c.UserContext(), req.DryRun)
	if err != nil {
		return err
	}
	assigned := make([]assignedDTO, 0, len(res.Assigned))
	for _, a := range res.Assigned {
		assigned = append(assigned, assignedDTO{Hash: a.Hash, Name: a.Name, Category: a.Category, Score: a.Score,
			EntryID: a.EntryID, EntryTitle: a.EntryTitle})
	}
	unmatched := make([]unmatchedDTO, 0, len(res.Unmatched))
	for _, u := range res.Unmatched {
		unmatched = append(unmatched, unmatchedDTO{Hash: u.Hash, Name: u.Name, Title: u.Title, Reason: u.Reason})
	}
	return c.JSON(fiber.Map{"assigned": assigned, "unmatched": unmatched, "skipped": res.Skipped, "dry_run": req.DryRun})
}
