package http

import (
	"net/url"
	"time"

	"github.com/gofiber/fiber/v2"

	"mediateka/domain"
	"mediateka/usecase/auth"
)

// userDTO is the user object of the login answer.
type userDTO struct {
	ID      int64  `json:"id"`
	Email   string `json:"email"`
	Name    string `json:"name"`
	Role    string `json:"role"`
	IsAdmin bool   `json:"is_admin"`
	// TelegramID is the linked Telegram account, null when none is.
	TelegramID *int64 `json:"telegram_id"`
}

// meDTO is the answer of GET /api/auth/me.
type meDTO struct {
	userDTO
	Picture   string    `json:"picture"`
	CreatedAt time.Time `json:"created_at"`
}

func toUserDTO(u domain.User) userDTO {
	return userDTO{ID: u.ID, Email: u.Email, Name: u.Name, Role: u.EffectiveRole(), IsAdmin: u.Admin(), TelegramID: u.TelegramID}
}

type loginResponse struct {
	AccessToken string  `json:"access_token"`
	TokenType   string  `json:"token_type"`
	ExpiresIn   int64   `json:"expires_in"`
	User        userDTO `json:"user"`
}

func toLoginResponse(l auth.Login) loginResponse {
	return loginResponse{AccessToken: l.Token, TokenType: "bearer", ExpiresIn: int64(l.ExpiresIn.Seconds()), User: toUserDTO(l.User)}
}

// The cookies of Google sign-in. The state cookie binds a started sign-in
// to the browser and must ride the provider's cross-site redirect back to
// the callback, so it is SameSite=Lax. The code cookie binds the one-time
// code to the browser that finished the sign-in; it is only ever sent on
// the page's same-origin fetch to /api/auth/exchange, so it is Strict (a
// Strict cookie may be set on the response to a cross-site navigation; it
// is only withheld from cross-site requests, which the exchange never is).
const (
	oauthStateCookie = "mediateka_oauth_state"
	oauthCodeCookie  = "mediateka_oauth_code"
	oauthStatePath   = "/api/auth/google"
	oauthCodePath    = "/api/auth/exchange"
)

func (s *Server) mountAuth(r fiber.Router) {
	r.Post("/login", s.login)
	r.Get("/me", s.userAuth, s.me)
	r.Post("/password", s.userAuth, s.changePassword)
	r.Get("/providers", s.providers)
	r.Get("/google", s.googleBegin)
	r.Get("/google/callback", s.googleCallback)
	r.Post("/exchange", s.exchange)
	r.Post("/telegram", s.telegramLogin)
	r.Post("/telegram/link", s.userAuth, s.telegramLink)
}

func (s *Server) login(c *fiber.Ctx) error {
	var req struct {
		Email    string `json:"email"`
		Password string `json:"password"`
	}
	if err := parseJSON(c, &req); err != nil {
		return err
	}
	l, err := s.deps.Auth.Login(c.UserContext(), req.Email, req.Password, s.client.of(c))
	if err != nil {
		return err
	}
	return c.JSON(toLoginResponse(l))
}

func (s *Server) me(c *fiber.Ctx) error {
	u, _ := CurrentUser(c)
	return c.JSON(toMeDTO(u))
}

func toMeDTO(u domain.User) meDTO {
	return meDTO{userDTO: toUserDTO(u), Picture: u.Picture, CreatedAt: u.CreatedAt.UTC()}
}

func (s *Server) changePassword(c *fiber.Ctx) error {
	var req struct {
		Current string `json:"current_password"`
		New     string `json:"new_password"`
	}
	if err := parseJSON(c, &req); err != nil {
		return err
	}
	u, _ := CurrentUser(c)
	if err := s.deps.Auth.ChangePassword(c.UserContext(), u, req.Current, req.New); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

// providers tells the sign-in page which ways to sign in are configured, so
// it shows the Google button only when Google sign-in works.
func (s *Server) providers(c *fiber.Ctx) error {
	return c.JSON(fiber.Map{"password": true, "google": s.deps.Google != nil && s.deps.Google.Enabled()})
}

// googleBegin redirects to the provider and binds the single-use state to
// this browser with a short-lived cookie.
func (s *Server) googleBegin(c *fiber.Ctx) error {
	if s.deps.Google == nil || !s.deps.Google.Enabled() {
		return auth.ErrOAuthDisabled
	}
	redirect, state, err := s.deps.Google.Begin(s.client.of(c))
	if err != nil {
		return err
	}
	setCookie(c, oauthStateCookie, state, oauthStatePath, s.deps.Google.StateTTL(), fiber.CookieSameSiteLaxMode)
	return c.Redirect(redirect, fiber.StatusFound)
}

// setCookie sets an HttpOnly sign-in cookie for path, Secure over TLS;
// ttl 0 deletes it (a deletion must name the same path to hit the cookie).
func setCookie(c *fiber.Ctx, name, value, path string, ttl time.Duration, sameSite string) {
	ck := &fiber.Cookie{Name: name, Value: value, Path: path, MaxAge: int(ttl.Seconds()), HTTPOnly: true,
		SameSite: sameSite, Secure: c.Protocol() == "https"}
	if ttl <= 0 {
		ck.MaxAge, ck.Expires = -1, time.Unix(0, 0)
	}
	c.Cookie(ck)
}

// googleCallback finishes the sign-in and sends the browser to the home page
// with a one-time code in the URL fragment (never a token): the page trades
// it through POST /api/auth/exchange. The code's binding goes into a cookie
// of this browser only, so the code alone, sent to someone else as a link,
// signs nobody in.
func (s *Server) googleCallback(c *fiber.Ctx) error {
	if s.deps.Google == nil || !s.deps.Google.Enabled() {
		return auth.ErrOAuthDisabled
	}
	cookie := c.Cookies(oauthStateCookie)
	setCookie(c, oauthStateCookie, "", oauthStatePath, 0, fiber.CookieSameSiteLaxMode)
	code, binding, err := s.deps.Google.Complete(c.UserContext(), c.Query("code"), c.Query("state"), cookie)
	if err != nil {
		return err
	}
	setCookie(c, oauthCodeCookie, binding, oauthCodePath, auth.CodeTTL, fiber.CookieSameSiteStrictMode)
	return c.Redirect("/#code="+url.QueryEscape(code), fiber.StatusFound)
}

// exchange trades the one-time code of a Google sign-in for the login body.
func (s *Server) exchange(c *fiber.Ctx) error {
	var req struct {
		Code string `json:"code"`
	}
	if err := parseJSON(c, &req); err != nil {
		return err
	}
	if s.deps.Google == nil || !s.deps.Google.Enabled() {
		return auth.ErrOAuthDisabled
	}
	binding := c.Cookies(oauthCodeCookie)
	setCookie(c, oauthCodeCookie, "", oauthCodePath, 0, fiber.CookieSameSiteStrictMode)
	l, err := s.deps.Google.Exchange(c.UserContext(), req.Code, binding, s.client.of(c))
	if err != nil {
		return err
	}
	return c.JSON(toLoginResponse(l))
}
