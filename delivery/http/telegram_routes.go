package http

import "github.com/gofiber/fiber/v2/middleware/adaptor"

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
