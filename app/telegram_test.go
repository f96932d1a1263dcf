package app

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/plugins/telegram/tgfake"
	"mediateka/repository/qbittorrent/qbittest"
)

// telegramConfig writes the telegram plugin's config.json (the fake Bot
// API's address among its fields) beside a test app's data.
func telegramConfig(t *testing.T, cfg map[string]any) func(dir string) {
	return func(dir string) {
		conf := filepath.Join(dir, "data", "plugins", "telegram")
		require.NoError(t, os.MkdirAll(conf, 0o750))
		raw, err := json.Marshal(cfg)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(conf, "config.json"), raw, 0o600))
	}
}

// TestTelegramBotOverTheWiredApp runs the bot plugin of a real app against
// the fake Bot API: /status through the app's status adapter, a question
// through the app's chat, the webhook route, and the admin switch that
// stops polling.
func TestTelegramBotOverTheWiredApp(t *testing.T) {
	t.Parallel()
	fake := tgfake.New(t)
	ta := buildTestApp(t, appOptions{
		env:    map[string]string{"TELEGRAM_BOT_TOKEN": tgfake.Token, "MEDIATEKA_TORRENT_CLIENT__URL": ""},
		beside: telegramConfig(t, map[string]any{"api_url": fake.URL(), "allowed_users": []int64{42}}),
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
		fake.Push(tgfake.Message(42, "en", text))
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

// TestTelegramWebhookThroughTheServer: in webhook mode the bot registers
// its URL and secret with Telegram, takes no updates by polling, and the
// server's own route hands it the updates that carry the secret (and only
// those); switched off, the route answers 404.
func TestTelegramWebhookThroughTheServer(t *testing.T) {
	t.Parallel()
	fake := tgfake.New(t)
	ta := buildTestApp(t, appOptions{
		env: map[string]string{"TELEGRAM_BOT_TOKEN": tgfake.Token, "MEDIATEKA_TORRENT_CLIENT__URL": ""},
		beside: telegramConfig(t, map[string]any{"api_url": fake.URL(), "mode": "webhook",
			"webhook_url": "https://media.example.org/api/telegram/webhook", "webhook_secret": "s3cret_token-1"}),
	})
	addr, stop := runOnLoopback(t, ta)
	defer func() { require.NoError(t, stop()) }()
	set := fake.WaitCalls(t, "setWebhook", 1)
	assert.Equal(t, "https://media.example.org/api/telegram/webhook", set[0].Fields["url"])
	assert.Equal(t, "s3cret_token-1", set[0].Fields["secret_token"])

	post := func(secret, text string) int {
		t.Helper()
		msg := tgfake.Message(42, "en", text)
		msg["update_id"] = 7
		update, err := json.Marshal(msg)
		require.NoError(t, err)
		req, err := http.NewRequest(http.MethodPost, "http://"+addr+"/api/telegram/webhook", bytes.NewReader(update))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		if secret != "" {
			req.Header.Set("X-Telegram-Bot-Api-Secret-Token", secret)
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		_ = resp.Body.Close()
		return resp.StatusCode
	}
	assert.Equal(t, http.StatusUnauthorized, post("", "/voice off"))
	assert.Equal(t, http.StatusUnauthorized, post("wrong", "/voice off"))
	assert.Equal(t, http.StatusOK, post("s3cret_token-1", "/status"))
	got := fake.WaitCalls(t, "sendMessage", 1)
	assert.Equal(t, "42", got[0].Fields["chat_id"])
	assert.True(t, strings.HasPrefix(got[0].Fields["text"], "<b>Library</b>: 0 films"), got[0].Fields["text"])
	assert.Len(t, fake.Calls("sendMessage"), 1, "only the update with the secret was handled")
	assert.Empty(t, fake.Calls("getUpdates"), "webhook mode does not poll")

	admin, _ := ta.tokens(t)
	resp, sw := ta.do(t, "POST", "/api/admin/plugin/telegram/status", admin, map[string]any{"enabled": false})
	require.Equal(t, 200, resp.StatusCode, "%v", sw)
	assert.Equal(t, http.StatusNotFound, post("s3cret_token-1", "/status"), "a stopped bot takes no updates")
}

// TestTelegramBotLinksNotifiesAndPlaysOverTheWiredApp drives the bot of a
// running app through the fake Bot API with the real account links,
// library, rooms and catalogue: a user links with a code made through the
// API, a linked admin gets a real scan's notification, /find's ▶ button
// starts the film on the user's player (joined over the room WebSocket),
// and /status shows that player.
func TestTelegramBotLinksNotifiesAndPlaysOverTheWiredApp(t *testing.T) {
	fake := tgfake.New(t)
	la := newLibAppWith(t, nil, appOptions{
		env:    map[string]string{"TELEGRAM_BOT_TOKEN": tgfake.Token, "MEDIATEKA_TORRENT_CLIENT__URL": ""},
		beside: telegramConfig(t, map[string]any{"api_url": fake.URL(), "allowed_users": []int64{42, 43}, "rate_per_minute": 100}),
	})
	addr, stop := runOnLoopback(t, la.testApp)
	defer func() { require.NoError(t, stop()) }()

	// sent is one sendMessage as compared here.
	type sent struct{ ChatID, Text, ParseMode, ReplyMarkup string }
	sentOf := func(c tgfake.Call) sent {
		return sent{c.Fields["chat_id"], c.Fields["text"], c.Fields["parse_mode"], c.Fields["reply_markup"]}
	}
	say := func(from int64, text string) sent {
		t.Helper()
		before := len(fake.Calls("sendMessage"))
		fake.Push(tgfake.Message(from, "en", text))
		return sentOf(fake.WaitCalls(t, "sendMessage", before+1)[before])
	}
	link := func(token string, tgID int64, email string) {
		t.Helper()
		resp, body := la.do(t, "POST", "/api/auth/telegram/link", token, nil)
		require.Equal(t, 200, resp.StatusCode, "%v", body)
		assert.Equal(t, sent{fmt.Sprint(tgID), "Done: Telegram is linked to the account <b>" + email + "</b>.", "HTML", ""},
			say(tgID, "/link "+body["code"].(string)))
		_, me := la.do(t, "GET", "/api/auth/me", token, nil)
		assert.Equal(t, float64(tgID), me["telegram_id"])
	}
	link(la.user, 42, "viewer@example.org")
	link(la.admin, 43, "admin@localhost")

	// Guessing codes: each wrong one is refused, and past ten the bot says
	// to wait rather than that linking is unavailable.
	for i := range 10 {
		assert.Contains(t, say(42, fmt.Sprintf("/link WRONG%05d", i)).Text, "That code did not work", "guess %d", i)
	}
	assert.Equal(t, sent{"42", "Too many wrong codes. Wait ten minutes, get a new code and try again.", "HTML", ""}, say(42, "/link WRONG99999"))
	assert.Equal(t, sent{"43", "Notifications are on.", "HTML", ""}, say(43, "/notify on"))
	assert.Equal(t, sent{"42", "Library notifications are for linked administrators only (/link).", "HTML", ""}, say(42, "/notify on"))

	// A real scan, started through the API: the linked admin hears of it.
	before := len(fake.Calls("sendMessage"))
	la.put(t, map[string]string{"Heat (1995)/Heat.1995.1080p.mkv": "video"})
	la.scan(t)
	note := sentOf(fake.WaitCalls(t, "sendMessage", before+1)[before])
	assert.Equal(t, sent{"43", "📚 Scan finished (completed): 1 files, 1 added, 0 updated, 0 missing, 0 errors.", "HTML", ""}, note)
	id := la.idOf(t, "Heat (1995)/Heat.1995.1080p.mkv")

	room := "viewer@example.org"
	assert.Equal(t, "<b>Player</b>: none connected (room viewer@example.org)", strings.Split(say(42, "/status").Text, "\n")[2])
	player := joinRoom(t, addr, "player", room, la.user)
	player.presence(1, 0)

	found := say(42, "/find Heat")
	assert.Equal(t, "<b>In the library</b> for “Heat” (1–1 of 1):\n1. <b>Heat</b> (1995) — film", found.Text)
	var kb struct {
		InlineKeyboard [][]struct {
			Text         string `json:"text"`
			CallbackData string `json:"callback_data"`
		} `json:"inline_keyboard"`
	}
	require.NoError(t, json.Unmarshal([]byte(found.ReplyMarkup), &kb))
	require.Len(t, kb.InlineKeyboard, 1)
	play := kb.InlineKeyboard[0][0]
	assert.Equal(t, "▶ 1. Heat", play.Text)
	press := func(qid string, from int64) map[string]string {
		t.Helper()
		before := len(fake.Calls("answerCallbackQuery"))
		fake.Push(map[string]any{"callback_query": map[string]any{"id": qid, "data": play.CallbackData, "chat_instance": "x",
			"from":    map[string]any{"id": from, "is_bot": false, "first_name": "B", "language_code": "en"},
			"message": map[string]any{"message_id": 7, "date": 1700000000, "chat": map[string]any{"id": from, "type": "private"}}}})
		return fake.WaitCalls(t, "answerCallbackQuery", before+1)[before].Fields
	}
	assert.Equal(t, map[string]string{"callback_query_id": "q1", "text": "This button is not for you."}, press("q1", 43),
		"the admin's press on the user's list does nothing")
	assert.Equal(t, map[string]string{"callback_query_id": "q2", "text": "▶ Playing “Heat” in your room."}, press("q2", 42))
	got := player.next()
	assert.Equal(t, "play", got["event"])
	assert.Equal(t, fmt.Sprintf("media:%d", id), got["file"])
	assert.Equal(t, float64(id), got["media_id"])
	assert.Equal(t, "Heat", got["title"])
	assert.Contains(t, got, "play", "the player's own play answer (stream URL) for its account")

	player.say(map[string]any{"event": "status_update", "state": "playing", "position": 42, "duration": 6000, "volume": 80})
	require.Eventually(t, func() bool {
		_, st := la.do(t, "GET", "/api/control/status?room="+room, la.user, nil)
		pb, _ := st["playback"].(map[string]any)
		return pb["position"] == 42.0
	}, roomWait, 10*time.Millisecond)
	status := say(42, "/status")
	assert.Equal(t, "<b>Library</b>: 1 films, 0 series, 0 episodes, 0 missing on disk\n"+
		"<b>Torrents</b>: the torrent client is not configured\n"+
		"<b>Player</b>: playing “Heat”, 0:42 / 1:40:00, volume 80 (room viewer@example.org)\n"+
		"<b>AI</b>: the built-in offline assistant (no model configured)", status.Text)
	assert.Equal(t, `{"inline_keyboard":[[{"text":"Refresh","callback_data":"status:42:42"}]]}`, status.ReplyMarkup)
	for _, c := range fake.Calls("sendMessage") {
		if c.Fields["chat_id"] == "42" {
			assert.NotContains(t, c.Fields["text"], "Scan finished", "a user gets no admin notifications")
		}
	}
}

// TestTelegramUnlinkedUserCannotAddOrListTorrents sends a bare magnet and
// "list torrents" from a Telegram user with no account to the bot of an app
// whose torrent client is a real qbittorrent-nox: the person is asked to
// link, and the client has nothing added.
func TestTelegramUnlinkedUserCannotAddOrListTorrents(t *testing.T) {
	t.Parallel()
	fake := tgfake.New(t)
	d := qbittest.Start(t)
	ta := buildTestApp(t, appOptions{
		env: map[string]string{"TELEGRAM_BOT_TOKEN": tgfake.Token,
			"MEDIATEKA_TORRENT_CLIENT__URL": d.URL, "MEDIATEKA_TORRENT_CLIENT__USERNAME": d.Username,
			"MEDIATEKA_TORRENT_CLIENT__PASSWORD": d.Password},
		beside: telegramConfig(t, map[string]any{"api_url": fake.URL()}),
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ta.plugins.Start(ctx)
	t.Cleanup(func() { ta.plugins.Shutdown(context.Background()) })

	say := func(lang, text string) string {
		before := len(fake.Calls("sendMessage"))
		fake.Push(tgfake.Message(77, lang, text))
		return fake.WaitCalls(t, "sendMessage", before+1)[before].Fields["text"]
	}
	assert.Equal(t, "Link your media server account first: /link CODE", say("en", filmMagnet))
	assert.Equal(t, "Сначала привяжите аккаунт медиатеки: /link КОД", say("ru", "скачай "+filmMagnet))
	assert.Equal(t, "Link your media server account first: /link CODE", say("en", "list torrents"))
	_, user := ta.tokens(t)
	assert.Empty(t, torrentsByHash(t, ta, user), "nothing was added to the torrent client")
}
