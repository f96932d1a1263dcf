package telegram

import (
	"crypto/subtle"
	"encoding/json"
	"net/http"
)

// Webhook is the handler Telegram posts updates to in webhook mode; the
// HTTP server owns its route (delivery/http's TelegramWebhookPath), which
// webhook_url must reach, through a reverse proxy perhaps. Every
// request must carry the configured secret in
// X-Telegram-Bot-Api-Secret-Token (else 401, nothing read); outside
// webhook mode or while the bot is stopped it is 404.
func (p *Plugin) Webhook() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		b, running := p.bot, p.running
		p.mu.Unlock()
		if !running || p.cfg.Mode != ModeWebhook {
			webhookError(w, http.StatusNotFound, "not_found", "the Telegram bot is not receiving updates by webhook")
			return
		}
		got := r.Header.Get("X-Telegram-Bot-Api-Secret-Token")
		if subtle.ConstantTimeCompare([]byte(got), []byte(p.cfg.WebhookSecret)) != 1 {
			webhookError(w, http.StatusUnauthorized, "unauthorized", "missing or wrong X-Telegram-Bot-Api-Secret-Token")
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, 1<<20)
		b.WebhookHandler()(w, r)
	})
}

// webhookError writes the API's error body (API.md §0).
func webhookError(w http.ResponseWriter, status int, code, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]string{"code": code, "message": message}})
}
