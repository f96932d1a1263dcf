package http

import (
	"context"
	"errors"
	"io"
	"math"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"mediateka/domain"
	"mediateka/usecase/playback"
)

// Playback is what the play, remux and thumbnail routes need from the
// playback use case, and the check of play tokens (st=).
type Playback interface {
	Play(ctx context.Context, u domain.User, id int64) (playback.Info, error)
	// Authorize is the account a play token lets open entry id.
	Authorize(ctx context.Context, token string, id int64) (domain.User, error)
	Remux(ctx context.Context, id int64, req playback.RemuxRequest) (io.ReadCloser, error)
	RemuxStart(ctx context.Context, id int64, req playback.RemuxRequest) (float64, error)
	Thumbnail(ctx context.Context, id int64) (playback.Thumbnail, error)
}

// remuxRetryAfter is the Retry-After of a remux refused for want of a
// slot, in seconds.
const remuxRetryAfter = "5"

// mediaAuth admits a request to a file of entry :id (stream, subtitles,
// thumbnail) by a play token in st= for that entry, or like every other
// route by a session token (header or ?token=). A session token sent
// along with a play token must be the same account's.
func (s *Server) mediaAuth(c *fiber.Ctx) error {
	st := c.Query("st")
	if st == "" || s.deps.Playback == nil {
		return s.queryAuth(c)
	}
	id, err := mediaID(c)
	if err != nil {
		return err
	}
	u, err := s.deps.Playback.Authorize(c.UserContext(), st, id)
	if err != nil {
		return err
	}
	token, ok := tokenOf(c, true)
	if !ok {
		return domain.ErrUnauthorized
	}
	if token != "" {
		session, err := s.deps.Auth.VerifyToken(c.UserContext(), token)
		if err != nil {
			return err
		}
		if session.ID != u.ID {
			return playback.ErrInvalidPlayToken
		}
	}
	c.Locals(userKey, u)
	return c.Next()
}

// mediaPlay answers GET /api/media/{id}/play for the signed-in account.
// The answer holds play tokens, so no cache keeps it.
func (s *Server) mediaPlay(c *fiber.Ctx) error {
	id, err := mediaID(c)
	if err != nil {
		return err
	}
	u, ok := CurrentUser(c)
	if !ok {
		return domain.ErrUnauthorized
	}
	info, err := s.deps.Playback.Play(c.UserContext(), u, id)
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.JSON(info)
}

// wantsRemux reads ?remux=: 1 or true asks for the remux, absent, 0 or
// false for the file itself.
func wantsRemux(c *fiber.Ctx) (bool, error) {
	switch c.Query("remux") {
	case "", "0", "false":
		return false, nil
	case "1", "true":
		return true, nil
	}
	return false, domain.ErrInvalid("remux must be 1 or 0", map[string]string{"remux": "must be 1 or 0"})
}

// remuxRequest reads ?audio= (a track number from 0; absent: the file's
// default) and ?start= (seconds, 0 or more; absent: 0).
func remuxRequest(c *fiber.Ctx) (playback.RemuxRequest, error) {
	var req playback.RemuxRequest
	if a := c.Query("audio"); a != "" {
		n, err := strconv.Atoi(a)
		if err != nil || n < 0 {
			return req, domain.ErrInvalid("audio must be a track number from 0", map[string]string{"audio": "must be a whole number, 0 or more"})
		}
		req.Audio = &n
	}
	if v := c.Query("start"); v != "" {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f < 0 || math.IsNaN(f) || math.IsInf(f, 0) {
			return req, domain.ErrInvalid("start must be a number of seconds, 0 or more", map[string]string{"start": "must be a number of seconds, 0 or more"})
		}
		req.Start = f
	}
	return req, nil
}

// mediaRemux streams entry id as fragmented MP4 made by ffmpeg while it is
// sent (200, no Range: a seek asks again with start=). HEAD runs no ffmpeg
// and tells in X-Remux-Start where the stream would really begin. The
// process ends when the client goes away (the write fails and fasthttp
// closes the body) or when the server shuts down.
func (s *Server) mediaRemux(c *fiber.Ctx, id int64) error {
	req, err := remuxRequest(c)
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, "video/mp4")
	c.Set(fiber.HeaderCacheControl, "no-store")
	c.Set(fiber.HeaderAcceptRanges, "none")
	if c.Method() == fiber.MethodHead {
		start, err := s.deps.Playback.RemuxStart(c.UserContext(), id, req)
		if err != nil {
			return err
		}
		c.Set("X-Remux-Start", strconv.FormatFloat(start, 'f', 3, 64))
		return nil
	}
	ctx, cancel := context.WithCancel(s.opt.Shutdown)
	out, err := s.deps.Playback.Remux(ctx, id, req)
	if err != nil {
		cancel()
		if errors.Is(err, playback.ErrRemuxBusy) {
			c.Set(fiber.HeaderRetryAfter, remuxRetryAfter)
		}
		return err
	}
	c.Status(fiber.StatusOK)
	c.Context().Response.ImmediateHeaderFlush = true
	c.Context().SetBodyStream(remuxBody{ReadCloser: out, cancel: cancel}, -1)
	return nil
}

// remuxBody is a remux as a response body: fasthttp sends each piece as
// soon as ffmpeg writes it and closes the body when the response ends or
// the client leaves, which ends the process.
type remuxBody struct {
	io.ReadCloser
	cancel context.CancelFunc
}

// Close ends the remux.
func (b remuxBody) Close() error {
	err := b.ReadCloser.Close()
	b.cancel()
	return err
}

// mediaThumbnail answers a JPEG picture of entry id, kept by the browser
// for a day and revalidated by its ETag.
func (s *Server) mediaThumbnail(c *fiber.Ctx) error {
	id, err := mediaID(c)
	if err != nil {
		return err
	}
	th, err := s.deps.Playback.Thumbnail(c.UserContext(), id)
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderETag, th.ETag)
	c.Set(fiber.HeaderCacheControl, "private, max-age=86400")
	if c.Get(fiber.HeaderIfNoneMatch) == th.ETag {
		return c.SendStatus(fiber.StatusNotModified)
	}
	c.Set(fiber.HeaderContentType, "image/jpeg")
	return c.Send(th.JPEG)
}
