// Package telegram is the Telegram bot plugin (slot 5, API.md §11). It is
// a lifecycle component, not a chat answerer (Handle always passes): Start
// long-polls the Bot API (or serves a webhook), Stop ends it. People talk
// to it in Russian or English (their Telegram language_code): /start,
// /help, /status, /link <code>, /notify on|off, /voice on|off, and any
// other text goes through the chat use case as the linked account (or an
// unlinked user) with the chat's recent history. Linked administrators get
// the library events as messages. Bot API outages (5xx, timeouts, 429 with
// retry_after) are retried with backoff below the bot library and never
// stop the server.
package telegram

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"
)

// Name is the plugin's registry name.
const Name = "telegram"

// Config defaults.
const (
	DefaultAPIURL       = "https://api.telegram.org"
	DefaultHistoryTurns = 10
	// maxHistoryTurns is the chat's own bound on history (chat.MaxHistory's
	// default), so a request never fails for its history.
	maxHistoryTurns = 50
	// defaultPollTimeout is how long one getUpdates waits for an update.
	defaultPollTimeout = time.Minute
)

// Modes of receiving updates.
const (
	ModePolling = "polling"
	ModeWebhook = "webhook"
)

// Config is <plugin_config_dir>/telegram/config.json.
type Config struct {
	// Token is the bot's token; TELEGRAM_BOT_TOKEN (Deps.Token) wins.
	Token        string  `json:"token"`
	APIURL       string  `json:"api_url"`
	AllowedUsers []int64 `json:"allowed_users"`
	Mode         string  `json:"mode"`
	WebhookURL   string  `json:"webhook_url"`
	// WebhookSecret is Telegram's secret_token, checked on every webhook
	// request (X-Telegram-Bot-Api-Secret-Token).
	WebhookSecret string `json:"webhook_secret"`
	HistoryTurns  int    `json:"history_turns"`
	// RatePerMinute is how many messages one Telegram user may send a
	// minute (0: DefaultRatePerMinute).
	RatePerMinute int `json:"rate_per_minute"`
}

// MiniApp is config tg_mini_app: the Mini App /start offers and the chat
// menu button opens. An empty URL offers none.
type MiniApp struct {
	URL, Name, Description string
}

// Deps are what the bot uses. Chat is required to answer messages; the
// others are optional and their commands say so when absent.
type Deps struct {
	// Token is TELEGRAM_BOT_TOKEN; when set it wins over the config's.
	Token    string
	MiniApp  MiniApp
	Chat     Chat
	Accounts Accounts
	Status   Status
	Speech   Speech
	Events   Events
	Settings Settings
	// Catalog, Rooms, TorrentSearch and Torrents are /find, its ▶ button,
	// /torrent and its ⬇ button.
	Catalog       Catalog
	Rooms         Rooms
	TorrentSearch TorrentSearch
	Torrents      Torrents
	Logger        *slog.Logger

	// PollTimeout is one getUpdates long poll (0: a minute); tests shorten
	// it so Stop is prompt.
	PollTimeout time.Duration
	// Workers is how many updates are handled at once (0: 4); tests use 1
	// so updates are handled in order.
	Workers int
	// sleep replaces the retry waits in tests.
	sleep sleepFunc
	// now is the lists' clock (nil: time.Now); tests move it to expire them.
	now func() time.Time
}

// Plugin is the Telegram bot.
type Plugin struct {
	d   Deps
	log *slog.Logger
	cfg Config

	state *chatState
	lists *lists
	// limit is the per-user message rate (set up by Setup).
	limit *limiter

	mu      sync.Mutex
	bot     *bot.Bot
	run     *run
	running bool
	// me is the bot's username (getMe at start), to tell commands for
	// this bot from commands for another in a shared group.
	me string
}

// username is the bot's own username, "" until getMe answered.
func (p *Plugin) username() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.me
}

// learnUsername asks Telegram who the bot is. A failure is logged and
// leaves the name unknown, so commands are then taken whoever they name.
func (p *Plugin) learnUsername(ctx context.Context, b *bot.Bot) {
	me, err := b.GetMe(ctx)
	if err != nil {
		if ctx.Err() == nil {
			p.log.Warn("telegram: getMe failed; commands addressed to other bots are answered too", "err", err.Error())
		}
		return
	}
	p.mu.Lock()
	p.me = me.Username
	p.mu.Unlock()
}

// New builds the plugin; nothing runs before Start.
func New(d Deps) *Plugin {
	if d.Logger == nil {
		d.Logger = slog.New(slog.DiscardHandler)
	}
	if d.sleep == nil {
		d.sleep = sleepCtx
	}
	if d.PollTimeout <= 0 {
		d.PollTimeout = defaultPollTimeout
	}
	if d.Workers <= 0 {
		d.Workers = 4
	}
	return &Plugin{d: d, log: d.Logger, state: newChatState(d.Settings, d.Logger), lists: newLists(d.now)}
}

// Name implements domain.Plugin.
func (p *Plugin) Name() string { return Name }

// Description implements domain.Plugin.
func (p *Plugin) Description() string {
	return "Telegram bot: /start, /help, /status, /link, the assistant in Telegram, library events for linked admins (Russian and English)"
}

// Handle implements domain.Plugin: the bot answers in Telegram, never in
// the chat chain.
func (p *Plugin) Handle(context.Context, string) (string, error) { return "", nil }

// Configure reads and checks config.json; TELEGRAM_BOT_TOKEN wins over its
// token.
func (p *Plugin) Configure(raw json.RawMessage) error {
	var c Config
	if err := json.Unmarshal(raw, &c); err != nil {
		return err
	}
	if p.d.Token != "" {
		c.Token = p.d.Token
	}
	c.Token = strings.TrimSpace(c.Token)
	if c.APIURL == "" {
		c.APIURL = DefaultAPIURL
	}
	c.APIURL = strings.TrimRight(c.APIURL, "/")
	if u, err := url.Parse(c.APIURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return errors.New("api_url must be an http(s) URL")
	}
	if c.Mode == "" {
		c.Mode = ModePolling
	}
	if err := checkMode(c); err != nil {
		return err
	}
	switch {
	case c.HistoryTurns == 0:
		c.HistoryTurns = DefaultHistoryTurns
	case c.HistoryTurns < 0 || c.HistoryTurns > maxHistoryTurns:
		return fmt.Errorf("history_turns must be between 0 and %d", maxHistoryTurns)
	}
	switch {
	case c.RatePerMinute == 0:
		c.RatePerMinute = DefaultRatePerMinute
	case c.RatePerMinute < 0 || c.RatePerMinute > maxRatePerMinute:
		return fmt.Errorf("rate_per_minute must be between 1 and %d", maxRatePerMinute)
	}
	p.cfg = c
	return nil
}

// checkMode checks mode and the webhook settings it needs.
func checkMode(c Config) error {
	switch c.Mode {
	case ModePolling:
		return nil
	case ModeWebhook:
		if u, err := url.Parse(c.WebhookURL); err != nil || u.Scheme != "https" || u.Host == "" {
			return errors.New("webhook mode needs webhook_url, an https URL")
		}
		if !validSecret(c.WebhookSecret) {
			return errors.New("webhook mode needs webhook_secret: 1-256 characters A-Z, a-z, 0-9, _ and -")
		}
		return nil
	}
	return fmt.Errorf("mode must be %q or %q", ModePolling, ModeWebhook)
}

// validSecret is Telegram's rule for secret_token.
func validSecret(s string) bool {
	if len(s) == 0 || len(s) > 256 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return false
		}
	}
	return true
}

// Setup declines without a token or a chat, and warns when everyone may
// talk to the bot.
func (p *Plugin) Setup(context.Context) (bool, error) {
	if p.cfg.APIURL == "" { // Configure was not called: an empty config
		if err := p.Configure(json.RawMessage("{}")); err != nil {
			return false, err
		}
	}
	if p.cfg.Token == "" {
		return false, errors.New("no bot token: set TELEGRAM_BOT_TOKEN or token in the plugin's config.json")
	}
	if p.d.Chat == nil {
		return false, errors.New("no chat use case to answer with")
	}
	if len(p.cfg.AllowedUsers) == 0 {
		p.log.Warn("telegram: allowed_users is empty, so every Telegram user may talk to the bot")
	}
	p.state.historyTurns = p.cfg.HistoryTurns
	p.limit = newLimiter(p.cfg.RatePerMinute, p.d.now)
	return true, nil
}

// ErrStillStopping is Start's answer while the previous run of the bot
// has not ended (a Stop that ran out of time): a second bot would poll
// beside it, and Telegram answers two pollers with 409.
var ErrStillStopping = errors.New("the previous run of the Telegram bot has not stopped yet; start it again once it has")

// run is one Start's bot: its contexts and the channel closed when all of
// it has ended.
type run struct {
	// stopPolling ends receiving updates; cancelWork ends the handlers,
	// their Bot API calls and the event forwarding, which Stop lets finish
	// first (within its deadline).
	stopPolling, cancelWork context.CancelFunc
	polling                 context.Context
	done                    chan struct{}
	// handled is the id of the last update a handler took (0: none yet),
	// confirmed to Telegram when polling ends.
	handled atomic.Int64
	// client is the bot's retrying client, for that confirmation.
	client *retryClient
}

// Start begins receiving updates: long polling, or the webhook (set with
// Telegram, served by Webhook). It returns at once; the Bot API being down
// only delays the bot, which keeps retrying. While a previous run is still
// ending it refuses with ErrStillStopping.
func (p *Plugin) Start(ctx context.Context) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.running {
		return nil
	}
	if p.run != nil {
		select {
		case <-p.run.done:
		default:
			return ErrStillStopping
		}
	}
	work, cancelWork := context.WithCancel(ctx)
	polling, stopPolling := context.WithCancel(work)
	r := &run{stopPolling: stopPolling, cancelWork: cancelWork, polling: polling, done: make(chan struct{})}
	transport := http.DefaultTransport.(*http.Transport).Clone()
	b, err := p.newBot(transport, work, r)
	if err != nil {
		cancelWork()
		return err
	}
	p.bot, p.run, p.running, p.me = b, r, true, ""
	go func() {
		defer close(r.done)
		// The bot's own transport: its idle connections go with it.
		defer transport.CloseIdleConnections()
		p.serve(work, b, r)
	}()
	return nil
}

// Stop ends polling (or the webhook) first and lets the handlers finish
// the updates they took, then ends the event forwarding, and waits for all
// of it at most until ctx ends; at the deadline the handlers are cancelled
// too and the error says the bot did not stop in time (Start then refuses
// until it has).
func (p *Plugin) Stop(ctx context.Context) error {
	p.mu.Lock()
	r, running := p.run, p.running
	p.running = false
	p.mu.Unlock()
	if !running {
		return nil
	}
	r.stopPolling()
	select {
	case <-r.done:
		return nil
	case <-ctx.Done():
		r.cancelWork()
		return fmt.Errorf("the bot did not stop in time: %w", ctx.Err())
	}
}

// Teardown implements domain.Plugin: Stop released everything.
func (p *Plugin) Teardown(context.Context) error { return nil }

// newBot builds the library's bot over the retrying client. Handlers run
// inside the library's workers (not in goroutines of their own), so when
// Start's goroutine ends nothing of the bot is left running. They run
// under work, not the polling context the library hands them, so that
// stopping the polling does not cut an answer short. The update channel
// is unbuffered: the library confirms an update to Telegram (the next
// getUpdates' offset) once it has handed it on, so with no queue every
// confirmed update is one a handler took, and none is lost on Stop.
func (p *Plugin) newBot(transport http.RoundTripper, work context.Context, r *run) (*bot.Bot, error) {
	client := &retryClient{client: &http.Client{Transport: transport, Timeout: p.d.PollTimeout + 15*time.Second},
		sleep: p.d.sleep, log: p.log}
	r.client = client
	handle := func(_ context.Context, b *bot.Bot, u *models.Update) {
		for {
			last := r.handled.Load()
			if u.ID <= last || r.handled.CompareAndSwap(last, u.ID) {
				break
			}
		}
		p.onUpdate(work, b, u)
	}
	opts := []bot.Option{
		bot.WithServerURL(p.cfg.APIURL),
		bot.WithSkipGetMe(),
		bot.WithHTTPClient(p.d.PollTimeout, client),
		bot.WithNotAsyncHandlers(),
		bot.WithWorkers(p.d.Workers),
		bot.WithUpdatesChannelCap(0),
		bot.WithDefaultHandler(handle),
		bot.WithErrorsHandler(func(err error) {
			if !errors.Is(err, context.Canceled) {
				p.log.Warn("telegram: Bot API error", "err", err.Error())
			}
		}),
		bot.WithAllowedUpdates(bot.AllowedUpdates{"message", "callback_query"}),
	}
	if p.cfg.Mode == ModeWebhook {
		opts = append(opts, bot.WithWebhookSecretToken(p.cfg.WebhookSecret))
	}
	b, err := bot.New(p.cfg.Token, opts...)
	if err != nil {
		return nil, fmt.Errorf("telegram bot: %w", err)
	}
	return b, nil
}

// serve learns the bot's username, registers the commands and receives
// updates until polling is stopped, with the event forwarding beside it
// (until work ends), and returns when all of it has. The handlers have
// finished when the library's Start returns; the updates they took are
// then confirmed to Telegram, so the next start does not get them again.
func (p *Plugin) serve(work context.Context, b *bot.Bot, r *run) {
	var wg sync.WaitGroup
	defer wg.Wait()
	defer r.cancelWork()
	if p.d.Events != nil && p.d.Accounts != nil {
		l := p.d.Events.Listen(64)
		wg.Add(1)
		go func() { defer wg.Done(); l.Run(work, func(m eventMessage) { p.notify(work, b, m) }, nil) }()
	}
	ctx := r.polling
	p.learnUsername(ctx, b)
	p.setCommands(ctx, b)
	if p.cfg.Mode == ModeWebhook {
		if _, err := b.SetWebhook(ctx, &bot.SetWebhookParams{URL: p.cfg.WebhookURL, SecretToken: p.cfg.WebhookSecret,
			AllowedUpdates: []string{"message", "callback_query"}}); err != nil && ctx.Err() == nil {
			p.log.Warn("telegram: setWebhook failed", "err", err.Error())
		}
		b.StartWebhook(ctx)
		return
	}
	// A webhook left from an earlier run would make getUpdates fail
	// with 409.
	if _, err := b.DeleteWebhook(ctx, &bot.DeleteWebhookParams{}); err != nil && ctx.Err() == nil {
		p.log.Warn("telegram: deleteWebhook failed", "err", err.Error())
	}
	b.Start(ctx)
	p.confirm(work, r.client, r.handled.Load())
}

// confirm tells Telegram that the updates up to last were received, as
// the next getUpdates would (offset last+1; limit 1 and no wait, and what
// it answers is left unconfirmed for the next start). Without it the
// updates handled since the last poll would come again at the next start.
// A failure is logged: those updates are then handled twice.
func (p *Plugin) confirm(ctx context.Context, c *retryClient, last int64) {
	if last == 0 || ctx.Err() != nil {
		return
	}
	form := url.Values{"offset": {strconv.FormatInt(last+1, 10)}, "limit": {"1"}, "timeout": {"0"}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.cfg.APIURL+"/bot"+p.cfg.Token+"/getUpdates",
		strings.NewReader(form.Encode()))
	if err != nil {
		return
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := c.Do(req)
	if err != nil {
		if ctx.Err() == nil {
			p.log.Warn("telegram: cannot confirm the handled updates; they may come again at the next start",
				"reason", reason(nil, err)) // never the URL: it holds the token
		}
		return
	}
	closeBody(resp)
}
