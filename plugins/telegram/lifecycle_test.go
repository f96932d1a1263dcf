package telegram_test

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"mediateka/domain"
	"mediateka/plugins/telegram"
	"mediateka/plugins/telegram/tgfake"
	"mediateka/usecase/chat"
	"mediateka/usecase/event"
	"mediateka/usecase/tts"
)

func TestA429IsRetriedAfterRetryAfterAndA5xxWithBackoff(t *testing.T) {
	fake := tgfake.New(t)
	fake.Fail("setMyCommands", http.StatusTooManyRequests, 7)
	fake.Fail("setMyCommands", http.StatusInternalServerError, 0)
	e := startOn(t, fake, `{}`, telegram.Deps{Chat: echoChat("ok")})
	e.fake.WaitCalls(t, "getUpdates", 1)
	calls := e.fake.Calls("setMyCommands")
	require.Len(t, calls, 4, "two failed attempts, then the one that went through, then the Russian menu")
	for _, c := range calls[:3] {
		assert.Equal(t, calls[2].Fields["commands"], c.Fields["commands"], "the same call each time")
	}
	assert.Equal(t, []time.Duration{7 * time.Second, time.Second}, e.retryWaits(),
		"retry_after is respected; a 500 then waits the doubled backoff")
}

func TestAnAnswerIsRetriedOnlyWhenTelegramCertainlyDidNotTakeIt(t *testing.T) {
	e := start(t, `{}`, telegram.Deps{Chat: echoChat("ok")})
	e.fake.WaitCalls(t, "getUpdates", 1)
	e.fake.Fail("sendMessage", http.StatusTooManyRequests, 3)
	got := sentOf(e.say(t, userTG, "en", "/voice off", 2))
	assert.Equal(t, []string{"Voice answers are off.", "Voice answers are off."}, []string{got[0].Text, got[1].Text},
		"a 429 is Telegram refusing the call undone: sent again after retry_after")
	assert.Equal(t, []time.Duration{3 * time.Second}, e.retryWaits())

	e.fake.Fail("sendMessage", http.StatusInternalServerError, 0)
	e.fake.Push(tgfake.Message(userTG, "en", "/voice off"))
	e.fake.Push(tgfake.Message(userTG, "en", "/notify on"))
	calls := e.fake.WaitCalls(t, "sendMessage", 4)
	assert.Equal(t, "Library notifications are for linked administrators only (/link).", calls[3].Fields["text"],
		"the next message's answer: the one that got a 500 was not sent again")
	assert.Len(t, e.fake.Calls("sendMessage"), 4)
	assert.Equal(t, []time.Duration{3 * time.Second}, e.retryWaits(), "no wait for the 500")
}

func TestPollingRidesOutABotAPIOutage(t *testing.T) {
	fake := tgfake.New(t)
	// More failures than one call's attempts: the retries give up, the
	// poll loop asks again, and the bot answers once the API is back.
	for range 7 {
		fake.Fail("getUpdates", http.StatusBadGateway, 0)
	}
	fake.Fail("getUpdates", http.StatusTooManyRequests, 3)
	e := startOn(t, fake, `{}`, telegram.Deps{Chat: echoChat("ok")})
	got := sentOf(e.say(t, userTG, "en", "/voice off", 1))
	assert.Equal(t, "Voice answers are off.", got[0].Text)
	assert.Equal(t, []time.Duration{
		500 * time.Millisecond, time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, // six attempts
		500 * time.Millisecond, 3 * time.Second, // the next poll: one more 502, then the 429's retry_after
	}, e.retryWaits())
}

func TestStopEndsPollingWithNothingLeftBehind(t *testing.T) {
	fake := tgfake.New(t)
	ignore := goleak.IgnoreCurrent()
	e := startOn(t, fake, `{}`, telegram.Deps{Chat: echoChat("ok")})
	e.say(t, userTG, "en", "hello", 1)
	e.fake.WaitCalls(t, "getUpdates", 2) // a long poll is in flight
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	require.NoError(t, e.bot.Stop(ctx))
	goleak.VerifyNone(t, ignore)
	polls := len(fake.Calls("getUpdates"))
	fake.Push(tgfake.Message(userTG, "en", "are you there?"))
	e2 := len(fake.Calls("sendMessage"))
	assert.Equal(t, 1, e2, "a stopped bot answers nothing")
	assert.Equal(t, polls, len(fake.Calls("getUpdates")), "and polls no more")
	require.NoError(t, e.bot.Stop(ctx), "stopping twice is harmless")
}

func TestWebhookChecksTheSecretOnEveryRequest(t *testing.T) {
	e := start(t, `{"mode":"webhook","webhook_url":"https://media.example.org/api/telegram/webhook","webhook_secret":"s3cret_token-1"}`,
		telegram.Deps{Chat: echoChat("ok")})
	set := e.fake.WaitCalls(t, "setWebhook", 1)
	assert.Equal(t, "https://media.example.org/api/telegram/webhook", set[0].Fields["url"])
	assert.Equal(t, "s3cret_token-1", set[0].Fields["secret_token"])
	assert.Empty(t, e.fake.Calls("getUpdates"), "webhook mode does not poll")

	srv := httptest.NewServer(e.bot.Webhook())
	defer srv.Close()
	post := func(secret string) int {
		req, _ := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(
			`{"update_id":1,"message":{"message_id":1,"date":1700000000,"text":"/voice off","chat":{"id":1002,"type":"private"},"from":{"id":1002,"is_bot":false,"first_name":"U","language_code":"en"}}}`))
		if secret != "" {
			req.Header.Set("X-Telegram-Bot-Api-Secret-Token", secret)
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		_ = resp.Body.Close()
		return resp.StatusCode
	}
	assert.Equal(t, http.StatusUnauthorized, post(""))
	assert.Equal(t, http.StatusUnauthorized, post("wrong"))
	assert.Equal(t, http.StatusOK, post("s3cret_token-1"))
	got := e.fake.WaitCalls(t, "sendMessage", 1)
	assert.Equal(t, "Voice answers are off.", got[0].Fields["text"])
	assert.Len(t, got, 1, "only the request with the secret was handled")

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	require.NoError(t, e.bot.Stop(ctx))
	assert.Equal(t, http.StatusNotFound, post("s3cret_token-1"), "a stopped bot takes no updates")
}

// speech is a telegram.Speech that "speaks" into a file of known bytes.
type speech struct {
	dir   string
	texts []string
}

func (s *speech) Speak(_ context.Context, text string, format domain.AudioFormat) (tts.File, error) {
	s.texts = append(s.texts, text+"|"+string(format))
	path := filepath.Join(s.dir, "a.ogg")
	return tts.File{Name: "a.ogg", Path: path, Format: format}, os.WriteFile(path, []byte("OggS fake opus"), 0o600)
}

func TestVoiceOnSendsTheAnswerAsAVoiceUpload(t *testing.T) {
	sp := &speech{dir: t.TempDir()}
	e := start(t, `{}`, telegram.Deps{Chat: echoChat("Матрица есть."), Speech: sp})
	assert.Equal(t, "Буду отвечать ещё и голосом.", sentOf(e.say(t, userTG, "ru", "/voice on", 1))[0].Text)
	e.say(t, userTG, "ru", "есть Матрица?", 1)
	voice := e.fake.WaitCalls(t, "sendVoice", 1)
	assert.Equal(t, "1002", voice[0].Fields["chat_id"])
	assert.True(t, bytes.Equal([]byte("OggS fake opus"), voice[0].Files["voice"]), "the OGG file is uploaded as multipart")
	assert.Equal(t, []string{"Матрица есть.|ogg"}, sp.texts)

	e.say(t, userTG, "ru", "/voice off", 1)
	e.say(t, userTG, "ru", "а ещё?", 1)
	assert.Len(t, e.fake.Calls("sendVoice"), 1, "voice off: text only")
}

// settings is an in-memory telegram.Settings.
type settings map[string]string

func (s settings) Get(_ context.Context, key string) (domain.Setting, error) {
	v, ok := s[key]
	if !ok {
		return domain.Setting{}, domain.ErrNotFound("setting " + key)
	}
	return domain.Setting{Key: key, Value: v}, nil
}

func (s settings) Set(_ context.Context, key, value string) (domain.Setting, error) {
	s[key] = value
	return domain.Setting{Key: key, Value: value}, nil
}

func TestLinkedAdminsGetLibraryEventsUntilNotifyOff(t *testing.T) {
	bus := event.New(nil)
	st := settings{}
	e := start(t, `{}`, telegram.Deps{Chat: echoChat("ok"), Events: bus, Settings: st})
	waitListening(t, bus)
	e.say(t, adminTG, "ru", "/help", 1) // the admin writes in Russian
	bus.Publish(domain.ScanStarted{ScanID: "s1"})
	bus.Publish(domain.ScanCompleted{ScanID: "s1", State: domain.JobCompleted, FilesSeen: 10, Added: 2, Updated: 1, Missing: 1})
	bus.Publish(domain.TorrentCompleted{Hash: "ab", Name: "Dune <2021>"})
	bus.Publish(domain.RAGIndexed{State: domain.JobFailed, Indexed: 40, Total: 120})
	got := sentOf(e.fake.WaitCalls(t, "sendMessage", 4)[1:])
	assert.Equal(t, []sent{
		{ChatID: "1001", ParseMode: "HTML", Text: "📚 Сканирование завершено (успешно): файлов 10, добавлено 2, обновлено 1, пропало 1, ошибок 0."},
		{ChatID: "1001", ParseMode: "HTML", Text: "⬇️ Загрузка завершена: Dune &lt;2021&gt;"},
		{ChatID: "1001", ParseMode: "HTML", Text: "🧠 Поисковый индекс обновлён (с ошибкой): 40 из 120."},
	}, got, "only the linked admin, only finished things")

	e.say(t, adminTG, "ru", "/notify off", 1)
	assert.Equal(t, "off", st["telegram.notify.1001"], "the switch is stored")
	// A second linked admin, notifications on, shows when the event has
	// been handled.
	other := int64(1004)
	e.accts.mu.Lock()
	e.accts.users[3] = domain.User{ID: 3, Email: "root@example.org", Role: domain.RoleAdmin, TelegramID: &other}
	e.accts.mu.Unlock()
	bus.Publish(domain.AuditCompleted{Checked: 5})
	calls := e.fake.WaitCalls(t, "sendMessage", 6)
	assert.Equal(t, sent{ChatID: "1004", ParseMode: "HTML",
		Text: "🔎 Library audit finished: 5 checked, 0 missing files, 0 unregistered files, 0 duplicates, 0 incomplete."},
		sentOf(calls[5:])[0])
	// A second event for the other admin: the first has been handled
	// for both admins once it arrives.
	bus.Publish(domain.TorrentCompleted{Name: "X"})
	calls = e.fake.WaitCalls(t, "sendMessage", 7)
	assert.Equal(t, "1004", calls[6].Fields["chat_id"])
	assert.Len(t, calls, 7, "notify off: nothing for the first admin")
}

// waitListening waits until the bot subscribed to the bus.
func waitListening(t *testing.T, bus *event.Bus) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for bus.Listeners() == 0 {
		require.True(t, time.Now().Before(deadline), "the bot never listened to the events")
		time.Sleep(time.Millisecond)
	}
}

func TestNetworkErrorsAreRetriedAndStopIsStillPrompt(t *testing.T) {
	down := httptest.NewServer(http.NotFoundHandler())
	url := down.URL
	down.Close() // nothing listens there now: every call is refused
	waits := make(chan time.Duration, 100)
	d := telegram.WithSleep(telegram.Deps{Chat: echoChat("ok"), Token: tgfake.Token, PollTimeout: 2 * time.Second},
		func(ctx context.Context, wait time.Duration) error {
			select {
			case waits <- wait:
			default:
			}
			return ctx.Err()
		})
	bot := telegram.New(d)
	require.NoError(t, bot.Configure([]byte(`{"api_url":"`+url+`"}`)))
	ok, err := bot.Setup(context.Background())
	require.True(t, ok)
	require.NoError(t, err)
	require.NoError(t, bot.Start(context.Background()))
	var got []time.Duration
	for range 5 {
		got = append(got, <-waits)
	}
	assert.Equal(t, []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second}, got,
		"a refused connection is retried with a doubling backoff")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	require.NoError(t, bot.Stop(ctx), "an outage never keeps the bot from stopping")
}

// heldChat answers every message with "answer to <message>", except that
// it holds the first one named hold, ignoring its context, until release
// is closed; entered is closed when that one arrives.
func heldChat(hold string) (c *chatFunc, entered, release chan struct{}) {
	entered, release = make(chan struct{}), make(chan struct{})
	var once sync.Once
	c = &chatFunc{fn: func(r chat.Request) (chat.Answer, error) {
		if r.Message == hold {
			once.Do(func() {
				close(entered)
				<-release
			})
		}
		return chat.Answer{Text: "answer to " + r.Message}, nil
	}}
	return c, entered, release
}

func TestStopLetsTakenUpdatesFinishAndLosesNone(t *testing.T) {
	c, entered, release := heldChat("first")
	e := start(t, `{}`, telegram.Deps{Chat: c})
	e.fake.WaitCalls(t, "getUpdates", 1)
	e.fake.Push(tgfake.Message(userTG, "en", "first"))
	e.fake.Push(tgfake.Message(userTG, "en", "second"))
	<-entered
	stopped := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		stopped <- e.bot.Stop(ctx)
	}()
	<-telegram.PollingStopped(e.bot) // Stop has begun: no more polling
	close(release)
	require.NoError(t, <-stopped)
	got := sentOf(e.fake.Calls("sendMessage"))
	require.Len(t, got, 1, "the second update was not handled by the stopping bot")
	assert.Equal(t, "answer to first", got[0].Text, "the answer in hand was sent, not cut short by Stop")
	assert.Equal(t, 1, e.fake.Confirmed(), "the first update is confirmed, the second is left for the next start")

	require.NoError(t, e.bot.Start(context.Background()))
	calls := e.fake.WaitCalls(t, "sendMessage", 2)
	assert.Equal(t, "answer to second", calls[1].Fields["text"], "the next start handles what the last one did not")
	e.say(t, userTG, "en", "third", 1)
	assert.Len(t, e.fake.Calls("sendMessage"), 3, "and nothing twice")
}

func TestStartRefusesWhileTheLastRunIsStillEnding(t *testing.T) {
	c, entered, release := heldChat("hang")
	e := start(t, `{}`, telegram.Deps{Chat: c})
	e.fake.WaitCalls(t, "getUpdates", 1)
	e.fake.Push(tgfake.Message(userTG, "en", "hang"))
	<-entered
	e.fake.WaitCalls(t, "getUpdates", 2) // the next poll confirmed the update the handler took
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // the deadline has passed: Stop gives up at once
	require.Error(t, e.bot.Stop(ctx), "a handler that ignores its context holds the run")
	require.ErrorIs(t, e.bot.Start(context.Background()), telegram.ErrStillStopping,
		"a second bot would poll beside the first")
	polls := len(e.fake.Calls("getUpdates"))

	close(release)
	<-telegram.Ended(e.bot)
	assert.Empty(t, e.fake.Calls("sendMessage"), "the handler cancelled at the deadline sent nothing")
	require.NoError(t, e.bot.Start(context.Background()), "once the last run has ended the bot starts again")
	e.fake.WaitCalls(t, "getUpdates", polls+1)
	assert.Equal(t, "answer to again", sentOf(e.say(t, userTG, "en", "again", 1))[0].Text)
}

func TestTheNotificationLanguageIsKeptWithTheLinkedAccount(t *testing.T) {
	bus := event.New(nil)
	st := settings{}
	first := start(t, `{}`, telegram.Deps{Chat: echoChat("ok"), Events: bus, Settings: st})
	first.say(t, adminTG, "ru", "/help", 1) // the admin writes in Russian
	first.say(t, userTG, "en", "/help", 1)  // an unlinked user: nothing kept
	assert.Equal(t, settings{"telegram.lang.1": "ru"}, st, "kept under the account's id")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	require.NoError(t, first.bot.Stop(ctx))

	// A restarted server: nothing in memory, the settings remain.
	second := start(t, `{}`, telegram.Deps{Chat: echoChat("ok"), Events: bus, Settings: st})
	waitListening(t, bus)
	bus.Publish(domain.TorrentCompleted{Hash: "ab", Name: "Dune"})
	got := sentOf(second.fake.WaitCalls(t, "sendMessage", 1))
	assert.Equal(t, sent{ChatID: "1001", ParseMode: "HTML", Text: "⬇️ Загрузка завершена: Dune"}, got[0])
}
