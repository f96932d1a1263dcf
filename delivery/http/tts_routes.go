package http

import (
	"bufio"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"sync"

	"github.com/gofiber/fiber/v2"

	"mediateka/domain"
	"mediateka/usecase/tts"
)

// Speech is what /api/tts (API.md §10) and the chat's "speak" need from the
// speech use case.
type Speech interface {
	Prepare(ctx context.Context, r tts.Request) (tts.Speech, error)
	Cached(sp tts.Speech) (tts.File, bool)
	SynthesizeTo(ctx context.Context, sp tts.Speech, w io.Writer) (tts.File, error)
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

// ttsSynthesize answers the audio from the cache, or, the first time,
// as it is made (and cached meanwhile): the listener need not wait for the
// whole text, and one who leaves stops the synthesis. The first time is
// not to be kept by the browser (no-store): until it ends, nobody knows
// it is whole; the file it becomes is what may be kept.
func (s *Server) ttsSynthesize(c *fiber.Ctx) error {
	sp, err := s.deps.Speech.Prepare(c.UserContext(), ttsRequest(c))
	if err != nil {
		return err
	}
	f, ok := s.deps.Speech.Cached(sp)
	if ok {
		err := sendAudio(c, f)
		if domain.KindOf(err) != domain.KindNotFound {
			return err
		}
		// Evicted since Cached looked: made again below.
	}
	c.Set("X-TTS-File", f.Name)
	c.Set(fiber.HeaderContentType, sp.Format.ContentType())
	c.Set(fiber.HeaderCacheControl, "no-store")
	return s.streamProduced(c, "tts synthesis", func(ctx context.Context, w io.Writer) error {
		_, err := s.deps.Speech.SynthesizeTo(ctx, sp, w)
		return err
	})
}

func (s *Server) ttsFile(c *fiber.Ctx) error {
	f, err := s.deps.Speech.CachedFile(c.Params("filename"))
	if err != nil {
		return err
	}
	return sendAudio(c, f)
}

// sendAudio serves a cached audio file: its name is the hash of what was
// spoken, so it never changes and may be cached privately for long. The
// file is opened first and served from the open handle, so an eviction
// after the open cannot cut it; one before the open is the plain 404 of
// an absent file (never a path of the server's disk).
func sendAudio(c *fiber.Ctx, f tts.File) error {
	file, err := os.Open(f.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return domain.ErrNotFound("audio file " + f.Name)
	}
	if err != nil {
		return err
	}
	info, err := file.Stat()
	if err != nil {
		_ = file.Close()
		return err
	}
	c.Set("X-TTS-File", f.Name)
	c.Set(fiber.HeaderCacheControl, "private, max-age=86400, immutable")
	return serveRange(c, file, info.Size(), info.ModTime(), f.Format.ContentType())
}

// ttsStreamAudio answers one chunked audio stream, written sentence by
// sentence as the engine speaks. Everything a client can get wrong is
// refused with a status before the stream starts, and so is an engine
// that fails before its first byte; a failure later can only end the
// stream early (and is logged).
func (s *Server) ttsStreamAudio(c *fiber.Ctx) error {
	sp, err := s.deps.Speech.Prepare(c.UserContext(), ttsRequest(c))
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, sp.Format.ContentType())
	c.Set(fiber.HeaderCacheControl, "no-store")
	c.Set("X-Accel-Buffering", "no")
	return s.streamProduced(c, "tts stream", func(ctx context.Context, w io.Writer) error {
		return s.deps.Speech.StreamAudio(ctx, sp, w)
	})
}

// streamProduced answers with what produce writes, from its first byte
// on. Until that byte a failure is still an error status with the API's
// body; after it the bytes go out as they come, each write a chunk sent at
// once. A client that leaves fails a chunk's write; fasthttp then closes
// the body, which fails produce's next write and cancels its context,
// stopping it (and any process behind it). A producer that fails after its first byte (a killed espeak-ng, a remote
// piece refused, the server shutting down) closes the connection without
// the chunked body's last chunk: the client reads an error, not a short
// answer that looks whole. produce runs on the server's shutdown context:
// fasthttp gives a request no context that ends when its client leaves, so
// the closed body is the only sign of it.
func (s *Server) streamProduced(c *fiber.Ctx, what string, produce func(ctx context.Context, w io.Writer) error) error {
	rid := ensureRequestID(c)
	ctx, cancel := context.WithCancel(s.opt.Shutdown)
	pr, pw := io.Pipe()
	first := make(chan error, 1)
	go func() {
		fw := &firstWrite{w: pw, first: first}
		err := produce(ctx, fw)
		fw.signal(err)
		pw.CloseWithError(err)
	}()
	var err error
	select {
	case err = <-first:
	case <-s.opt.Shutdown.Done():
		err = shuttingDown(nil)
	}
	if err != nil {
		cancel()
		_ = pr.CloseWithError(err)
		return err
	}
	// fasthttp reads the body from producedBody and sends each read as a
	// chunk at once; a read error (the producer failed) ends the answer
	// without its last chunk and closes the connection, and Close (the
	// answer sent, or the client gone) stops the producer.
	c.Context().SetBodyStream(&producedBody{r: pr, stop: cancel, failed: func(err error) {
		if ctx.Err() == nil {
			s.log.Warn(what+" ended early", "request_id", rid, "err", err.Error())
		}
	}}, -1)
	return nil
}

// errAnswerClosed stops a producer whose answer was closed before it
// ended: its client left.
var errAnswerClosed = errors.New("the answer was closed: the client left")

// producedBody is the body of a produced answer, read by fasthttp.
type producedBody struct {
	r      *io.PipeReader
	stop   context.CancelFunc
	failed func(error)
}

func (b *producedBody) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if err != nil && err != io.EOF {
		b.failed(err)
	}
	return n, err
}

// Close is called once fasthttp is done with the body: sent whole, cut
// short, or its client gone; a producer still running is stopped.
func (b *producedBody) Close() error {
	b.stop()
	return b.r.CloseWithError(errAnswerClosed)
}

// firstWrite tells first, once, that the producer wrote its first byte or
// ended without one (with its error, or nil for an empty answer).
type firstWrite struct {
	w     io.Writer
	first chan<- error
	once  sync.Once
}

func (f *firstWrite) signal(err error) { f.once.Do(func() { f.first <- err }) }

func (f *firstWrite) Write(p []byte) (int, error) {
	if len(p) > 0 {
		f.signal(nil)
	}
	return f.w.Write(p)
}

type ttsPieceDTO struct {
	Index    int    `json:"index"`
	Text     string `json:"text"`
	AudioURL string `json:"audio_url"`
}

// ttsStreamText answers SSE: one event per sentence once its audio file is
// ready, then {"done": true}. The first sentence is made before the stream
// starts, so an engine that cannot speak at all is still an error status
// (503 tts_unavailable); a failure after it is a data: {"error": …} event.
func (s *Server) ttsStreamText(c *fiber.Ctx) error {
	sp, err := s.deps.Speech.Prepare(c.UserContext(), ttsRequest(c))
	if err != nil {
		return err
	}
	rid := ensureRequestID(c)
	// The speech runs ahead of the writer by one sentence at most: emit
	// hands each piece over and waits for the writer to take it.
	ctx, cancel := context.WithCancel(s.opt.Shutdown)
	pieces := make(chan tts.Piece)
	end := make(chan error, 1)
	go func() {
		end <- s.deps.Speech.StreamText(ctx, sp, func(p tts.Piece) error {
			select {
			case pieces <- p:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		})
	}()
	var first *tts.Piece
	select {
	case p := <-pieces:
		first = &p
	case err = <-end:
	case <-s.opt.Shutdown.Done():
		err = shuttingDown(nil)
	}
	if err != nil {
		cancel()
		if s.opt.Shutdown.Err() != nil {
			err = shuttingDown(err)
		}
		return err
	}
	c.Set(fiber.HeaderContentType, "text/event-stream; charset=utf-8")
	c.Set(fiber.HeaderCacheControl, "no-cache")
	c.Set("X-Accel-Buffering", "no")
	c.Context().SetBodyStreamWriter(func(w *bufio.Writer) {
		defer cancel() // a writer gone stops the speech
		piece := func(p tts.Piece) error {
			return writeSSE(w, ttsPieceDTO{Index: p.Index, Text: p.Text, AudioURL: p.File.URL()})
		}
		if first != nil && piece(*first) != nil {
			return // the client left
		}
		for {
			select {
			case p := <-pieces:
				if piece(p) != nil {
					return
				}
			case err := <-end:
				if err == nil {
					_ = writeSSE(w, fiber.Map{"done": true})
					return
				}
				s.sseFailed(w, "tts text stream", rid, err)
				return
			}
		}
	})
	return nil
}
