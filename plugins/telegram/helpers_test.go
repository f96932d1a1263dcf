package telegram_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/plugins/telegram"
	"mediateka/plugins/telegram/tgfake"
	"mediateka/usecase/chat"
)

// Telegram users of the tests: an admin linked to an account, a user with
// none, and someone the allowed list may leave out.
const (
	adminTG    int64 = 1001
	userTG     int64 = 1002
	strangerTG int64 = 1003
)

// accounts is an in-memory telegram.Accounts: linked users and unused
// link codes.
type accounts struct {
	mu    sync.Mutex
	users map[int64]domain.User // by account id
	codes map[string]int64      // code → account id
}

func newAccounts() *accounts {
	tg := adminTG
	return &accounts{
		users: map[int64]domain.User{
			1: {ID: 1, Email: "admin@example.org", Role: domain.RoleAdmin, IsAdmin: true, TelegramID: &tg},
			2: {ID: 2, Email: "user@example.org", Role: domain.RoleUser},
		},
		codes: map[string]int64{"GOOD42": 2},
	}
}

func (a *accounts) ByTelegramID(_ context.Context, tgID int64) (domain.User, bool, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, u := range a.users {
		if u.TelegramID != nil && *u.TelegramID == tgID {
			return u, true, nil
		}
	}
	return domain.User{}, false, nil
}

func (a *accounts) Redeem(_ context.Context, code string, tgID int64) (domain.User, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	id, ok := a.codes[code]
	if !ok {
		return domain.User{}, domain.ErrNotFound("link code")
	}
	delete(a.codes, code)
	u := a.users[id]
	u.TelegramID = &tgID
	a.users[id] = u
	return u, nil
}

// setTelegram links account id to a Telegram user (nil: unlinks it).
func (a *accounts) setTelegram(id int64, tg *int64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	u := a.users[id]
	u.TelegramID = tg
	a.users[id] = u
}

func (a *accounts) LinkedAdmins(context.Context) ([]domain.User, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	var out []domain.User
	for _, u := range a.users {
		if u.TelegramID != nil && u.Admin() {
			out = append(out, u)
		}
	}
	return out, nil
}

// chatFunc is a telegram.Chat made of a function; it records requests.
type chatFunc struct {
	mu   sync.Mutex
	reqs []chat.Request
	fn   func(chat.Request) (chat.Answer, error)
}

func (c *chatFunc) Ask(_ context.Context, r chat.Request) (chat.Answer, error) {
	c.mu.Lock()
	c.reqs = append(c.reqs, r)
	c.mu.Unlock()
	return c.fn(r)
}

func (c *chatFunc) requests() []chat.Request {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]chat.Request(nil), c.reqs...)
}

// env is a running bot over the fake Bot API.
type env struct {
	fake  *tgfake.Server
	bot   *telegram.Plugin
	accts *accounts

	mu    sync.Mutex
	waits []time.Duration
}

// start configures, sets up and starts a bot with config (JSON) and d
// (its Chat, Status… ; the token, api_url and retry clock are filled in),
// and stops it when the test ends.
func start(t *testing.T, config string, d telegram.Deps) *env {
	t.Helper()
	return startOn(t, tgfake.New(t), config, d)
}

// startOn is start over a fake the test prepared (failures planned before
// the first call).
func startOn(t *testing.T, fake *tgfake.Server, config string, d telegram.Deps) *env {
	t.Helper()
	e := &env{fake: fake, accts: newAccounts()}
	if d.Accounts == nil {
		d.Accounts = e.accts
	}
	d.Token, d.PollTimeout, d.Workers = tgfake.Token, 2*time.Second, 1
	d = telegram.WithSleep(d, func(ctx context.Context, wait time.Duration) error {
		e.mu.Lock()
		e.waits = append(e.waits, wait)
		e.mu.Unlock()
		return ctx.Err()
	})
	e.bot = telegram.New(d)
	var cfg map[string]any
	require.NoError(t, json.Unmarshal([]byte(config), &cfg))
	cfg["api_url"] = e.fake.URL()
	raw, _ := json.Marshal(cfg)
	require.NoError(t, e.bot.Configure(raw))
	ok, err := e.bot.Setup(context.Background())
	require.NoError(t, err)
	require.True(t, ok)
	require.NoError(t, e.bot.Start(context.Background()))
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		require.NoError(t, e.bot.Stop(ctx))
	})
	return e
}

// retryWaits are the waits the retries asked for.
func (e *env) retryWaits() []time.Duration {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]time.Duration(nil), e.waits...)
}

// groupMessage is an update carrying a text message from a user in a
// group chat.
func groupMessage(from, chat int64, lang, text string) map[string]any {
	u := tgfake.Message(from, lang, text)
	u["message"].(map[string]any)["chat"] = map[string]any{"id": chat, "type": "group", "title": "Film club"}
	return u
}

// say pushes a message and waits for n more sendMessage calls; it returns
// the new ones.
func (e *env) say(t *testing.T, from int64, lang, text string, n int) []tgfake.Call {
	t.Helper()
	before := len(e.fake.Calls("sendMessage"))
	e.fake.Push(tgfake.Message(from, lang, text))
	return e.fake.WaitCalls(t, "sendMessage", before+n)[before:]
}

// sent is a sendMessage as the tests compare it.
type sent struct {
	ChatID, Text, ParseMode, ReplyMarkup string
}

// sentOf reduces calls to what a user sees.
func sentOf(calls []tgfake.Call) []sent {
	out := make([]sent, 0, len(calls))
	for _, c := range calls {
		out = append(out, sent{ChatID: c.Fields["chat_id"], Text: c.Fields["text"], ParseMode: c.Fields["parse_mode"],
			ReplyMarkup: c.Fields["reply_markup"]})
	}
	return out
}
