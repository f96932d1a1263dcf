// Package http is mediateka's Fiber delivery: routes, middleware, DTOs and
// the one error handler. Handlers parse and validate a request, make one
// use-case call and shape the answer; they hold no business rules.
package http

import (
	"context"
	"log/slog"
	"net"
	nethttp "net/http"
	"net/netip"
	"sync"
	"time"

	"github.com/gofiber/fiber/v2"

	"mediateka/domain"
	"mediateka/usecase/auth"
)

// Authenticator is what the auth routes need from the auth use case.
type Authenticator interface {
	TokenVerifier
	Login(ctx context.Context, email, password, remote string) (auth.Login, error)
	ChangePassword(ctx context.Context, u domain.User, current, next string) error
}

// GoogleSignIn is the Google OAuth flow. Complete ends at a one-time code
// that Exchange trades for a token, so no token travels in a URL; the code
// comes with a binding secret that only the same browser's cookie carries
// back, so a code sent to someone else as a link is worthless.
type GoogleSignIn interface {
	Enabled() bool
	StateTTL() time.Duration
	Begin(remote string) (redirect, state string, err error)
	Complete(ctx context.Context, code, state, cookieState string) (oneTimeCode, binding string, err error)
	Exchange(ctx context.Context, code, binding, remote string) (auth.Login, error)
}

// TelegramSignIn is the Telegram Mini App login and the account link
// (API.md §1). Without a bot token its calls answer 503.
type TelegramSignIn interface {
	Login(ctx context.Context, initData, remote string) (auth.Login, error)
	NewLinkCode(ctx context.Context, u domain.User) (auth.LinkCode, error)
	LinkInitData(ctx context.Context, u domain.User, initData string) (domain.User, error)
}

// Deps are the use cases the routes call. A nil optional dependency leaves
// its routes answering 404, never a fake 200.
type Deps struct {
	Auth    Authenticator
	Google  GoogleSignIn
	Chat    ChatService
	Admin   AdminService
	Keys    KeyService
	Catalog Catalog
	Library Library
	Events  EventSource
	// Classify is nil when the library is not built; without a model it is
	// present and answers 503 ai_unavailable.
	Classify Classifier
	// RAG is semantic search: /rag/* of the administration and POST
	// /api/media/search; nil: none of these routes.
	RAG RAG
	// Control mounts the rooms' routes (delivery/ws); nil: none.
	Control Routes
	// Playback answers /play, remuxes and thumbnails and checks play
	// tokens; nil: /play and /thumbnail answer 404 and st= is not taken.
	Playback Playback
	// Torrents is the torrent client's use case (API.md §5).
	Torrents TorrentService
	// TorrentSearch asks the Torznab indexers (API.md §5, search).
	TorrentSearch TorrentSearcher
	// Watching is the signed-in account's watching state (user_state,
	// progress, continue); nil: no such routes and user_state null.
	Watching Watching
	// Speech speaks text aloud (/api/tts, the chat's "speak"); nil: no
	// /api/tts routes and "speak" is ignored.
	Speech Speech

	// Logs is the administrator's log folder (API.md §9); nil: no routes.
	Logs LogService
	// Telegram is the Mini App login and the account link; nil: their
	// routes answer 404.
	Telegram TelegramSignIn
	// TelegramWebhook receives the bot's updates in webhook mode at
	// TelegramWebhookPath; nil: no such route.
	TelegramWebhook nethttp.Handler
	// Users is the administrators' user management (/api/admin/users,
	// API.md §7); nil: no such routes.
	Users UserAdmin
}

// Routes are routes that live in a delivery package of their own and
// mount themselves on this server: the rooms' WebSocket and status
// (delivery/ws). optionalUser is the server's middleware that loads the
// user when the request carries a token (header or ?token=), through the
// one token verifier, and refuses a bad token with 401; without a token
// the request goes on anonymously.
type Routes interface {
	Mount(r fiber.Router, optionalUser fiber.Handler)
}

// Options configure the server.
type Options struct {
	Version     string
	BodyLimit   int
	ReadTimeout time.Duration
	// WriteTimeout is how long one write to a client may stall (see
	// stallListener); IdleTimeout how long a kept-alive connection waits
	// for its next request.
	WriteTimeout time.Duration
	IdleTimeout  time.Duration
	IndexPath    string
	Logger       *slog.Logger
	// TrustedProxies are the reverse proxies whose X-Forwarded-For names the
	// client (config trusted_proxies); empty: the TCP peer is the client.
	TrustedProxies []netip.Prefix
	// Shutdown is cancelled when the server starts shutting down, so
	// long-lived streams (SSE, WebSocket) end instead of holding it open.
	Shutdown context.Context
}

// Server is the HTTP delivery.
type Server struct {
	app       *fiber.App
	deps      Deps
	opt       Options
	log       *slog.Logger
	userAuth  fiber.Handler // bearer header only
	queryAuth fiber.Handler // bearer header or ?token=
	client    clientAddr
	// bodyWriters are the buffers sendJSON writes answers through.
	bodyWriters sync.Pool
}

// New builds the Fiber app with its middleware and every route.
func New(deps Deps, opt Options) *Server {
	if opt.Logger == nil {
		opt.Logger = slog.New(slog.DiscardHandler)
	}
	if opt.Shutdown == nil {
		opt.Shutdown = context.Background()
	}
	s := &Server{deps: deps, opt: opt, log: opt.Logger, client: clientAddr{trusted: opt.TrustedProxies}}
	s.app = fiber.New(fiber.Config{
		AppName:               "mediateka",
		BodyLimit:             opt.BodyLimit,
		ReadTimeout:           opt.ReadTimeout,
		IdleTimeout:           opt.IdleTimeout,
		ReadBufferSize:        maxHeaderBytes,
		ErrorHandler:          errorHandler(opt.Logger),
		DisableStartupMessage: true,
		StreamRequestBody:     false,
	})
	s.handleUnreadableRequests()
	s.app.Use(requestID(), commonHeaders, headWithoutBody, accessLog(opt.Logger, s.client), recoverer(opt.Logger))
	s.userAuth = newAuthMiddleware(deps.Auth, false)
	s.queryAuth = newAuthMiddleware(deps.Auth, true)
	s.routes()
	return s
}

// Serve answers requests on ln until the app shuts down. Each write to a
// client gets its own WriteTimeout deadline, so a client that stops
// reading is dropped while a long stream it keeps reading is not.
func (s *Server) Serve(ln net.Listener) error {
	return s.app.Listener(stallListener{Listener: ln, timeout: s.opt.WriteTimeout})
}

// App exposes the Fiber app for listening and for app.Test in tests.
func (s *Server) App() *fiber.App { return s.app }

// Router exposes the root router so tests can mount extra routes (a
// panicking route, a slow one) on a fully configured server.
func (s *Server) Router() fiber.Router { return s.app }

// RequireUser is the bearer-token middleware, for routes added from outside.
func (s *Server) RequireUser() fiber.Handler { return s.userAuth }

// RequireUserOrQuery is RequireUser that also accepts ?token= (for routes a
// browser opens without headers).
func (s *Server) RequireUserOrQuery() fiber.Handler { return s.queryAuth }

// RequireAdmin checks the admin role after RequireUser.
func (s *Server) RequireAdmin() fiber.Handler { return requireAdmin }

func (s *Server) routes() {
	s.app.Get("/healthz", s.healthz)
	s.mountAuth(s.app.Group("/api/auth"))
	s.mountChat()
	s.mountAdmin()
	s.mountAdminUsers()
	s.mountKeys()
	s.mountMedia(s.app)
	s.mountMediaAdmin(s.app)
	s.mountEvents(s.app)
	s.mountTorrents()
	s.mountTTS()
	s.mountLogs()
	s.mountTelegram()
	if s.deps.Control != nil {
		s.deps.Control.Mount(s.app, newOptionalAuthMiddleware(s.deps.Auth))
	}
	s.mountPages()
}

func (s *Server) healthz(c *fiber.Ctx) error {
	return c.JSON(fiber.Map{"status": "ok", "version": s.opt.Version})
}
