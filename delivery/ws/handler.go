// Package ws is the rooms' WebSocket delivery (docs/API.md §6): it
// checks a join before the upgrade, so every refusal is an HTTP error
// with the API error body, then carries frames between the socket and the
// hub (usecase/control). It owns what is about sockets: the origin check,
// the read limit, read and write deadlines, ping/pong and bounded closing.
package ws

import (
	"context"
	"errors"
	"log/slog"
	"net/url"
	"strings"
	"time"

	"github.com/gofiber/contrib/websocket"
	"github.com/gofiber/fiber/v2"

	deliveryhttp "mediateka/delivery/http"
	"mediateka/domain"
	"mediateka/usecase/control"
)

// Hub is what the delivery needs from the rooms hub.
type Hub interface {
	Admit(role, room string, caller domain.Caller) (control.Ticket, error)
	Join(t control.Ticket, conn control.Conn) (*control.Client, error)
	Status(room string, caller domain.Caller) (control.RoomStatus, error)
}

// Defaults of Options.
const (
	DefaultReadLimit  = 64 << 10
	DefaultPongWait   = 60 * time.Second
	DefaultWriteWait  = 10 * time.Second
	DefaultCloseGrace = time.Second
	// DefaultTokenRecheck is how often a connection's token is checked
	// again (config control.token_recheck).
	DefaultTokenRecheck = 30 * time.Second
)

// ClosePolicy (1008, policy violation) closes a connection whose token
// or account no longer admits it to its room.
const ClosePolicy = 1008

// Options configure the delivery; zero values take the defaults.
type Options struct {
	// AllowedOrigins are the browser origins (scheme://host[:port]) that
	// may open a room besides the server's own; "*" admits every origin.
	// A request without Origin (not a browser) is always admitted.
	AllowedOrigins []string
	// ReadLimit is the largest message; a larger one closes the socket
	// with 1009.
	ReadLimit int64
	// PongWait is how long a peer may stay silent (no message, no pong)
	// before it is dropped; it must exceed the hub's PingEvery.
	PongWait time.Duration
	// WriteWait bounds one write to the peer.
	WriteWait time.Duration
	// CloseGrace is how long a closing peer gets to answer the close
	// frame before the connection is cut.
	CloseGrace time.Duration
	// Verifier checks again, every TokenRecheck, the token a connection
	// joined with; nil checks only at the join.
	Verifier     TokenVerifier
	TokenRecheck time.Duration
	Logger       *slog.Logger
}

// TokenVerifier is the one token verifier of the server (auth.Service).
type TokenVerifier interface {
	VerifyToken(ctx context.Context, token string) (domain.User, error)
}

func (o Options) withDefaults() Options {
	if o.ReadLimit <= 0 {
		o.ReadLimit = DefaultReadLimit
	}
	if o.PongWait <= 0 {
		o.PongWait = DefaultPongWait
	}
	if o.WriteWait <= 0 {
		o.WriteWait = DefaultWriteWait
	}
	if o.CloseGrace <= 0 {
		o.CloseGrace = DefaultCloseGrace
	}
	if o.TokenRecheck <= 0 {
		o.TokenRecheck = DefaultTokenRecheck
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return o
}

// ErrOriginNotAllowed refuses a browser page of another origin.
var ErrOriginNotAllowed = domain.NewError(domain.KindForbidden, "origin_not_allowed", "pages of this origin may not open rooms on this server")

// errUpgradeRequired answers a plain HTTP request on the WebSocket route.
var errUpgradeRequired = fiber.NewError(fiber.StatusUpgradeRequired, "Upgrade Required: this endpoint speaks WebSocket")

// Handler serves GET /api/control/ws and GET /api/control/status.
type Handler struct {
	hub Hub
	opt Options
}

// New builds the handler over the hub.
func New(hub Hub, opt Options) *Handler {
	return &Handler{hub: hub, opt: opt.withDefaults()}
}

// ticketKey is the Locals key that carries the admitted join (a joined)
// into the upgraded connection.
const ticketKey = "mediateka.room_ticket"

// joined is an admitted join and the token it was admitted with ("" for
// an anonymous one).
type joined struct {
	ticket control.Ticket
	token  string
}

// Mount adds the routes; optionalUser loads the caller when the request
// has a token (deliveryhttp.Routes).
func (h *Handler) Mount(r fiber.Router, optionalUser fiber.Handler) {
	r.Get("/api/control/ws", h.checkOrigin, optionalUser, h.admit, websocket.New(h.serve, websocket.Config{
		HandshakeTimeout: h.opt.WriteWait,
		RecoverHandler:   h.recoverPanic,
	}))
	r.Get("/api/control/status", optionalUser, h.status)
}

// checkOrigin admits requests without Origin (not a browser), the
// server's own pages (the Origin's host is the request's Host; the scheme
// is not compared, as a TLS proxy may sit in front), and AllowedOrigins.
func (h *Handler) checkOrigin(c *fiber.Ctx) error {
	origin := c.Get(fiber.HeaderOrigin)
	if origin == "" {
		return c.Next()
	}
	for _, o := range h.opt.AllowedOrigins {
		if o == "*" || strings.EqualFold(strings.TrimSuffix(o, "/"), origin) {
			return c.Next()
		}
	}
	if u, err := url.Parse(origin); err == nil && u.Host != "" && strings.EqualFold(u.Host, string(c.Request().Host())) {
		return c.Next()
	}
	return ErrOriginNotAllowed
}

// admit applies the join rules while a refusal can still be an HTTP
// answer, then requires the upgrade.
func (h *Handler) admit(c *fiber.Ctx) error {
	t, err := h.hub.Admit(c.Query("role"), c.Query("room"), callerOf(c))
	if err != nil {
		return err
	}
	if !websocket.IsWebSocketUpgrade(c) {
		return errUpgradeRequired
	}
	c.Locals(ticketKey, joined{ticket: t, token: deliveryhttp.CurrentToken(c)})
	return c.Next()
}

// serve runs one upgraded connection: join, read until the end, leave.
// It returns only when the hub no longer touches the socket, because the
// socket is released when it returns; the deferred leave holds even when
// a message panics.
func (h *Handler) serve(conn *websocket.Conn) {
	j, _ := conn.Locals(ticketKey).(joined)
	s := newSocket(conn.Conn, h.opt)
	defer s.abort()
	client, err := h.hub.Join(j.ticket, s)
	if err != nil {
		s.Close(closeCodeOf(err), errorCode(err))
		s.read(func([]byte) {})
		return
	}
	defer client.Leave()
	defer s.abort() // before Leave: it waits for the writer, which a cut socket frees
	if j.token != "" && h.opt.Verifier != nil {
		done := make(chan struct{})
		defer close(done)
		go h.recheck(j, s, done)
	}
	s.read(client.Receive)
}

// recheck verifies the connection's token again every TokenRecheck until
// done, and closes the connection with 1008 (policy violation) once the
// token no longer passes (password changed, account deleted) or its
// account may no longer be in the room (lost its admin role), as a new
// join would be refused.
func (h *Handler) recheck(j joined, s *socket, done <-chan struct{}) {
	tick := time.NewTicker(h.opt.TokenRecheck)
	defer tick.Stop()
	for {
		select {
		case <-done:
			return
		case <-tick.C:
		}
		ctx, cancel := context.WithTimeout(context.Background(), max(h.opt.TokenRecheck, recheckTimeout))
		u, err := h.opt.Verifier.VerifyToken(ctx, j.token)
		cancel()
		if err == nil {
			_, err = h.hub.Admit(string(j.ticket.Role), j.ticket.Room, domain.CallerOf(u))
		}
		switch {
		case err == nil:
		case stumbled(err):
			// The check could not be made (a busy store, a slow disk): that
			// says nothing against the token, so the viewer keeps watching
			// and the next tick checks again.
			h.opt.Logger.Warn("a room connection's token could not be checked again", "err", err.Error())
		default:
			s.Close(ClosePolicy, errorCode(err))
			return
		}
	}
}

// recheckTimeout is the least time one recheck may take.
const recheckTimeout = 5 * time.Second

// stumbled reports whether a recheck failed for want of an answer rather
// than because the token or the account was refused.
func stumbled(err error) bool {
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return true
	}
	k := domain.KindOf(err)
	return k == domain.KindInternal || k == domain.KindUnavailable
}

// closeCodeOf is the close code of a join refused after the upgrade.
func closeCodeOf(err error) int {
	if domain.IsKind(err, domain.KindUnavailable) {
		return control.CloseGoingAway
	}
	return control.CloseTooSlow
}

// errorCode is the reason of that close: the error's stable code.
func errorCode(err error) string {
	var de *domain.Error
	if errors.As(err, &de) {
		return de.Code
	}
	return "internal"
}

// recoverPanic logs a panic of a connection's handler; the socket closes.
func (h *Handler) recoverPanic(*websocket.Conn) {
	if r := recover(); r != nil {
		h.opt.Logger.Error("panic in a room connection", "panic", r)
	}
}

// callerOf is who the request's token names; the zero Caller without one.
func callerOf(c *fiber.Ctx) domain.Caller {
	if u, ok := deliveryhttp.CurrentUser(c); ok {
		return domain.CallerOf(u)
	}
	return domain.Caller{}
}
