package http

import (
	"context"
	"errors"

	jwtware "github.com/gofiber/contrib/jwt"
	"github.com/gofiber/fiber/v2"
	"github.com/golang-jwt/jwt/v5"

	"mediateka/domain"
	"mediateka/usecase/auth"
)

// SubjectLoader loads the user a verified token names.
type SubjectLoader interface {
	UserForSubject(ctx context.Context, sub string) (domain.User, error)
}

// newAuthMiddleware verifies the bearer token with gofiber/contrib/jwt (HS256
// only, exp required) and loads the user by sub on every request, so deleting
// or demoting a user takes effect at once. With allowQuery the token may also
// come as ?token= (WebSocket, SSE, media URLs: places a browser cannot set a
// header). Every failure is a 401 with the API error body, never the
// middleware's default 400 text.
func newAuthMiddleware(secret []byte, users SubjectLoader, allowQuery bool) fiber.Handler {
	lookup := "header:" + fiber.HeaderAuthorization
	if allowQuery {
		lookup += ",query:token"
	}
	return jwtware.New(jwtware.Config{
		TokenLookup: lookup,
		AuthScheme:  "Bearer",
		Claims:      &auth.Claims{},
		KeyFunc: func(t *jwt.Token) (any, error) {
			if t.Method != jwt.SigningMethodHS256 {
				return nil, errors.New("unexpected signing method")
			}
			return secret, nil
		},
		ErrorHandler: func(_ *fiber.Ctx, err error) error {
			if errors.Is(err, jwt.ErrTokenExpired) {
				return domain.ErrTokenExpired
			}
			return domain.ErrUnauthorized
		},
		SuccessHandler: func(c *fiber.Ctx) error {
			tok, _ := c.Locals("user").(*jwt.Token)
			claims, ok := tok.Claims.(*auth.Claims)
			if !ok || claims.ExpiresAt == nil {
				return domain.ErrUnauthorized
			}
			u, err := users.UserForSubject(c.UserContext(), claims.Subject)
			if err != nil {
				return err
			}
			c.Locals("user", nil)
			c.Locals(userKey, u)
			return c.Next()
		},
	})
}
