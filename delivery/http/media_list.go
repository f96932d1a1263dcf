package http

import (
	"bufio"
	"context"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"

	"mediateka/domain"
	"mediateka/usecase/catalog"
)

// flushEvery is how many entries a streamed answer writes between
// flushes; a client that left makes the flush fail and ends the walk.
const flushEvery = 256

// optionalInt reads a whole-number query parameter that may be absent
// (nil).
func optionalInt(c *fiber.Ctx, name string) (*int, error) {
	raw := c.Query(name)
	if raw == "" {
		return nil, nil
	}
	n, err := strconv.Atoi(raw)
	if err != nil {
		return nil, domain.ErrInvalid("invalid query parameter", map[string]string{name: "must be a whole number"})
	}
	return &n, nil
}

// pageQuery reads a list's page: limit (nil when absent: the use case's
// default or everything) and offset (0 when absent).
func pageQuery(c *fiber.Ctx) (limit *int, offset int, err error) {
	if limit, err = optionalInt(c, "limit"); err != nil {
		return nil, 0, err
	}
	off, err := optionalInt(c, "offset")
	if err != nil || off == nil {
		return limit, 0, err
	}
	return limit, *off, nil
}

// mediaFiles answers the file list as one JSON array streamed entry by
// entry, so the whole library passes at flat memory; X-Total-Count is the
// number of entries the filters select, whatever the page. Without limit
// the whole selection is streamed; limit=0 is an empty page with the count.
// A page of at most flushEvery entries — no more than a stream holds at
// once — is written whole before it is sent: one write to the client
// instead of a chunk per buffer, and no goroutine to stream it.
func (s *Server) mediaFiles(c *fiber.Ctx) error {
	q := catalog.FilesQuery{Type: c.Query("type"), Category: c.Query("category"), Disk: c.Query("disk"),
		Status: c.Query("status"), Text: c.Query("q")}
	limit, offset, err := pageQuery(c)
	if err != nil {
		return err
	}
	q.Limit, q.Offset = limit, offset
	list, err := s.deps.Catalog.Files(c.UserContext(), q)
	if err != nil {
		return err
	}
	states, err := s.statesOf(c)
	if err != nil {
		return err
	}
	c.Set("X-Total-Count", strconv.FormatInt(list.Total, 10))
	write := func(ctx context.Context, w *bufio.Writer) error {
		return writeArray(w, states, func(item func(domain.Media) error) error { return list.Each(ctx, item) })
	}
	if limit != nil && *limit <= flushEvery {
		return s.sendJSON(c, write)
	}
	s.streamJSON(c, write)
	return nil
}

type categoryDTO struct {
	Name    string `json:"name"`
	TitleRu string `json:"title_ru"`
	TitleEn string `json:"title_en"`
	Count   int    `json:"count"`
}

// mediaByCategory answers {"categories", "movies", "series"} streamed
// shelf by shelf, with the bytes json.Marshal gives for the whole object
// (keys in order, shelves by slug), so no answer is ever held in memory
// and a client that stops reading pins one page of entries.
func (s *Server) mediaByCategory(c *fiber.Ctx) error {
	sh, err := s.deps.Catalog.ByCategory(c.UserContext(), c.Query("category"))
	if err != nil {
		return err
	}
	cats := make([]categoryDTO, 0, len(sh.Categories))
	for _, k := range sh.Categories {
		cats = append(cats, categoryDTO{Name: k.Slug, TitleRu: k.NameRu, TitleEn: k.NameEn, Count: k.Count})
	}
	head, err := json.Marshal(cats)
	if err != nil {
		return err
	}
	states, err := s.statesOf(c)
	if err != nil {
		return err
	}
	s.streamJSON(c, func(ctx context.Context, w *bufio.Writer) error {
		_, _ = w.WriteString(`{"categories":`)
		_, _ = w.Write(head)
		for _, sec := range []struct{ key, typ string }{{"movies", domain.MediaMovie}, {"series", domain.MediaSeries}} {
			_, _ = w.WriteString(`,"` + sec.key + `":`)
			if err := writeShelves(ctx, w, sh, sec.typ, states); err != nil {
				return err
			}
		}
		_, err := w.WriteString("}")
		return err
	})
	return nil
}

// writeShelves writes {"<shelf>": [entry, …], …} for one media type.
func writeShelves(ctx context.Context, w *bufio.Writer, sh catalog.Shelves, mediaType string, states *userStates) error {
	_, _ = w.WriteString("{")
	open, ew := "", newEntryWriter(w, states)
	err := sh.Each(ctx, mediaType, func(shelf string, m domain.Media) error {
		switch {
		case shelf != open && open != "":
			_, _ = w.WriteString("],")
			fallthrough
		case shelf != open:
			key, _ := json.Marshal(shelf)
			_, _ = w.Write(key)
			_, _ = w.WriteString(":[")
			open = shelf
		default:
			_ = w.WriteByte(',')
		}
		return ew.write(m)
	})
	if err != nil {
		return err
	}
	if open != "" {
		_, _ = w.WriteString("]")
	}
	_, err = w.WriteString("}")
	return err
}

// writeArray writes the entries walk yields as a JSON array.
func writeArray(w *bufio.Writer, states *userStates, walk func(item func(domain.Media) error) error) error {
	_ = w.WriteByte('[')
	ew := newEntryWriter(w, states)
	err := walk(func(m domain.Media) error {
		if ew.n > 0 {
			_ = w.WriteByte(',')
		}
		return ew.write(m)
	})
	if err != nil {
		return err
	}
	return w.WriteByte(']')
}

// entryWriter writes entries of one streamed answer: straight from the
// entry (not through an Encoder, which would check and copy it once more),
// with one scratch buffer for the whole answer rather than one per entry,
// flushing every flushEvery entries. Each entry carries its user_state
// from states.
type entryWriter struct {
	w       *bufio.Writer
	states  *userStates
	scratch []byte
	n       int // entries written
}

func newEntryWriter(w *bufio.Writer, states *userStates) *entryWriter {
	return &entryWriter{w: w, states: states, scratch: make([]byte, 0, 2048)}
}

func (ew *entryWriter) write(m domain.Media) error {
	raw, err := mediaDTO{m: m, states: ew.states}.appendJSON(ew.scratch[:0])
	if err != nil {
		return err
	}
	ew.scratch = raw[:0]
	if _, err := ew.w.Write(raw); err != nil {
		return err
	}
	if ew.n++; ew.n%flushEvery == 0 {
		return ew.w.Flush()
	}
	return nil
}

// sendJSON answers with a JSON body that write produces now, in the
// handler: for answers small enough to hold. An error from write becomes
// the error answer instead of a cut body.
func (s *Server) sendJSON(c *fiber.Ctx, write func(ctx context.Context, w *bufio.Writer) error) error {
	w, _ := s.bodyWriters.Get().(*bufio.Writer)
	if w == nil {
		w = bufio.NewWriterSize(nil, 16<<10)
	}
	defer s.bodyWriters.Put(w)
	w.Reset(c.Response().BodyWriter())
	if err := write(c.UserContext(), w); err != nil {
		c.Response().ResetBody()
		c.Response().Header.Del("X-Total-Count") // the error body lists nothing
		return err
	}
	c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSONCharsetUTF8)
	return w.Flush()
}

// streamJSON answers with a JSON body that write produces after the
// handler returns (fasthttp runs it as the response is sent). Its context
// ends when the server shuts down; the body is flushed at the end.
func (s *Server) streamJSON(c *fiber.Ctx, write func(ctx context.Context, w *bufio.Writer) error) {
	c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSONCharsetUTF8)
	log, rid, path := s.log, ensureRequestID(c), strings.Clone(c.Path())
	ctx, cancel := context.WithCancel(s.opt.Shutdown)
	c.Context().SetBodyStreamWriter(func(w *bufio.Writer) {
		defer cancel()
		err := write(ctx, w)
		if err == nil {
			err = w.Flush()
		}
		if err != nil {
			log.Warn("streamed answer ended early", "request_id", rid, "path", path, "err", err.Error())
		}
	})
}
