package app

import (
	"encoding/json"
	"fmt"
	"strings"

	"mediateka/config"
	"mediateka/plugins"
)

// telegramPlugin is the Telegram bot's plugin name: its config.json lives
// in <plugin_config_dir>/telegram/.
const telegramPlugin = "telegram"

// telegramBotToken is the one answer to "which bot token": the
// TELEGRAM_BOT_TOKEN environment variable (cfg.TelegramBotToken) when set,
// else the telegram plugin's config "token". The Mini App login checks
// init_data with it and the bot talks to Telegram with it, so both must
// read it from here. It runs before the logger exists, so that the token
// is handed to the log redactor; a plugin config that cannot be read gives
// no token and the problem, logged later.
func telegramBotToken(cfg config.Config) (string, error) {
	if tok := strings.TrimSpace(cfg.TelegramBotToken); tok != "" {
		return tok, nil
	}
	raw, err := plugins.ReadConfig(cfg.PluginConfigDir, telegramPlugin)
	if err != nil {
		return "", fmt.Errorf("telegram plugin: %w", err)
	}
	var file struct {
		Token string `json:"token"`
	}
	if err := json.Unmarshal(raw, &file); err != nil {
		return "", fmt.Errorf("telegram plugin: config.json: token must be a string: %w", err)
	}
	return strings.TrimSpace(file.Token), nil
}
