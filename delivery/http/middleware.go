package http

import (
	"fmt"
	"log/slog"
	"net/url"
	"runtime/debug"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"mediateka/domain"
)

const requestIDHeader = "X-Request-ID"

// requestID gives every request an id: the client's own X-Request-ID when it
// is short and printable, else a new UUID. It is echoed in the response.
func requestID() fiber.Handler {
	return func(c *fiber.Ctx) error {
		ensureRequestID(c)
		return c.Next()
	}
}

// ensureRequestID returns the request's id, creating and echoing one if
// needed; the error handler calls it too, for errors raised before routing.
func ensureRequestID(c *fiber.Ctx) string {
	if rid, ok := c.Locals("request_id").(string); ok {
		return rid
	}
	rid := c.Get(requestIDHeader)
	if len(rid) == 0 || len(rid) > 64 || strings.ContainsFunc(rid, func(r rune) bool { return r < 0x21 || r > 0x7e }) {
		rid = uuid.NewString()
	}
	c.Locals("request_id", rid)
	c.Set(requestIDHeader, rid)
	return rid
}

// recoverer turns a panic into a 500 with the API error body; the stack goes
// to the log under the request id, never to the client.
func recoverer(log *slog.Logger) fiber.Handler {
	return func(c *fiber.Ctx) (err error) {
		defer func() {
			if r := recover(); r != nil {
				log.Error("panic in handler", "request_id", ensureRequestID(c), "path", c.Path(),
					"panic", fmt.Sprint(r), "stack", string(debug.Stack()))
				err = fmt.Errorf("panic: %v", r)
			}
		}()
		return c.Next()
	}
}

// accessLog writes one line per request. Query parameters that carry secrets
// (token, key…) are masked so a URL token never reaches the log.
func accessLog(log *slog.Logger, client clientAddr) fiber.Handler {
	return func(c *fiber.Ctx) error {
		start := time.Now()
		err := c.Next()
		status := c.Response().StatusCode()
		if err != nil {
			status, _ = toResponse(err)
		}
		log.Info("http", "request_id", ensureRequestID(c), "method", c.Method(), "path", c.Path(),
			"query", maskQuery(string(c.Request().URI().QueryString())), "status", status,
			"duration_ms", float64(time.Since(start).Microseconds())/1000, "remote", client.of(c))
		return err
	}
}

// sensitiveParams are query parameters whose values never reach a log.
var sensitiveParams = []string{"token", "st", "access_token", "key", "api_key", "code", "state", "password", "secret", "init_data"}

func maskQuery(q string) string {
	if q == "" {
		return ""
	}
	vals, err := url.ParseQuery(q)
	if err != nil {
		return "[unparsable]"
	}
	for k := range vals {
		for _, s := range sensitiveParams {
			if strings.EqualFold(k, s) {
				vals[k] = []string{"***"}
			}
		}
	}
	return vals.Encode()
}

// userKey is the Locals key of the signed-in domain.User.
const userKey = "mediateka.user"

// CurrentUser returns the user the auth middleware loaded.
func CurrentUser(c *fiber.Ctx) (domain.User, bool) {
	u, ok := c.Locals(userKey).(domain.User)
	return u, ok
}

// requireAdmin lets administrators through and answers 403 to other users.
// It runs after an auth middleware.
func requireAdmin(c *fiber.Ctx) error {
	u, ok := CurrentUser(c)
	if !ok {
		return domain.ErrUnauthorized
	}
	if !u.Admin() {
		return domain.ErrForbidden
	}
	return c.Next()
}
