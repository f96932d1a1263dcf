package http

import (
	"bufio"
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
	ValidateFiles(q catalog.FilesQuery) error
	CountFiles(ctx context.Context, q catalog.FilesQuery) (int64, error)
	Files(ctx context.Context, q catalog.FilesQuery, fn func(domain.Media) error) error
	ByCategory(ctx context.Context, category string) (catalog.Shelves, error)
	Get(ctx context.Context, id int64) (catalog.Entry, error)
	Open(ctx context.Context, id int64) (catalog.StreamFile, domain.FileReader, error)
	Subtitles(ctx context.Context, id int64) ([]catalog.Subtitle, error)
	SubtitleVTT(ctx context.Context, id int64, index int) ([]byte, error)
}

// mountMedia adds the catalogue routes (API.md §3) for signed-in users.
// Streams and subtitles also take ?token=, since a <video> or <track>
// element cannot send a header.
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
	g.Get("/:id", s.userAuth, s.mediaGet)
	g.Get("/:id/stream", s.queryAuth, s.mediaStream)
	g.Get("/:id/subtitles", s.queryAuth, s.mediaSubtitles)
	g.Get("/:id/subtitles/:file", s.queryAuth, s.mediaSubtitleFile)
}

// mediaID reads the :id path parameter: a positive whole number, else 400.
func mediaID(c *fiber.Ctx) (int64, error) {
	id, err := strconv.ParseInt(c.Params("id"), 10, 64)
	if err != nil || id <= 0 {
		return 0, domain.ErrInvalid("the id in the path is not a media id", map[string]string{"id": "must be a positive whole number"})
	}
	return id, nil
}

// queryInt reads an optional whole-number query parameter.
func queryInt(c *fiber.Ctx, name string) (int, error) {
	raw := c.Query(name)
	if raw == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(raw)
	if err != nil {
		return 0, domain.ErrInvalid("invalid query parameter", map[string]string{name: "must be a whole number"})
	}
	return n, nil
}

// mediaFiles streams the catalogue as one JSON array, entry by entry, so
// the whole library passes at flat memory; X-Total-Count is the number of
// entries the filters select, whatever the page.
func (s *Server) mediaFiles(c *fiber.Ctx) error {
	q := catalog.FilesQuery{Type: c.Query("type"), Category: c.Query("category"), Disk: c.Query("disk"), Text: c.Query("q")}
	var err error
	if q.Limit, err = queryInt(c, "limit"); err != nil {
		return err
	}
	if q.Offset, err = queryInt(c, "offset"); err != nil {
		return err
	}
	if c.Query("limit") != "" && q.Limit == 0 {
		return domain.ErrInvalid("invalid query parameter", map[string]string{"limit": "must be between 1 and 1000"})
	}
	if err := s.deps.Catalog.ValidateFiles(q); err != nil {
		return err
	}
	total, err := s.deps.Catalog.CountFiles(c.UserContext(), q)
	if err != nil {
		return err
	}
	c.Set("X-Total-Count", strconv.FormatInt(total, 10))
	c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSONCharsetUTF8)
	files, log, rid := s.deps.Catalog, s.log, ensureRequestID(c)
	ctx, cancel := context.WithCancel(s.opt.Shutdown)
	c.Context().SetBodyStreamWriter(func(w *bufio.Writer) {
		defer cancel()
		if err := writeJSONArray(ctx, w, files, q); err != nil {
			log.Warn("media list stream ended early", "request_id", rid, "err", err.Error())
		}
	})
	return nil
}

// writeJSONArray writes the entries q selects as a JSON array.
func writeJSONArray(ctx context.Context, w *bufio.Writer, files Catalog, q catalog.FilesQuery) error {
	if _, err := w.WriteString("["); err != nil {
		return err
	}
	// The entry writes its own JSON into one reused buffer: going through
	// an Encoder would check and copy every entry once more.
	var buf []byte
	fields := domain.MediaFields()
	n := 0
	err := files.Files(ctx, q, func(m domain.Media) error {
		if n > 0 {
			if err := w.WriteByte(','); err != nil {
				return err
			}
		}
		n++
		var err error
		if buf, err = (mediaDTO{m: m, fields: fields}).appendJSON(buf[:0]); err != nil {
			return err
		}
		if _, err := w.Write(append(buf, '\n')); err != nil {
			return err
		}
		if n%256 == 0 {
			return w.Flush() // a client that left makes this fail and ends the walk
		}
		return ctx.Err()
	})
	if err != nil {
		return err
	}
	if _, err := w.WriteString("]"); err != nil {
		return err
	}
	return w.Flush()
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
	return c.JSON(fiber.Map{"match": toMediaDTO(tm.Match), "alternatives": toMediaDTOs(tm.Alternatives)})
}

type categoryDTO struct {
	Name    string `json:"name"`
	TitleRu string `json:"title_ru"`
	TitleEn string `json:"title_en"`
	Count   int    `json:"count"`
}

func (s *Server) mediaByCategory(c *fiber.Ctx) error {
	sh, err := s.deps.Catalog.ByCategory(c.UserContext(), c.Query("category"))
	if err != nil {
		return err
	}
	cats := make([]categoryDTO, 0, len(sh.Categories))
	for _, k := range sh.Categories {
		cats = append(cats, categoryDTO{Name: k.Slug, TitleRu: k.NameRu, TitleEn: k.NameEn, Count: k.Count})
	}
	shelf := func(m map[string][]domain.Media) map[string][]mediaDTO {
		out := make(map[string][]mediaDTO, len(m))
		for k, v := range m {
			out[k] = toMediaDTOs(v)
		}
		return out
	}
	return c.JSON(fiber.Map{"categories": cats, "movies": shelf(sh.Movies), "series": shelf(sh.Series)})
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
	return c.JSON(toEntryDTO(e))
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
