package telegram_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/plugins/telegram"
	"mediateka/plugins/telegram/tgfake"
	"mediateka/usecase/chat"
)

// echoChat answers every message with a fixed text.
func echoChat(answer string) *chatFunc {
	return &chatFunc{fn: func(chat.Request) (chat.Answer, error) { return chat.Answer{Text: answer, HandledBy: "model"}, nil }}
}

func TestStartRegistersCommandsPerLanguageAndStopsPolling(t *testing.T) {
	e := start(t, `{}`, telegram.Deps{Chat: echoChat("ok")})
	calls := e.fake.WaitCalls(t, "getUpdates", 1)
	require.NotEmpty(t, calls)
	assert.Equal(t, "1", calls[0].Fields["timeout"], "the long poll waits (poll timeout - 1 s)")
	cmds := e.fake.Calls("setMyCommands")
	require.Len(t, cmds, 2)
	assert.Equal(t, "", cmds[0].Fields["language_code"], "English is the default")
	assert.Equal(t, "ru", cmds[1].Fields["language_code"])
	var en, ru []map[string]string
	require.NoError(t, json.Unmarshal([]byte(cmds[0].Fields["commands"]), &en))
	require.NoError(t, json.Unmarshal([]byte(cmds[1].Fields["commands"]), &ru))
	names := func(cs []map[string]string) (out []string) {
		for _, c := range cs {
			out = append(out, c["command"])
		}
		return out
	}
	want := []string{"start", "help", "status", "find", "torrent", "link", "notify", "voice"}
	assert.Equal(t, want, names(en))
	assert.Equal(t, want, names(ru))
	assert.Equal(t, "Commands and example questions", en[1]["description"])
	assert.Equal(t, "Команды и примеры вопросов", ru[1]["description"])
	assert.Len(t, e.fake.Calls("deleteWebhook"), 1, "polling clears a webhook left from an earlier run")
}

func TestStartSendsTheMiniAppButtonWithoutCopyText(t *testing.T) {
	app := telegram.MiniApp{URL: "https://media.example.org/tgmini", Name: "Медиатека", Description: "Пульт и библиотека."}
	e := start(t, `{}`, telegram.Deps{Chat: echoChat("ok"), MiniApp: app})
	got := sentOf(e.say(t, userTG, "ru", "/start", 1))
	require.Len(t, got, 1)
	assert.Equal(t, "1002", got[0].ChatID)
	assert.Equal(t, "HTML", got[0].ParseMode)
	assert.Equal(t, `{"inline_keyboard":[[{"text":"Медиатека","web_app":{"url":"https://media.example.org/tgmini"}}]]}`,
		got[0].ReplyMarkup, "exactly the web_app button, no copy_text")
	assert.True(t, strings.HasPrefix(got[0].Text, "Привет! Я бот медиатеки <b>Медиатека</b>."), got[0].Text)
	assert.True(t, strings.HasSuffix(got[0].Text, "Приложение медиатеки открывается кнопкой ниже. Пульт и библиотека."), got[0].Text)
	menu := e.fake.WaitCalls(t, "setChatMenuButton", 1)
	assert.Equal(t, "1002", menu[0].Fields["chat_id"])
	assert.JSONEq(t, `{"type":"web_app","text":"Медиатека","web_app":{"url":"https://media.example.org/tgmini"}}`,
		menu[0].Fields["menu_button"])
}

func TestStartInAGroupSendsAURLButtonAndLeavesTheMenuAlone(t *testing.T) {
	app := telegram.MiniApp{URL: "https://media.example.org/tgmini", Name: "Медиатека"}
	e := start(t, `{}`, telegram.Deps{Chat: echoChat("ok"), MiniApp: app})
	e.fake.WaitCalls(t, "getUpdates", 1)
	e.fake.Push(groupMessage(userTG, -100777, "ru", "/start"))
	e.fake.Push(groupMessage(userTG, -100777, "ru", "/voice off"))
	got := sentOf(e.fake.WaitCalls(t, "sendMessage", 2))
	assert.Equal(t, "-100777", got[0].ChatID)
	assert.Equal(t, `{"inline_keyboard":[[{"text":"Медиатека","url":"https://media.example.org/tgmini"}]]}`,
		got[0].ReplyMarkup, "web_app buttons are for private chats only: a url button to the same page")
	assert.Equal(t, "Голосовые ответы выключены.", got[1].Text)
	assert.Empty(t, e.fake.Calls("setChatMenuButton"), "a group's menu button cannot be a web_app")
}

func TestCommandsForAnotherBotAreIgnored(t *testing.T) {
	e := start(t, `{}`, telegram.Deps{Chat: echoChat("ok")})
	e.fake.WaitCalls(t, "getUpdates", 1)
	require.Len(t, e.fake.Calls("getMe"), 1, "the bot learns its username before it polls: %v", e.fake.Calls(""))
	e.fake.Push(groupMessage(userTG, -100777, "en", "/help@other_bot"))
	e.fake.Push(groupMessage(userTG, -100777, "en", "/voice@other_bot off"))
	e.fake.Push(groupMessage(userTG, -100777, "en", "/voice@MediaTeka_Bot off"))
	e.fake.Push(groupMessage(userTG, -100777, "en", "/voice on"))
	got := sentOf(e.fake.WaitCalls(t, "sendMessage", 2))
	assert.Equal(t, []string{"Voice answers are off.", "Voice answers are unavailable: speech synthesis is not set up."},
		[]string{got[0].Text, got[1].Text}, "only the commands for this bot (its name in any case, or none) are answered")
}

func TestCommandsAreAnsweredWhenGetMeFails(t *testing.T) {
	fake := tgfake.New(t)
	fake.Fail("getMe", http.StatusUnauthorized, 0)
	e := startOn(t, fake, `{}`, telegram.Deps{Chat: echoChat("ok")})
	e.fake.WaitCalls(t, "getUpdates", 1)
	got := sentOf(e.say(t, userTG, "en", "/voice@other_bot off", 1))
	assert.Equal(t, "Voice answers are off.", got[0].Text, "the bot's name unknown: every command is its own")
}

func TestStartInEnglishWithoutAMiniApp(t *testing.T) {
	e := start(t, `{}`, telegram.Deps{Chat: echoChat("ok")})
	got := sentOf(e.say(t, userTG, "en", "/start@mediateka_bot", 1))
	assert.True(t, strings.HasPrefix(got[0].Text, "Hello! I am the bot of the media server <b>mediateka</b>."), got[0].Text)
	assert.Equal(t, "", got[0].ReplyMarkup, "no Mini App configured: no button")
	assert.Empty(t, e.fake.Calls("setChatMenuButton"))
}

func TestHelpListsEveryCommandWithExamples(t *testing.T) {
	e := start(t, `{}`, telegram.Deps{Chat: echoChat("ok")})
	en := sentOf(e.say(t, userTG, "en-GB", "/help", 1))[0]
	assert.Equal(t, "HTML", en.ParseMode)
	for _, line := range []string{
		"<b>Commands</b>",
		"/start — Greeting and the media server app",
		"/link — Link your media server account: /link CODE (example: <code>/link 4F7K2Q</code>)",
		"/notify — Admin notifications: on or off (example: <code>/notify off</code>)",
		"/voice — Voice answers: on or off (example: <code>/voice on</code>)",
		"/find — Find in the library and play: /find TITLE (example: <code>/find Matrix</code>)",
		"/torrent — Search torrents and add one: /torrent QUERY (example: <code>/torrent Interstellar</code>)",
		"<b>What you can ask</b>",
		"• about torrents: “what's downloading?”, “find torrent Interstellar”",
	} {
		assert.Contains(t, en.Text, line+"\n")
	}
	ru := sentOf(e.say(t, userTG, "ru", "/help", 1))[0]
	assert.Contains(t, ru.Text, "/status — Библиотека, торренты, плеер, ИИ\n")
	assert.Contains(t, ru.Text, "• о библиотеке: «какие фильмы Нолана есть?», «сколько сериалов?»\n")
	assert.Contains(t, ru.Text, "(пример: <code>/link 4F7K2Q</code>)")
	assert.Contains(t, ru.Text, "/find — Найти в библиотеке и включить: /find НАЗВАНИЕ (или /найти) (пример: <code>/find Матрица</code>)\n")
}

// fixedStatus is a telegram.Status answering one report; it records the
// caller asked about.
type fixedStatus struct {
	report  telegram.StatusReport
	callers []domain.Caller
}

func (s *fixedStatus) Status(_ context.Context, c domain.Caller) telegram.StatusReport {
	s.callers = append(s.callers, c)
	r := s.report
	if c.UserID == 0 {
		r.Room = nil
	}
	return r
}

func TestStatusShowsLibraryTorrentsRoomAndModel(t *testing.T) {
	st := &fixedStatus{report: telegram.StatusReport{
		Library:  &telegram.LibraryCounts{Movies: 120, Series: 8, Episodes: 230, Missing: 3},
		Torrents: telegram.TorrentsStatus{Configured: true, Reachable: true, Active: 2, Total: 5},
		Room: &telegram.RoomStatus{Room: "admin@example.org", Players: 1, State: domain.PlayPlaying,
			Position: 723, Duration: 8160, Volume: 80, Title: "Матрица <1999>"},
		Model: "gemini/gemini-2.5-flash", ModelKey: true,
	}}
	e := start(t, `{}`, telegram.Deps{Chat: echoChat("ok"), Status: st})
	got := sentOf(e.say(t, adminTG, "ru", "/status", 1))[0]
	assert.Equal(t, "<b>Библиотека</b>: фильмов 120, сериалов 8, эпизодов 230, отсутствуют на диске 3\n"+
		"<b>Торренты</b>: активных 2 из 5\n"+
		"<b>Плеер</b>: играет «Матрица &lt;1999&gt;», 12:03 / 2:16:00, громкость 80 (комната admin@example.org)\n"+
		"<b>ИИ</b>: gemini/gemini-2.5-flash, ключ API есть", got.Text)
	assert.Equal(t, `{"inline_keyboard":[[{"text":"Обновить","callback_data":"status:1001:1001"}]]}`, got.ReplyMarkup)
	require.Len(t, st.callers, 1)
	assert.Equal(t, domain.Caller{UserID: 1, Email: "admin@example.org", Role: domain.RoleAdmin, Admin: true, Lang: "ru"}, st.callers[0])

	st.report.Torrents = telegram.TorrentsStatus{Configured: true}
	st.report.Library = nil
	st.report.Model, st.report.ModelKey = "openai/gpt-4o-mini", false
	got = sentOf(e.say(t, userTG, "en", "/status", 1))[0]
	assert.Equal(t, "<b>Library</b>: could not be counted\n"+
		"<b>Torrents</b>: the torrent client is unreachable\n"+
		"<b>Player</b>: no linked account (/link)\n"+
		"<b>AI</b>: openai/gpt-4o-mini, no usable API key", got.Text)
}

func TestStatusRefreshButtonIsOnlyForItsOwner(t *testing.T) {
	st := &fixedStatus{report: telegram.StatusReport{Torrents: telegram.TorrentsStatus{}, Model: "offline"}}
	e := start(t, `{}`, telegram.Deps{Chat: echoChat("ok"), Status: st})
	e.say(t, userTG, "en", "/status", 1)
	callback := func(id string, from, chatID int64) {
		e.fake.Push(map[string]any{"callback_query": map[string]any{
			"id": id, "data": "status:1002:1002", "chat_instance": "x",
			"from":    map[string]any{"id": from, "is_bot": false, "first_name": "B", "language_code": "en"},
			"message": map[string]any{"message_id": 1, "date": 1700000000, "chat": map[string]any{"id": chatID, "type": "private"}},
		}})
	}
	callback("cb-stranger", strangerTG, strangerTG)
	callback("cb-other-chat", userTG, 555)
	answers := e.fake.WaitCalls(t, "answerCallbackQuery", 2)
	assert.Equal(t, map[string]string{"callback_query_id": "cb-stranger", "text": "This button is not for you."}, answers[0].Fields)
	assert.Equal(t, map[string]string{"callback_query_id": "cb-other-chat", "text": "This button is not for you."}, answers[1].Fields)

	callback("cb-owner", userTG, userTG)
	sends := e.fake.WaitCalls(t, "sendMessage", 2)
	assert.Len(t, sends, 2, "only the owner's press sent a new status")
	assert.Equal(t, "1002", sends[1].Fields["chat_id"])
	assert.Equal(t, map[string]string{"callback_query_id": "cb-owner"}, e.fake.Calls("answerCallbackQuery")[2].Fields)
}

func TestLinkRedeemsACodeAndRefusesABadOne(t *testing.T) {
	e := start(t, `{}`, telegram.Deps{Chat: echoChat("ok")})
	got := sentOf(e.say(t, userTG, "ru", "/link WRONG1", 1))[0]
	assert.Equal(t, "Этот код не подошёл: он неверный, уже использован или истёк (код действует 10 минут). Получите новый и попробуйте ещё раз.", got.Text)
	got = sentOf(e.say(t, userTG, "en", "/link", 1))[0]
	assert.Equal(t, "To link your account, get a code on the media server's home page (the Telegram section) and send: /link CODE", got.Text)
	got = sentOf(e.say(t, userTG, "en", "/link GOOD42", 1))[0]
	assert.Equal(t, "Done: Telegram is linked to the account <b>user@example.org</b>.", got.Text)
	u, ok, _ := e.accts.ByTelegramID(context.Background(), userTG)
	assert.True(t, ok)
	assert.Equal(t, int64(2), u.ID)
	got = sentOf(e.say(t, userTG, "en", "/link GOOD42", 1))[0]
	assert.Contains(t, got.Text, "That code did not work", "a code is single use")
}

func TestNotifyIsForLinkedAdminsAndVoiceNeedsSpeech(t *testing.T) {
	e := start(t, `{}`, telegram.Deps{Chat: echoChat("ok")})
	assert.Equal(t, "Library notifications are for linked administrators only (/link).",
		sentOf(e.say(t, userTG, "en", "/notify off", 1))[0].Text)
	assert.Equal(t, "Уведомления выключены.", sentOf(e.say(t, adminTG, "ru", "/notify off", 1))[0].Text)
	assert.Equal(t, "Send /notify on or /notify off.", sentOf(e.say(t, adminTG, "en", "/notify maybe", 1))[0].Text)
	assert.Equal(t, "Voice answers are unavailable: speech synthesis is not set up.",
		sentOf(e.say(t, userTG, "en", "/voice on", 1))[0].Text)
	assert.Equal(t, "There is no such command. The list of commands is in /help.",
		sentOf(e.say(t, userTG, "en", "/frobnicate", 1))[0].Text)
}

func TestHandlePassesAndSetupNeedsAToken(t *testing.T) {
	p := telegram.New(telegram.Deps{Chat: echoChat("ok")})
	require.NoError(t, p.Configure(json.RawMessage(`{}`)))
	ok, err := p.Setup(context.Background())
	assert.False(t, ok)
	assert.EqualError(t, err, "no bot token: set TELEGRAM_BOT_TOKEN or token in the plugin's config.json")
	answer, err := p.Handle(context.Background(), "привет")
	assert.NoError(t, err)
	assert.Equal(t, "", answer, "the bot is not a chat answerer")

	for cfg, want := range map[string]string{
		`{"token":"t","mode":"webhook"}`: "webhook mode needs webhook_url, an https URL",
		`{"token":"t","mode":"webhook","webhook_url":"https://x.org/api/telegram/webhook"}`: "webhook mode needs webhook_secret: 1-256 characters A-Z, a-z, 0-9, _ and -",
		`{"token":"t","mode":"push"}`:           `mode must be "polling" or "webhook"`,
		`{"token":"t","api_url":"ftp://x"}`:     "api_url must be an http(s) URL",
		`{"token":"t","history_turns":51}`:      "history_turns must be between 0 and 50",
		`{"token":"t","allowed_users":["ann"]}`: "json: cannot unmarshal string into Go struct field Config.allowed_users of type int64",
	} {
		assert.EqualError(t, telegram.New(telegram.Deps{}).Configure(json.RawMessage(cfg)), want, cfg)
	}
	var logged bytes.Buffer
	p = telegram.New(telegram.Deps{Token: "from-env", Chat: echoChat("ok"), Logger: slog.New(slog.NewTextHandler(&logged, nil))})
	require.NoError(t, p.Configure(json.RawMessage(`{"token":"from-file"}`)))
	ok, err = p.Setup(context.Background())
	assert.True(t, ok, "TELEGRAM_BOT_TOKEN fills in or wins")
	assert.NoError(t, err)
	assert.Contains(t, logged.String(), `level=WARN msg="telegram: allowed_users is empty, so every Telegram user may talk to the bot"`)
	assert.NotContains(t, logged.String(), "from-", "no token in the log")

	logged.Reset()
	p = telegram.New(telegram.Deps{Token: "from-env", Chat: echoChat("ok"), Logger: slog.New(slog.NewTextHandler(&logged, nil))})
	require.NoError(t, p.Configure(json.RawMessage(`{"allowed_users":[42]}`)))
	ok, err = p.Setup(context.Background())
	require.True(t, ok)
	require.NoError(t, err)
	assert.Empty(t, logged.String(), "a list of users: no warning")
}
