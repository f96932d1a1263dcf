package http

import (
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/adaptor"

	"mediateka/domain"
)

// initDataRequest is the body of the Mini App's calls: Telegram.WebApp.initData
// as received. It is never logged (the access log masks init_data, and the
// body is not logged at all).
type initDataRequest struct {
	InitData *string `json:"init_data"`
}

// telegramLogin signs in the account linked to the Telegram user of
// init_data: the login body of POST /api/auth/login.
func (s *Server) telegramLogin(c *fiber.Ctx) error {
	if s.deps.Telegram == nil {
		return fiber.ErrNotFound
	}
	var req initDataRequest
	if err := parseJSON(c, &req); err != nil {
		return err
	}
	if req.InitData == nil {
		return domain.ErrInvalid("init_data is required", map[string]string{"init_data": "must not be empty"})
	}
	l, err := s.deps.Telegram.Login(c.UserContext(), *req.InitData, s.client.of(c))
	if err != nil {
		return err
	}
	return c.JSON(toLoginResponse(l))
}

// telegramLink links a Telegram account to the signed-in one: without
// init_data it answers a code for the bot's /link; with init_data it links
// that (verified) Telegram user at once and answers the account as
// GET /api/auth/me shows it.
func (s *Server) telegramLink(c *fiber.Ctx) error {
	if s.deps.Telegram == nil {
		return fiber.ErrNotFound
	}
	var req initDataRequest
	if err := parseJSON(c, &req); err != nil {
		return err
	}
	u, _ := CurrentUser(c)
	if req.InitData != nil {
		linked, err := s.deps.Telegram.LinkInitData(c.UserContext(), u, *req.InitData)
		if err != nil {
			return err
		}
		return c.JSON(toMeDTO(linked))
	}
	code, err := s.deps.Telegram.NewLinkCode(c.UserContext(), u)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"code": code.Code, "expires_at": code.ExpiresAt.UTC().Format(time.RFC3339)})
}

// TelegramWebhookPath is where Telegram posts the bot's updates in webhook
// mode: the bot plugin's webhook_url must end with it. The route is public;
// the handler checks Telegram's secret token on every request.
const TelegramWebhookPath = "/api/telegram/webhook"

// mountTelegram mounts the bot's webhook handler (a net/http handler of
// the telegram plugin) when there is one.
func (s *Server) mountTelegram() {
	if s.deps.TelegramWebhook != nil {
		s.app.Post(TelegramWebhookPath, adaptor.HTTPHandler(s.deps.TelegramWebhook))
	}
}
