package http

import (
	"bufio"
	"context"
	"io"
	"log/slog"

	"github.com/gofiber/fiber/v2"

	"mediateka/domain"
	"mediateka/usecase/tts"
)

// Speech is what /api/tts (API.md §10) and the chat's "speak" need from the
// speech use case.
type Speech interface {
	Prepare(ctx context.Context, r tts.Request) (tts.Speech, error)
	Synthesize(ctx context.Context, sp tts.Speech) (tts.File, error)
	StreamAudio(ctx context.Context, sp tts.Speech, w io.Writer) error
	StreamText(ctx context.Context, sp tts.Speech, emit func(tts.Piece) error) error
	CachedFile(name string) (tts.File, error)
	Engines(ctx context.Context) []tts.EngineInfo
	Speak(ctx context.Context, text string, format domain.AudioFormat) (tts.File, error)
}

// The routes take ?token= besides the header because an <audio> element
// or an EventSource cannot send one (API.md §1, transport).
func (s *Server) mountTTS() {
	if s.deps.Speech == nil {
		return
	}
	g := s.app.Group("/api/tts")
	g.Get("/voices", s.userAuth, s.ttsVoices)
	g.Get("/synthesize", s.queryAuth, s.ttsSynthesize)
	g.Get("/stream-audio", s.queryAuth, s.ttsStreamAudio)
	g.Get("/stream-text", s.queryAuth, s.ttsStreamText)
	g.Get("/file/:filename", s.queryAuth, s.ttsFile)
}

// ttsRequest reads the parameters every TTS route shares.
func ttsRequest(c *fiber.Ctx) tts.Request {
	return tts.Request{Text: c.Query("text"), MediaID: c.Query("media_id"), Field: c.Query("field"),
		Engine: c.Query("engine"), Voice: c.Query("voice"), Format: c.Query("format")}
}

type ttsEngineDTO struct {
	Name          string            `json:"name"`
	Default       bool              `json:"default"`
	Available     bool              `json:"available"`
	Message       *string           `json:"message"`
	Voices        []domain.Voice    `json:"voices"`
	DefaultVoices map[string]string `json:"default_voices"`
	Formats       []string          `json:"formats"`
	DefaultFormat string            `json:"default_format"`
}

func (s *Server) ttsVoices(c *fiber.Ctx) error {
	engines := s.deps.Speech.Engines(c.UserContext())
	out := make([]ttsEngineDTO, len(engines))
	def := ""
	for i, e := range engines {
		d := ttsEngineDTO{Name: e.Name, Default: e.Default, Available: e.Unavailable == nil, Voices: e.Voices,
			DefaultVoices: e.DefaultVoices, DefaultFormat: string(e.DefaultFormat), Formats: []string{}}
		if d.DefaultVoices == nil {
			d.DefaultVoices = map[string]string{}
		}
		if e.Unavailable != nil {
			_, body := toResponse(e.Unavailable)
			d.Message = &body.Error.Message
		}
		for _, f := range e.Formats {
			d.Formats = append(d.Formats, string(f))
		}
		if e.Default {
			def = e.Name
		}
		out[i] = d
	}
	return c.JSON(fiber.Map{"default_engine": def, "engines": out})
}

// ttsSynthesize answers the whole audio from the cache, made first when
// it is not there.
func (s *Server) ttsSynthesize(c *fiber.Ctx) error {
	sp, err := s.deps.Speech.Prepare(c.UserContext(), ttsRequest(c))
	if err != nil {
		return err
	}
	f, err := s.deps.Speech.Synthesize(c.UserContext(), sp)
	if err != nil {
		return err
	}
	return sendAudio(c, f)
}

func (s *Server) ttsFile(c *fiber.Ctx) error {
	f, err := s.deps.Speech.CachedFile(c.Params("filename"))
	if err != nil {
		return err
	}
	return sendAudio(c, f)
}

// sendAudio serves a cached audio file: its name is the hash of what was
// spoken, so it never changes and may be cached privately for long.
func sendAudio(c *fiber.Ctx, f tts.File) error {
	c.Set("X-TTS-File", f.Name)
	c.Set(fiber.HeaderCacheControl, "private, max-age=86400, immutable")
	if err := c.SendFile(f.Path); err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, f.Format.ContentType())
	return nil
}

// ttsStreamAudio answers one chunked audio stream, written sentence by
// sentence as the engine speaks. Everything a client can get wrong is
// refused with a status before the stream starts; a failure later can
// only end the stream early (and is logged).
func (s *Server) ttsStreamAudio(c *fiber.Ctx) error {
	sp, err := s.deps.Speech.Prepare(c.UserContext(), ttsRequest(c))
	if err != nil {
		return err
	}
	rid := ensureRequestID(c)
	c.Set(fiber.HeaderContentType, sp.Format.ContentType())
	c.Set(fiber.HeaderCacheControl, "no-store")
	c.Set("X-Accel-Buffering", "no")
	// The writer runs after this handler returns: the stream lives on the
	// server's shutdown context, and a client that leaves fails the next
	// write, which stops the engine and its processes.
	ctx, cancel := context.WithCancel(s.opt.Shutdown)
	c.Context().SetBodyStreamWriter(func(w *bufio.Writer) {
		defer cancel()
		if err := s.deps.Speech.StreamAudio(ctx, sp, flushWriter{w}); err != nil && ctx.Err() == nil {
			s.log.Warn("tts stream ended early", "request_id", rid, "err", err.Error())
		}
	})
	return nil
}

// flushWriter sends every write at once: audio is worth hearing the
// moment it is made, and a failed flush is how a departed client shows.
type flushWriter struct{ w *bufio.Writer }

func (f flushWriter) Write(p []byte) (int, error) {
	n, err := f.w.Write(p)
	if err == nil {
		err = f.w.Flush()
	}
	return n, err
}

type ttsPieceDTO struct {
	Index    int    `json:"index"`
	Text     string `json:"text"`
	AudioURL string `json:"audio_url"`
}

// ttsStreamText answers SSE: one event per sentence once its audio file is
// ready, then {"done": true}; a failure midway is a data: {"error": …}
// event.
func (s *Server) ttsStreamText(c *fiber.Ctx) error {
	sp, err := s.deps.Speech.Prepare(c.UserContext(), ttsRequest(c))
	if err != nil {
		return err
	}
	rid := ensureRequestID(c)
	c.Set(fiber.HeaderContentType, "text/event-stream; charset=utf-8")
	c.Set(fiber.HeaderCacheControl, "no-cache")
	c.Set("X-Accel-Buffering", "no")
	ctx, cancel := context.WithCancel(s.opt.Shutdown)
	c.Context().SetBodyStreamWriter(func(w *bufio.Writer) {
		defer cancel()
		var writeErr error
		err := s.deps.Speech.StreamText(ctx, sp, func(p tts.Piece) error {
			writeErr = writeSSE(w, ttsPieceDTO{Index: p.Index, Text: p.Text, AudioURL: p.File.URL()})
			return writeErr
		})
		switch {
		case writeErr != nil:
			return // the client left
		case err == nil:
			_ = writeSSE(w, fiber.Map{"done": true})
			return
		}
		status, body := toResponse(err)
		level := slog.LevelWarn
		if status >= fiber.StatusInternalServerError && status != fiber.StatusServiceUnavailable {
			level = slog.LevelError
		}
		s.log.Log(context.Background(), level, "tts text stream failed", "request_id", rid, "status", status, "err", err.Error())
		_ = writeSSE(w, sseError(body))
	})
	return nil
}
