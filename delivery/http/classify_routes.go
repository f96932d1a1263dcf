package http

import (
	"context"

	"github.com/gofiber/fiber/v2"

	"mediateka/usecase/classify"
)

// Classifier is what the classification routes need (API.md §4).
type Classifier interface {
	Start(ctx context.Context, ids []int64) error
	Status() classify.Status
}

// mountClassify adds the AI classification routes under /api/media-admin.
func (s *Server) mountClassify(g fiber.Router) {
	if s.deps.Classify == nil {
		return
	}
	g.Post("/classify", s.classifyStart)
	g.Get("/classify/status", s.classifyStatus)
}

type classifyRequest struct {
	IDs []int64 `json:"ids"`
}

func (s *Server) classifyStart(c *fiber.Ctx) error {
	var req classifyRequest
	if err := parseJSON(c, &req); err != nil {
		return err
	}
	if err := s.deps.Classify.Start(c.UserContext(), req.IDs); err != nil {
		return err
	}
	return c.Status(fiber.StatusAccepted).JSON(fiber.Map{"status": "started"})
}

type classifyErrorDTO struct {
	ID    int64  `json:"id"`
	Title string `json:"title"`
	Error string `json:"error"`
}

// classifyStatus answers in the shape of the RAG status (API.md §4):
// indexed counts classified entries, provider names the model, dimensions
// is always null; the job's own counts and per-entry errors follow.
func (s *Server) classifyStatus(c *fiber.Ctx) error {
	st := s.deps.Classify.Status()
	errs := make([]classifyErrorDTO, 0, len(st.Errors))
	for _, e := range st.Errors {
		errs = append(errs, classifyErrorDTO{ID: e.ID, Title: e.Title, Error: e.Error})
	}
	return c.JSON(fiber.Map{
		"state": st.State, "indexed": st.Classified, "total": st.Total, "failed": st.Failed,
		"skipped": st.Skipped, "fields_filled": st.FieldsFilled, "provider": optText(st.Model),
		"dimensions": nil, "started_at": optTime(st.StartedAt), "built_at": optTime(st.FinishedAt),
		"error": optText(st.Failure), "errors": errs,
	})
}
