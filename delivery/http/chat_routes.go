package http

import (
	"bufio"
	"context"
	"encoding/json"
	"log/slog"
	"strings"

	"github.com/gofiber/fiber/v2"

	"mediateka/domain"
	"mediateka/usecase/chat"
)

// ChatService is what POST /api/chat needs from the chat use case.
type ChatService interface {
	Validate(r chat.Request) error
	Ask(ctx context.Context, r chat.Request) (chat.Answer, error)
	Stream(ctx context.Context, r chat.Request, emit func(chat.Event) error) error
}

type chatTurnDTO struct {
	Role string `json:"role"`
	Text string `json:"text"`
}

type chatRequestDTO struct {
	Message string        `json:"message"`
	History []chatTurnDTO `json:"history"`
	// Speak asks for the answer spoken too (API.md §2): audio_url.
	Speak bool `json:"speak"`
}

// chatResponseDTO is API.md §2's answer: text equals response, model is null
// when a plugin answered.
type chatResponseDTO struct {
	Response  string  `json:"response"`
	Status    string  `json:"status"`
	Text      string  `json:"text"`
	HandledBy string  `json:"handled_by"`
	Model     *string `json:"model"`
	spokenDTO
}

// spokenDTO is the answer's audio when the request asked "speak": its URL,
// or why there is none (the answer itself still stands).
type spokenDTO struct {
	AudioURL   *string      `json:"audio_url,omitempty"`
	AudioError *errorDetail `json:"audio_error,omitempty"`
}

// The SSE data objects of API.md §2, one type per kind of event.
type (
	sseStatus struct {
		Status string `json:"status"`
	}
	sseText struct {
		Text string `json:"text"`
	}
	sseDone struct {
		Done      bool    `json:"done"`
		HandledBy string  `json:"handled_by"`
		Model     *string `json:"model"`
		spokenDTO
	}
	sseError struct {
		Error errorDetail `json:"error"`
	}
)

func (s *Server) mountChat() {
	if s.deps.Chat == nil {
		return
	}
	s.app.Post("/api/chat", s.userAuth, s.chat)
}

func (s *Server) chat(c *fiber.Ctx) error {
	var body chatRequestDTO
	if err := parseJSON(c, &body); err != nil {
		return err
	}
	u, _ := CurrentUser(c)
	req := chat.Request{Caller: domain.CallerOf(u), Message: body.Message, History: make([]domain.ChatTurn, len(body.History))}
	for i, t := range body.History {
		req.History[i] = domain.ChatTurn{Role: t.Role, Text: t.Text}
	}
	speak := body.Speak && s.deps.Speech != nil
	if strings.Contains(c.Get(fiber.HeaderAccept), "text/event-stream") {
		return s.chatStream(c, req, speak)
	}
	ans, err := s.deps.Chat.Ask(c.UserContext(), req)
	if err != nil {
		return err
	}
	out := chatResponseDTO{Response: ans.Text, Status: "ok", Text: ans.Text, HandledBy: ans.HandledBy, Model: optText(ans.Model)}
	if speak {
		out.spokenDTO = s.spoken(c.UserContext(), ensureRequestID(c), ans.Text)
	}
	return c.JSON(out)
}

// spoken speaks an answer with the default engine. A speech engine that
// cannot speak now costs the person the audio, not the answer: the reason
// comes back as audio_error, and goes to the log under the request's id
// (a warning for an engine down, an error for the server's own fault).
func (s *Server) spoken(ctx context.Context, rid, text string) spokenDTO {
	f, err := s.deps.Speech.Speak(ctx, text, "")
	if err != nil {
		status, body := toResponse(err)
		level := slog.LevelWarn
		if status >= fiber.StatusInternalServerError && status != fiber.StatusServiceUnavailable {
			level = slog.LevelError
		}
		if status >= fiber.StatusInternalServerError {
			s.log.Log(context.Background(), level, "speaking a chat answer failed", "request_id", rid, "status", status, "err", err.Error())
		}
		return spokenDTO{AudioError: &body.Error}
	}
	u := f.URL()
	return spokenDTO{AudioURL: &u}
}

// chatStream answers as Server-Sent Events. A request that does not
// validate is refused with a plain error before the stream starts; later
// failures arrive as a data: {"error": …} event. The stream ends when the
// answer is done, the client leaves, or the server starts shutting down.
func (s *Server) chatStream(c *fiber.Ctx, req chat.Request, speak bool) error {
	if err := s.deps.Chat.Validate(req); err != nil {
		return err
	}
	rid := ensureRequestID(c)
	c.Set(fiber.HeaderContentType, "text/event-stream; charset=utf-8")
	c.Set(fiber.HeaderCacheControl, "no-cache")
	c.Set("X-Accel-Buffering", "no")
	// The writer runs after this handler returns, when the request's own
	// context is gone: the stream lives on the server's shutdown context.
	ctx, cancel := context.WithCancel(s.opt.Shutdown)
	c.Context().SetBodyStreamWriter(func(w *bufio.Writer) {
		defer cancel()
		var writeErr error
		var answer strings.Builder
		err := s.deps.Chat.Stream(ctx, req, func(ev chat.Event) error {
			out := toSSE(ev)
			switch d := out.(type) {
			case sseText:
				answer.WriteString(d.Text)
			case sseDone:
				if speak {
					d.spokenDTO = s.spoken(ctx, rid, answer.String())
					out = d
				}
			}
			writeErr = writeSSE(w, out)
			return writeErr
		})
		if err == nil || writeErr != nil {
			return // done, or the client left and cannot be told anything
		}
		s.sseFailed(w, "chat stream", rid, err)
	})
	return nil
}

// sseFailed ends an SSE stream that failed after it began (API.md §2,
// §10): the failure is logged under the request's id — a warning when a
// dependency is down or the server is shutting down, an error only for
// the server's own faults — and sent as a last data: {"error": …} event.
// A failure while the server shuts down is said as such, whatever it was.
func (s *Server) sseFailed(w *bufio.Writer, what, rid string, err error) {
	if s.opt.Shutdown.Err() != nil {
		err = shuttingDown(err)
	}
	status, body := toResponse(err)
	level := slog.LevelWarn
	if status >= fiber.StatusInternalServerError && status != fiber.StatusServiceUnavailable {
		level = slog.LevelError
	}
	s.log.Log(context.Background(), level, what+" failed", "request_id", rid, "status", status, "err", err.Error())
	_ = writeSSE(w, sseError(body))
}

// shuttingDown is the answer to a request the server's shutdown ended.
func shuttingDown(cause error) error {
	return domain.ErrUnavailable("unavailable", "the server is shutting down", cause)
}

func toSSE(ev chat.Event) any {
	switch {
	case ev.Done:
		return sseDone{Done: true, HandledBy: ev.HandledBy, Model: optText(ev.Model)}
	case ev.Status != "":
		return sseStatus{Status: ev.Status}
	default:
		return sseText{Text: ev.Text}
	}
}

// writeSSE writes one "data:" event and flushes it, so the client sees each
// piece as it is produced.
func writeSSE(w *bufio.Writer, ev any) error {
	raw, err := json.Marshal(ev)
	if err != nil {
		return err
	}
	if _, err := w.WriteString("data: " + string(raw) + "\n\n"); err != nil {
		return err
	}
	return w.Flush()
}
