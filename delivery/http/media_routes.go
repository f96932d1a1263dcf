package http

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"

	"mediateka/domain"
	"mediateka/usecase/catalog"
)

// Catalog is what the /api/media routes need from the catalogue.
type Catalog interface {
	ByTitle(ctx context.Context, title, typ string) (catalog.TitleMatch, error)
	Files(ctx context.Context, q catalog.FilesQuery) (catalog.Listing, error)
	ByCategory(ctx context.Context, category string) (catalog.Shelves, error)
	Get(ctx context.Context, id int64) (catalog.Entry, error)
	Open(ctx context.Context, id int64) (catalog.StreamFile, domain.FileReader, error)
	Subtitles(ctx context.Context, id int64) ([]catalog.Subtitle, error)
	SubtitleVTT(ctx context.Context, id int64, index int) ([]byte, error)
}

// mountMedia adds the catalogue routes (API.md §3) for signed-in users.
// Streams, subtitles and thumbnails also take ?token= or a play token
// (st=), since a <video>, <track> or <img> element cannot send a header.
func (s *Server) mountMedia(app *fiber.App) {
	if s.deps.Catalog == nil {
		return
	}
	g := app.Group("/api/media")
	g.Get("/files", s.userAuth, s.mediaFiles)
	g.Post("/by-title", s.userAuth, s.mediaByTitle)
	// Without this, GET /by-title would reach /:id and answer "invalid id".
	g.Get("/by-title", func(c *fiber.Ctx) error {
		c.Set(fiber.HeaderAllow, fiber.MethodPost)
		return fiber.ErrMethodNotAllowed
	})
	g.Get("/by-category", s.userAuth, s.mediaByCategory)
	s.mountWatching(g)
	s.mountMediaSearch(g)
	g.Get("/:id", s.userAuth, s.mediaGet)
	g.Get("/:id/stream", s.mediaAuth, s.mediaStream)
	g.Get("/:id/subtitles", s.mediaAuth, s.mediaSubtitles)
	g.Get("/:id/subtitles/:file", s.mediaAuth, s.mediaSubtitleFile)
	if s.deps.Playback != nil {
		g.Get("/:id/play", s.userAuth, s.mediaPlay)
		g.Get("/:id/thumbnail", s.mediaAuth, s.mediaThumbnail)
	}
}

// mediaID reads the :id path parameter: a positive whole number, else 400.
func mediaID(c *fiber.Ctx) (int64, error) {
	id, err := strconv.ParseInt(c.Params("id"), 10, 64)
	if err != nil || id <= 0 {
		return 0, domain.ErrInvalid("the id in the path is not a media id", map[string]string{"id": "must be a positive whole number"})
	}
	return id, nil
}

type byTitleRequest struct {
	Title string `json:"title"`
	Type  string `json:"type"`
}

func (s *Server) mediaByTitle(c *fiber.Ctx) error {
	var req byTitleRequest
	if err := parseJSON(c, &req); err != nil {
		return err
	}
	tm, err := s.deps.Catalog.ByTitle(c.UserContext(), req.Title, req.Type)
	if err != nil {
		return err
	}
	states, err := s.statesOf(c)
	if err != nil {
		return err
	}
	body, err := appendTitleMatch(make([]byte, 0, 16<<10), tm, states)
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
	return c.Send(body)
}

// appendTitleMatch writes {"alternatives": [<entry>…], "match": <entry>}
// (members in the order c.JSON sorts a map's) with the entries' own
// encoder: the bytes c.JSON gave, without encoding/json checking and
// copying every entry once more. by-title is the most frequent request
// of a page that searches as people type. Each entry carries its
// user_state from states.
func appendTitleMatch(b []byte, tm catalog.TitleMatch, states *userStates) ([]byte, error) {
	match := mediaDTO{m: tm.Match, states: states}
	b = append(b, `{"alternatives":[`...)
	var err error
	for i, m := range tm.Alternatives {
		if i > 0 {
			b = append(b, ',')
		}
		alt := match
		alt.m = m
		if b, err = alt.appendJSON(b); err != nil {
			return nil, err
		}
	}
	if b, err = match.appendJSON(append(b, `],"match":`...)); err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

func (s *Server) mediaGet(c *fiber.Ctx) error {
	id, err := mediaID(c)
	if err != nil {
		return err
	}
	e, err := s.deps.Catalog.Get(c.UserContext(), id)
	if err != nil {
		return err
	}
	states, err := s.statesOf(c)
	if err != nil {
		return err
	}
	return c.JSON(toEntryDTO(e, states))
}

type subtitleDTO struct {
	Index    int    `json:"index"`
	Language string `json:"language"`
	Label    string `json:"label"`
	URL      string `json:"url"`
}

func (s *Server) mediaSubtitles(c *fiber.Ctx) error {
	id, err := mediaID(c)
	if err != nil {
		return err
	}
	subs, err := s.deps.Catalog.Subtitles(c.UserContext(), id)
	if err != nil {
		return err
	}
	out := make([]subtitleDTO, 0, len(subs))
	for _, sub := range subs {
		out = append(out, subtitleDTO{Index: sub.Index, Language: sub.Language, Label: sub.Label,
			URL: fmt.Sprintf("/api/media/%d/subtitles/%d.vtt", id, sub.Index)})
	}
	return c.JSON(out)
}

func (s *Server) mediaSubtitleFile(c *fiber.Ctx) error {
	id, err := mediaID(c)
	if err != nil {
		return err
	}
	name, ok := strings.CutSuffix(c.Params("file"), ".vtt")
	index, convErr := strconv.Atoi(name)
	if !ok || convErr != nil || index < 0 || strings.TrimLeft(name, "0123456789") != "" {
		return domain.ErrInvalid("the subtitle file name must be <index>.vtt", map[string]string{"file": "must be <index>.vtt"})
	}
	vtt, err := s.deps.Catalog.SubtitleVTT(c.UserContext(), id, index)
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, "text/vtt; charset=utf-8")
	return c.Send(vtt)
}
