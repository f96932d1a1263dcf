package app

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/plugins/telegram/tgfake"
)

// TestTelegramBotOverTheWiredApp runs the bot plugin of a real app against
// the fake Bot API: /status through the app's status adapter, a question
// through the app's chat, the webhook route, and the admin switch that
// stops polling.
func TestTelegramBotOverTheWiredApp(t *testing.T) {
	t.Parallel()
	fake := tgfake.New(t)
	ta := buildTestApp(t, appOptions{
		env: map[string]string{"TELEGRAM_BOT_TOKEN": tgfake.Token, "MEDIATEKA_TORRENT_CLIENT__URL": ""},
		beside: func(dir string) {
			conf := filepath.Join(dir, "data", "plugins", "telegram")
			require.NoError(t, os.MkdirAll(conf, 0o750))
			raw, _ := json.Marshal(map[string]any{"api_url": fake.URL(), "allowed_users": []int64{42}})
			require.NoError(t, os.WriteFile(filepath.Join(conf, "config.json"), raw, 0o600))
		},
	})
	st, err := ta.plugins.Get("telegram")
	require.NoError(t, err)
	require.True(t, st.Loaded, "%+v", st)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ta.plugins.Start(ctx)
	t.Cleanup(func() { ta.plugins.Shutdown(context.Background()) })

	say := func(text string, n int) []tgfake.Call {
		before := len(fake.Calls("sendMessage"))
		fake.Push(map[string]any{"message": map[string]any{"message_id": 1, "date": 1700000000, "text": text,
			"chat": map[string]any{"id": 42, "type": "private"},
			"from": map[string]any{"id": 42, "is_bot": false, "first_name": "A", "language_code": "en"}}})
		return fake.WaitCalls(t, "sendMessage", before+n)[before:]
	}
	got := say("/status", 1)
	assert.Equal(t, "<b>Library</b>: 0 films, 0 series, 0 episodes, 0 missing on disk\n"+
		"<b>Torrents</b>: the torrent client is not configured\n"+
		"<b>Player</b>: no linked account (/link)\n"+
		"<b>AI</b>: the built-in offline assistant (no model configured)", got[0].Fields["text"])
	got = say("Do I have The Matrix?", 1)
	assert.Contains(t, got[0].Fields["text"], "No AI model is configured", "the app's chat answered: the offline assistant")

	resp, body := ta.do(t, "POST", "/api/telegram/webhook", "", map[string]any{"update_id": 1})
	assert.Equal(t, 404, resp.StatusCode, "polling mode: no webhook")
	assert.Equal(t, "not_found", errCode(body))

	admin, _ := ta.tokens(t)
	resp, sw := ta.do(t, "POST", "/api/admin/plugin/telegram/status", admin, map[string]any{"enabled": false})
	require.Equal(t, 200, resp.StatusCode, "%v", sw)
	assert.Equal(t, false, sw["running"], "switched off: the bot stopped")
	polls := len(fake.Calls("getUpdates"))
	fake.Push(map[string]any{"message": map[string]any{"message_id": 2, "date": 1700000000, "text": "/help",
		"chat": map[string]any{"id": 42, "type": "private"}, "from": map[string]any{"id": 42, "is_bot": false, "first_name": "A"}}})
	assert.Equal(t, polls, len(fake.Calls("getUpdates")), "no polling after the switch")
}
