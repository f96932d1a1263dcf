package http

import (
	"bufio"
	"encoding/json"
	"fmt"
	"time"

	"github.com/gofiber/fiber/v2"

	"mediateka/usecase/event"
)

// EventSource lets a listener follow the library's events.
type EventSource interface {
	Subscribe(buffer int) *event.Subscription
}

// eventHeartbeat keeps idle connections (and proxies) from timing out.
const eventHeartbeat = 20 * time.Second

// mountEvents adds GET /api/events, the admins' Server-Sent Events stream.
func (s *Server) mountEvents(app *fiber.App) {
	if s.deps.Events == nil {
		return
	}
	app.Get("/api/events", s.queryAuth, requireAdmin, s.events)
}

// events streams every event as "event: <name>" plus a JSON "data" line
// with the event's name, time and fields. The subscription starts before
// the handler returns, so nothing published after the request is
// accepted is missed. The stream ends when the client leaves, when it
// falls too far behind, or when the server shuts down.
func (s *Server) events(c *fiber.Ctx) error {
	sub := s.deps.Events.Subscribe(256)
	shutdown := s.opt.Shutdown
	c.Set(fiber.HeaderContentType, "text/event-stream")
	c.Set(fiber.HeaderCacheControl, "no-cache")
	c.Set("X-Accel-Buffering", "no")
	c.Context().SetBodyStreamWriter(func(w *bufio.Writer) {
		defer sub.Close()
		tick := time.NewTicker(eventHeartbeat)
		defer tick.Stop()
		if _, err := w.WriteString("retry: 3000\n: connected\n\n"); err != nil || w.Flush() != nil {
			return
		}
		for {
			select {
			case <-shutdown.Done():
				return
			case ev, ok := <-sub.C():
				if !ok {
					return
				}
				if writeEvent(w, ev) != nil {
					return
				}
			case <-tick.C:
				if _, err := w.WriteString(": keep-alive\n\n"); err != nil || w.Flush() != nil {
					return
				}
			}
		}
	})
	return nil
}

// writeEvent writes one message as "event: <name>" and a data line with
// the event's fields plus "event" and "at". The fields go through a map so
// the keys come out sorted, as they always have: the wire format stays the
// same whatever order a struct declares its fields in.
func writeEvent(w *bufio.Writer, m event.Message) error {
	raw, err := json.Marshal(m.Event)
	if err != nil {
		return err
	}
	body := map[string]json.RawMessage{}
	if err := json.Unmarshal(raw, &body); err != nil {
		return err
	}
	name := m.Event.EventName()
	if body["event"], err = json.Marshal(name); err != nil {
		return err
	}
	if body["at"], err = json.Marshal(m.At.UTC().Format(time.RFC3339Nano)); err != nil {
		return err
	}
	if raw, err = json.Marshal(body); err != nil {
		return err
	}
	if _, err := fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, raw); err != nil {
		return err
	}
	return w.Flush()
}
