package http

import (
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"

	"mediateka/domain"
	"mediateka/usecase/playback"
)

// mediaStream serves a catalogue file with HTTP Range support
// (serveRange). With remux=1 it is ffmpeg's remux instead (mediaRemux).
func (s *Server) mediaStream(c *fiber.Ctx) error {
	id, err := mediaID(c)
	if err != nil {
		return err
	}
	remux, err := wantsRemux(c)
	if err != nil {
		return err
	}
	if remux {
		if s.deps.Playback == nil {
			return playback.ErrRemuxUnavailable
		}
		return s.mediaRemux(c, id)
	}
	f, r, err := s.deps.Catalog.Open(c.UserContext(), id)
	if err != nil {
		return err
	}
	return serveRange(c, r, f.Size, f.ModTime, f.ContentType)
}

// serveRange answers an open file of size bytes with HTTP Range support
// and closes it when the answer is done: no Range is 200 with the whole
// file, one satisfiable range 206, a malformed or unsatisfiable one 416
// with "Content-Range: bytes */size". An If-Range that no longer matches
// the file gets the whole file, as HTTP says. Serving the open file, not a
// path, means a file removed meanwhile is still served whole.
func serveRange(c *fiber.Ctx, r domain.FileReader, size int64, modTime time.Time, contentType string) error {
	etag := fmt.Sprintf(`"%x-%x"`, modTime.UnixNano(), size)
	lastMod := modTime.UTC().Format(http.TimeFormat)
	c.Set(fiber.HeaderAcceptRanges, "bytes")
	c.Set(fiber.HeaderContentType, contentType)
	c.Set(fiber.HeaderETag, etag)
	c.Set(fiber.HeaderLastModified, lastMod)
	header := c.Get(fiber.HeaderRange)
	if ir := c.Get(fiber.HeaderIfRange); ir != "" && ir != etag && ir != lastMod {
		header = ""
	}
	span, partial, err := parseRange(header, size)
	if err != nil {
		_ = r.Close()
		c.Set(fiber.HeaderContentRange, "bytes */"+strconv.FormatInt(size, 10))
		return err
	}
	if !partial {
		span = byteRange{start: 0, end: size - 1}
		c.Status(fiber.StatusOK)
	} else {
		c.Status(fiber.StatusPartialContent)
		c.Set(fiber.HeaderContentRange, fmt.Sprintf("bytes %d-%d/%d", span.start, span.end, size))
	}
	length := max(0, span.length())
	if c.Method() == fiber.MethodHead {
		_ = r.Close()
		c.Set(fiber.HeaderContentLength, strconv.FormatInt(length, 10))
		return nil
	}
	c.Context().SetBodyStream(sectionFile{SectionReader: io.NewSectionReader(r, span.start, length), f: r}, int(length))
	return nil
}

// sectionFile serves one span of an open file and closes the file when the
// response is done (fasthttp closes a body stream that is an io.Closer).
type sectionFile struct {
	*io.SectionReader
	f domain.FileReader
}

// Close closes the underlying file.
func (s sectionFile) Close() error { return s.f.Close() }
