package http

import (
	"context"
	"strings"

	"github.com/gofiber/fiber/v2"

	"mediateka/domain"
)

// TokenVerifier is the one token check of the auth use case: signature
// (HS256 only), expiry on the use case's clock, the user reloaded by sub.
// Every route that takes a token, whatever its transport, goes through it.
type TokenVerifier interface {
	VerifyToken(ctx context.Context, token string) (domain.User, error)
}

// newAuthMiddleware takes the bearer token from the Authorization header
// (or, with allowQuery, from ?token=: WebSocket, SSE and media URLs, places a
// browser cannot set a header), has the verifier check it and stores the
// user for the handler. Every failure is a 401 with the API error body.
func newAuthMiddleware(v TokenVerifier, allowQuery bool) fiber.Handler {
	return func(c *fiber.Ctx) error {
		token, ok := tokenOf(c, allowQuery)
		if !ok {
			return domain.ErrUnauthorized
		}
		return verifyInto(c, v, token)
	}
}

// newOptionalAuthMiddleware is the header-or-?token= middleware for routes
// open to anonymous callers too (the rooms of API.md §6): without a token
// the request goes on with no user; a token that is there must pass the
// same verifier, else 401.
func newOptionalAuthMiddleware(v TokenVerifier) fiber.Handler {
	return func(c *fiber.Ctx) error {
		token, ok := tokenOf(c, true)
		if !ok {
			return domain.ErrUnauthorized
		}
		if token == "" {
			return c.Next()
		}
		return verifyInto(c, v, token)
	}
}

// tokenOf finds the request's token: the bearer header, else (with
// allowQuery) ?token=. ok is false for an Authorization header of another
// scheme.
func tokenOf(c *fiber.Ctx, allowQuery bool) (string, bool) {
	token, ok := bearerToken(c.Get(fiber.HeaderAuthorization))
	if ok && token == "" && allowQuery {
		token = c.Query("token")
	}
	return token, ok
}

// verifyInto checks token and stores its user for the handler.
func verifyInto(c *fiber.Ctx, v TokenVerifier, token string) error {
	u, err := v.VerifyToken(c.UserContext(), token)
	if err != nil {
		return err
	}
	c.Locals(userKey, u)
	c.Locals(tokenKey, token)
	return c.Next()
}

// tokenKey is the Locals key of the token the current user was verified
// from.
const tokenKey = "mediateka.token"

// CurrentToken is the token the request's user was verified from, for
// connections that outlive the request and must check it again (rooms);
// "" without a user.
func CurrentToken(c *fiber.Ctx) string {
	t, _ := c.Locals(tokenKey).(string)
	return t
}

// bearerToken reads "Bearer <token>" (scheme in any case). An absent header
// gives "", true; a header of another scheme gives false.
func bearerToken(header string) (string, bool) {
	if header == "" {
		return "", true
	}
	scheme, token, found := strings.Cut(strings.TrimSpace(header), " ")
	if !found || !strings.EqualFold(scheme, "bearer") {
		return "", false
	}
	return strings.TrimSpace(token), true
}
