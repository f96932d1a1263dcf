package http

import (
	"errors"
	"net"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"
)

// maxHeaderBytes bounds the request line plus headers (fasthttp's read
// buffer): larger is 414 when the URL alone does not fit, else 431. The
// TTS routes take their text in the query string (an <audio> element can
// only GET), and the longest text they accept, 5000 Cyrillic characters,
// is 30 KB percent-encoded (60 KB were it all four-byte emoji): 64 KiB
// holds any text the routes accept plus a browser's headers, so an
// over-long text is refused by its length with text_too_long, not by
// the buffer.
const maxHeaderBytes = 64 << 10

// handleUnreadableRequests answers requests fasthttp cannot read (too
// large, malformed, too slow) with the API error body. Fiber's own handler
// would pass fasthttp's error text on as the message, and that text quotes
// the raw request, Authorization header included; neither the answer nor
// the log ever carries the request here.
func (s *Server) handleUnreadableRequests() {
	srv := s.app.Server()
	srv.SecureErrorLogMessage = true
	srv.ErrorHandler = func(fctx *fasthttp.RequestCtx, err error) {
		c := s.app.AcquireCtx(fctx)
		defer s.app.ReleaseCtx(c)
		fe := unreadableRequest(err, requestLineEnded(fctx.Conn()))
		s.log.Warn("unreadable request", "request_id", ensureRequestID(c), "status", fe.Code,
			"remote", fctx.RemoteAddr().String())
		setCommonHeaders(c)
		_ = s.app.Config().ErrorHandler(c, fe)
	}
}

// unreadableRequest names why fasthttp could not read a request, without
// any of its bytes.
func unreadableRequest(err error, lineEnded bool) *fiber.Error {
	var small *fasthttp.ErrSmallBuffer
	var netErr net.Error
	switch {
	case errors.As(err, &small) && !lineEnded:
		return fiber.NewError(fiber.StatusRequestURITooLong, "the request URL is too long")
	case errors.As(err, &small):
		return fiber.NewError(fiber.StatusRequestHeaderFieldsTooLarge, "the request headers are too large")
	case errors.Is(err, fasthttp.ErrBodyTooLarge):
		return fiber.ErrRequestEntityTooLarge // the message routes give too
	case errors.Is(err, fasthttp.ErrTimeout), errors.As(err, &netErr) && netErr.Timeout():
		return fiber.NewError(fiber.StatusRequestTimeout, "the request was not received in time")
	}
	return fiber.NewError(fiber.StatusBadRequest, "the request is not valid HTTP")
}

// commonHeaders puts the headers of every response on it.
func commonHeaders(c *fiber.Ctx) error {
	setCommonHeaders(c)
	return c.Next()
}

// setCommonHeaders sets what every response carries (API.md §12): browsers
// must not guess content types, and other sites learn no more than our
// origin from a link.
func setCommonHeaders(c *fiber.Ctx) {
	c.Set(fiber.HeaderXContentTypeOptions, "nosniff")
	c.Set(fiber.HeaderReferrerPolicy, "same-origin")
}

// headWithoutBody drops a streamed body from a HEAD answer. Routes that
// stream (the file list, the event stream) start their writer as they
// answer; fasthttp skips a HEAD body but still writes the chunked
// terminator after the headers, and those stray bytes corrupt the next
// response on a kept-alive connection. Closing the stream also stops its
// writer.
func headWithoutBody(c *fiber.Ctx) error {
	err := c.Next()
	if c.Method() == fiber.MethodHead && c.Response().IsBodyStream() {
		c.Response().ResetBody()
	}
	return err
}
