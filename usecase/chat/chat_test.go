package chat_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/repository/aimodel/aifake"
	"mediateka/repository/aimodel/gemini"
	"mediateka/repository/sqlstore"
	"mediateka/repository/sqlstore/sqlstoretest"
	"mediateka/usecase/apikey"
	"mediateka/usecase/chat"
	"mediateka/usecase/event"
	"mediateka/usecase/notice"
)

const geminiKey = "AIzaSy-CHAT-TEST-KEY-0123456789"

// chainFunc is a plugin chain made of one function.
type chainFunc func(ctx context.Context, msg string) (string, string)

func (f chainFunc) Handle(ctx context.Context, msg string) (string, string) { return f(ctx, msg) }

// passAll is a chain in which no plugin answers.
var passAll = chainFunc(func(context.Context, string) (string, string) { return "", "" })

type env struct {
	svc      *chat.Service
	fake     *aifake.Gemini
	settings *sqlstore.Settings
	activity *sqlstore.Activity
	userID   int64
}

// newEnv wires the chat over a real SQLite store, the real key rotation and
// the real Gemini client talking to the fake Gemini server.
func newEnv(t *testing.T, chain chat.PluginChain, opt chat.Options) *env {
	t.Helper()
	ctx := context.Background()
	store := sqlstoretest.New(t, nil).Store
	repo, err := sqlstore.NewAPIKeys(store, []byte("chat-test-master-secret-0123456789"))
	require.NoError(t, err)
	keys := apikey.New(repo, apikey.Options{})
	_, err = keys.Create(ctx, apikey.NewKey{Name: "main", Secret: geminiKey})
	require.NoError(t, err)
	fake := aifake.NewGemini(t)
	client, err := gemini.New(gemini.Config{BaseURL: fake.URL()})
	require.NoError(t, err)
	u, err := sqlstore.NewUsers(store).Create(ctx, domain.User{Email: "u@example.org", Name: "U"})
	require.NoError(t, err)
	e := &env{fake: fake, settings: sqlstore.NewSettings(store), activity: sqlstore.NewActivity(store), userID: u.ID}
	e.svc = chat.New(chain, keys.Model(client, false), e.settings, e.activity, opt)
	return e
}

func TestHistoryReachesTheModelInOrder(t *testing.T) {
	e := newEnv(t, passAll, chat.Options{})
	history := []domain.ChatTurn{
		{Role: "user", Text: "Посоветуй комедию"},
		{Role: "model", Text: "«Джентльмены удачи»?"},
		{Role: "user", Text: "уже видел"},
		{Role: "assistant", Text: "Тогда «Кин-дза-дза!»"},
	}
	ans, err := e.svc.Ask(context.Background(), chat.Request{Caller: domain.Caller{UserID: e.userID}, Message: "  а ещё?  ", History: history})
	require.NoError(t, err)
	assert.Equal(t, chat.Answer{Text: aifake.DefaultReply, HandledBy: "model", Model: "gemini/gemini-2.5-flash"}, ans)
	got := e.fake.Last()
	assert.Equal(t, []aifake.Turn{
		{Role: "user", Text: "Посоветуй комедию"},
		{Role: "model", Text: "«Джентльмены удачи»?"},
		{Role: "user", Text: "уже видел"},
		{Role: "model", Text: "Тогда «Кин-дза-дза!»"},
	}, got.History)
	assert.Equal(t, "а ещё?", got.Message)
	assert.Equal(t, geminiKey, got.Key)
}

func TestSystemInstructionChangeReachesTheNextRequest(t *testing.T) {
	e := newEnv(t, passAll, chat.Options{})
	ctx := context.Background()
	_, err := e.svc.Ask(ctx, chat.Request{Message: "hi"})
	require.NoError(t, err)
	assert.Equal(t, domain.DefaultSystemInstruction, e.fake.Last().System, "the default until one is stored")

	_, err = e.settings.Set(ctx, domain.SettingSystemInstruction, "Отвечай как кинокритик.")
	require.NoError(t, err)
	_, err = e.svc.Ask(ctx, chat.Request{Message: "hi again"})
	require.NoError(t, err)
	assert.Equal(t, "Отвечай как кинокритик.", e.fake.Last().System)
}

func TestValidation(t *testing.T) {
	e := newEnv(t, passAll, chat.Options{MaxMessageChars: 5, MaxHistory: 2})
	turn := domain.ChatTurn{Role: "user", Text: "x"}
	cases := []struct {
		name  string
		req   chat.Request
		code  string
		field string
	}{
		{"empty", chat.Request{Message: ""}, "empty_message", ""},
		{"blank", chat.Request{Message: " \n\t "}, "empty_message", ""},
		{"six characters", chat.Request{Message: "ёёёёёё"}, "message_too_long", ""},
		{"too much history", chat.Request{Message: "ok", History: []domain.ChatTurn{turn, turn, turn}}, "invalid_input", "history"},
		{"bad role", chat.Request{Message: "ok", History: []domain.ChatTurn{turn, {Role: "system", Text: "x"}}}, "invalid_input", "history[1].role"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := e.svc.Ask(context.Background(), c.req)
			var de *domain.Error
			require.ErrorAs(t, err, &de)
			assert.Equal(t, domain.KindInvalid, de.Kind)
			assert.Equal(t, c.code, de.Code)
			if c.field != "" {
				assert.Contains(t, de.Fields, c.field)
			}
			assert.ErrorIs(t, e.svc.Stream(context.Background(), c.req, func(chat.Event) error {
				t.Fatal("no event before validation")
				return nil
			}), de)
		})
	}
	assert.Empty(t, e.fake.Requests(), "invalid input never reaches the model")
	_, err := e.svc.Ask(context.Background(), chat.Request{Message: "ёёёёё", History: []domain.ChatTurn{turn, turn}})
	assert.NoError(t, err, "five Cyrillic characters (ten bytes) are within five characters")
}

func TestPluginAnswerWinsAndIsRecordedWithoutText(t *testing.T) {
	chain := chainFunc(func(_ context.Context, msg string) (string, string) {
		if strings.Contains(msg, "субтитры") {
			return "Субтитры включены.", "media_layer"
		}
		return "", ""
	})
	e := newEnv(t, chain, chat.Options{})
	ctx := context.Background()
	ans, err := e.svc.Ask(ctx, chat.Request{Caller: domain.Caller{UserID: e.userID}, Message: "включи субтитры"})
	require.NoError(t, err)
	assert.Equal(t, chat.Answer{Text: "Субтитры включены.", HandledBy: "media_layer"}, ans)
	assert.Empty(t, e.fake.Requests(), "the model is not asked when a plugin answers")

	_, err = e.svc.Ask(ctx, chat.Request{Caller: domain.Caller{UserID: e.userID}, Message: "секретный вопрос", History: []domain.ChatTurn{{Role: "user", Text: "a"}}})
	require.NoError(t, err)
	rows, err := e.activity.ForUser(ctx, e.userID, 10)
	require.NoError(t, err)
	require.Len(t, rows, 2)
	var details []map[string]any
	for _, r := range rows {
		assert.Equal(t, "chat", r.Action)
		assert.NotContains(t, r.Details, "субтитры")
		assert.NotContains(t, r.Details, "секретный")
		var d map[string]any
		require.NoError(t, json.Unmarshal([]byte(r.Details), &d))
		details = append(details, d)
	}
	assert.ElementsMatch(t, []map[string]any{
		{"message_chars": 15.0, "history_items": 0.0, "handled_by": "media_layer"},
		{"message_chars": 16.0, "history_items": 1.0, "handled_by": "model"},
	}, details)
}

func TestModelFailureIs503WithoutTheKey(t *testing.T) {
	e := newEnv(t, passAll, chat.Options{})
	e.fake.FailAll(500)
	_, err := e.svc.Ask(context.Background(), chat.Request{Caller: domain.Caller{UserID: e.userID}, Message: "hi"})
	var de *domain.Error
	require.ErrorAs(t, err, &de)
	assert.Equal(t, domain.KindUnavailable, de.Kind)
	assert.Equal(t, "ai_unavailable", de.Code)
	assert.NotContains(t, err.Error(), geminiKey)

	e.fake.FailAll(0)
	e.fake.RateLimit(geminiKey)
	_, err = e.svc.Ask(context.Background(), chat.Request{Message: "hi"})
	require.ErrorAs(t, err, &de)
	assert.Equal(t, "ai_unavailable", de.Code, "the only key is exhausted")
	assert.NotContains(t, de.Message, geminiKey)

	rows, _ := e.activity.ForUser(context.Background(), e.userID, 10)
	require.Len(t, rows, 1)
	assert.Contains(t, rows[0].Details, `"error":"ai_unavailable"`)
}

func TestTimeoutEndsTheExchange(t *testing.T) {
	slow := chainFunc(func(ctx context.Context, _ string) (string, string) {
		<-ctx.Done() // a plugin that hangs until the chat gives up
		return "", ""
	})
	e := newEnv(t, slow, chat.Options{Timeout: 100 * time.Millisecond})
	begin := time.Now()
	_, err := e.svc.Ask(context.Background(), chat.Request{Message: "hi"})
	assert.Less(t, time.Since(begin), 2*time.Second)
	var de *domain.Error
	require.ErrorAs(t, err, &de)
	assert.Equal(t, "ai_unavailable", de.Code)
	assert.Contains(t, de.Message, "in time")
}

func TestStreamEvents(t *testing.T) {
	e := newEnv(t, passAll, chat.Options{})
	e.fake.SetReply("раз два три четыре")
	e.fake.SetChunks(4)
	var events []chat.Event
	err := e.svc.Stream(context.Background(), chat.Request{Message: "считай"}, func(ev chat.Event) error {
		events = append(events, ev)
		return nil
	})
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(events), 5)
	assert.Equal(t, chat.Event{Status: chat.StatusCheckingPlugins}, events[0])
	assert.Equal(t, chat.Event{Status: chat.StatusAskingModel}, events[1])
	var text strings.Builder
	for _, ev := range events[2 : len(events)-1] {
		assert.NotEmpty(t, ev.Text)
		text.WriteString(ev.Text)
	}
	assert.Equal(t, "раз два три четыре", text.String())
	assert.Equal(t, chat.Event{Done: true, HandledBy: "model", Model: "gemini/gemini-2.5-flash"}, events[len(events)-1])
	assert.True(t, e.fake.Last().Stream)

	e.fake.FailAll(503)
	events = nil
	err = e.svc.Stream(context.Background(), chat.Request{Message: "again"}, func(ev chat.Event) error {
		events = append(events, ev)
		return nil
	})
	assert.ErrorIs(t, err, domain.ErrAIUnavailable)
	for _, ev := range events {
		assert.False(t, ev.Done, "no done event after a failure")
	}
}

// The caller reaches every plugin through the context, with the answer
// language settled: the message's script, else the account's, else the
// default.
func TestTheCallerReachesThePluginsWithTheLanguage(t *testing.T) {
	var seen []domain.Caller
	chain := chainFunc(func(ctx context.Context, _ string) (string, string) {
		c, ok := domain.CallerFrom(ctx)
		require.True(t, ok, "every plugin sees a caller")
		seen = append(seen, c)
		return "ok", "p"
	})
	e := newEnv(t, chain, chat.Options{})
	user := domain.Caller{UserID: e.userID, Email: "u@example.org", Role: domain.RoleUser}
	ask := func(c domain.Caller, msg string) {
		_, err := e.svc.Ask(context.Background(), chat.Request{Caller: c, Message: msg})
		require.NoError(t, err)
	}
	ask(user, "Просканируй библиотеку")
	ask(user, "scan the library")
	ask(user, "42")
	withLang := user
	withLang.Lang = domain.LangRussian
	ask(withLang, "42")
	ask(withLang, "hello")
	require.NoError(t, e.svc.Stream(context.Background(), chat.Request{Caller: user, Message: "привет"}, func(chat.Event) error { return nil }))

	require.Len(t, seen, 6)
	assert.Equal(t, domain.Caller{UserID: e.userID, Email: "u@example.org", Role: domain.RoleUser, Lang: "ru"}, seen[0])
	var langs []string
	for _, c := range seen {
		langs = append(langs, c.Lang)
		assert.False(t, c.Admin)
	}
	assert.Equal(t, []string{"ru", "en", domain.DefaultLang, "ru", "en", "ru"}, langs)
}

// startNotices runs the real notice service on a bus until the test ends.
// User 1000 watches the scan "probe": once it is told that "probe" ended,
// every event published before has been handled.
func startNotices(t *testing.T) (*notice.Service, *event.Bus) {
	t.Helper()
	svc, bus := notice.New(), event.New(nil)
	l := bus.Listen(8)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = svc.Run(ctx, l); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	require.Eventually(t, func() bool { return svc.WatchScan(1000, "probe") }, time.Second, time.Millisecond)
	return svc, bus
}

// What the chat owes a person (a scan they started has ended) opens their
// next answer, once, whoever answers it; a failed answer loses nothing.
func TestNoticesOpenTheNextAnswerOnce(t *testing.T) {
	notices, bus := startNotices(t)
	plugin := chainFunc(func(_ context.Context, msg string) (string, string) {
		if msg == "plugin" {
			return "ok", "p"
		}
		return "", ""
	})
	e := newEnv(t, plugin, chat.Options{Notices: notices})
	user := domain.Caller{UserID: e.userID, Role: domain.RoleAdmin, Admin: true}
	ask := func(msg string) (string, error) {
		a, err := e.svc.Ask(context.Background(), chat.Request{Caller: user, Message: msg})
		return a.Text, err
	}
	handled := func() {
		bus.Publish(domain.ScanCompleted{ScanID: "probe", State: domain.JobCompleted})
		require.Eventually(t, func() bool { return notices.Take(1000, "en") != "" }, time.Second, time.Millisecond)
		require.True(t, notices.WatchScan(1000, "probe"))
	}
	require.True(t, notices.WatchScan(e.userID, "scan-1"))
	bus.Publish(domain.ScanCompleted{ScanID: "scan-1", State: domain.JobCompleted, Added: 6})
	handled()

	e.fake.FailAll(503)
	_, err := ask("model")
	require.Error(t, err)
	e.fake.FailAll(0)
	e.fake.SetReply("answer")
	got, err := ask("plugin")
	require.NoError(t, err)
	assert.Equal(t, "Scan finished: 6 added, 0 updated, 0 missing.\n\nok", got, "the failed answer did not take it")
	got, err = ask("plugin")
	require.NoError(t, err)
	assert.Equal(t, "ok", got, "told once")

	require.True(t, notices.WatchScan(e.userID, "scan-2"))
	bus.Publish(domain.ScanCompleted{ScanID: "scan-2", State: domain.JobCompleted, Updated: 2})
	handled()
	e.fake.SetChunks(2)
	var text strings.Builder
	require.NoError(t, e.svc.Stream(context.Background(), chat.Request{Caller: user, Message: "модель"}, func(ev chat.Event) error {
		text.WriteString(ev.Text)
		return nil
	}))
	assert.Equal(t, "Сканирование закончено: добавлено: 0, обновлено: 2, пропало: 0.\n\nanswer", text.String(),
		"streamed with the first piece, in the message's language")

	require.True(t, notices.WatchScan(e.userID, "scan-3"))
	bus.Publish(domain.ScanCompleted{ScanID: "scan-3", State: domain.JobCompleted})
	handled()
	a, err := e.svc.Ask(context.Background(), chat.Request{Message: "plugin"})
	require.NoError(t, err)
	assert.Equal(t, "ok", a.Text, "a caller without an account is told nothing")
}
