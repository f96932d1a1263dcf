package http

import (
	"context"

	"github.com/gofiber/fiber/v2"

	"mediateka/usecase/rag"
)

// RAG is what the semantic-search routes need (API.md §3, §4).
type RAG interface {
	Build(ctx context.Context, key string) error
	Status() rag.Status
	Search(ctx context.Context, q rag.Query) ([]rag.Hit, error)
}

// mountRAG adds the index administration routes under /api/media-admin.
func (s *Server) mountRAG(g fiber.Router) {
	if s.deps.RAG == nil {
		return
	}
	g.Post("/rag/build", s.ragBuild)
	g.Get("/rag/status", s.ragStatus)
	g.Post("/rag/search", s.ragSearch)
}

// mountMediaSearch adds POST /api/media/search, the same search for
// signed-in users, whose entries carry their user_state.
func (s *Server) mountMediaSearch(g fiber.Router) {
	if s.deps.RAG == nil {
		return
	}
	g.Post("/search", s.userAuth, s.mediaSearch)
	// Without this, GET /search would reach /:id and answer "invalid id".
	g.Get("/search", func(c *fiber.Ctx) error {
		c.Set(fiber.HeaderAllow, fiber.MethodPost)
		return fiber.ErrMethodNotAllowed
	})
}

type ragBuildRequest struct {
	Key string `json:"key"`
}

func (s *Server) ragBuild(c *fiber.Ctx) error {
	var req ragBuildRequest
	if err := parseJSON(c, &req); err != nil {
		return err
	}
	if err := s.deps.RAG.Build(c.UserContext(), req.Key); err != nil {
		return err
	}
	return c.Status(fiber.StatusAccepted).JSON(fiber.Map{"status": "started"})
}

func (s *Server) ragStatus(c *fiber.Ctx) error {
	st := s.deps.RAG.Status()
	var dims *int
	if st.Dimensions > 0 {
		dims = &st.Dimensions
	}
	return c.JSON(fiber.Map{
		"state": st.State, "indexed": st.Indexed, "total": st.Total, "embedded": st.Embedded,
		"provider": optText(st.Provider), "model": optText(st.Model), "dimensions": dims,
		"started_at": optTime(st.StartedAt), "built_at": optTime(st.BuiltAt), "error": optText(st.Failure),
	})
}

type ragSearchRequest struct {
	Query string `json:"query"`
	TopK  int    `json:"top_k"`
	Type  string `json:"type"`
}

type ragHitDTO struct {
	Score float64  `json:"score"`
	Media mediaDTO `json:"media"`
}

// ragSearch is the administrators' search: entries without user_state,
// as the other administration answers show them.
func (s *Server) ragSearch(c *fiber.Ctx) error { return s.search(c, nil) }

// mediaSearch is the users' search: each entry carries the account's
// user_state, as in every /api/media answer.
func (s *Server) mediaSearch(c *fiber.Ctx) error {
	states, err := s.statesOf(c)
	if err != nil {
		return err
	}
	return s.search(c, states)
}

func (s *Server) search(c *fiber.Ctx, states *userStates) error {
	var req ragSearchRequest
	if err := parseJSON(c, &req); err != nil {
		return err
	}
	hits, err := s.deps.RAG.Search(c.UserContext(), rag.Query{Text: req.Query, TopK: req.TopK, Type: req.Type})
	if err != nil {
		return err
	}
	out := make([]ragHitDTO, len(hits))
	for i, h := range hits {
		out[i] = ragHitDTO{Score: h.Score, Media: mediaDTO{m: h.Media, states: states}}
	}
	return c.JSON(fiber.Map{"results": out})
}
