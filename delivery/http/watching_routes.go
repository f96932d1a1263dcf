package http

import (
	"context"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"mediateka/domain"
	"mediateka/usecase/watching"
)

// Watching is what the /api/media routes need of the signed-in account's
// watching state (usecase/watching).
type Watching interface {
	States(ctx context.Context, userID int64) (map[int64]domain.WatchState, error)
	Save(ctx context.Context, userID, mediaID int64, position, duration float64) error
	SetWatched(ctx context.Context, userID, mediaID int64, watched bool) (domain.WatchState, error)
	Continue(ctx context.Context, userID int64, limit *int, offset int) (watching.Page, error)
}

// mountWatching adds the watching-state routes of API.md §3 to the
// /api/media group. It must come before /:id, which would take
// "continue" for an id.
func (s *Server) mountWatching(g fiber.Router) {
	if s.deps.Watching == nil {
		return
	}
	g.Get("/continue", s.userAuth, s.mediaContinue)
	g.Put("/:id/progress", s.userAuth, s.mediaProgress)
	g.Post("/:id/watched", s.userAuth, s.mediaWatched)
}

// statesOf reads the signed-in account's watching states once for an
// answer's entries (the store keeps them until it changes). Without the
// watching use case every user_state is null.
func (s *Server) statesOf(c *fiber.Ctx) (*userStates, error) {
	u, ok := CurrentUser(c)
	if s.deps.Watching == nil || !ok {
		return &userStates{}, nil
	}
	m, err := s.deps.Watching.States(c.UserContext(), u.ID)
	if err != nil {
		return nil, err
	}
	return &userStates{m: m}, nil
}

type progressRequest struct {
	Position *float64 `json:"position"`
	Duration *float64 `json:"duration"`
}

// mediaProgress keeps the account's position in a movie or episode → 204.
// It is written at once: a page saves every few seconds and when the
// viewer pauses or leaves, and the last of these is where to resume.
func (s *Server) mediaProgress(c *fiber.Ctx) error {
	id, err := mediaID(c)
	if err != nil {
		return err
	}
	var req progressRequest
	if err := parseJSON(c, &req); err != nil {
		return err
	}
	missing := map[string]string{}
	if req.Position == nil {
		missing["position"] = domain.ReasonSeconds
	}
	if req.Duration == nil {
		missing["duration"] = domain.ReasonSeconds
	}
	if len(missing) > 0 {
		return domain.ErrInvalid("position and duration are required", missing)
	}
	u, _ := CurrentUser(c)
	if err := s.deps.Watching.Save(c.UserContext(), u.ID, id, *req.Position, *req.Duration); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

// mediaWatched marks a movie or episode watched or not → 200 with the
// state it leaves.
func (s *Server) mediaWatched(c *fiber.Ctx) error {
	id, err := mediaID(c)
	if err != nil {
		return err
	}
	var req struct {
		Watched *bool `json:"watched"`
	}
	if err := parseJSON(c, &req); err != nil {
		return err
	}
	if req.Watched == nil {
		return domain.ErrInvalid("watched is required", map[string]string{"watched": "must be true or false"})
	}
	u, _ := CurrentUser(c)
	w, err := s.deps.Watching.SetWatched(c.UserContext(), u.ID, id, *req.Watched)
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
	return c.Send(appendWatchState(nil, w))
}

// mediaContinue lists what the account started and may go on with,
// newest first, paged (limit, offset) with X-Total-Count.
func (s *Server) mediaContinue(c *fiber.Ctx) error {
	limit, offset, err := pageQuery(c)
	if err != nil {
		return err
	}
	u, _ := CurrentUser(c)
	page, err := s.deps.Watching.Continue(c.UserContext(), u.ID, limit, offset)
	if err != nil {
		return err
	}
	body, err := appendContinue(make([]byte, 0, 2048*len(page.Items)+2), page)
	if err != nil {
		return err
	}
	c.Set("X-Total-Count", strconv.FormatInt(page.Total, 10))
	c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
	return c.Send(body)
}
