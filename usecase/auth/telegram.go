package auth

import (
	"context"
	"crypto/rand"
	"fmt"
	"strings"
	"sync"
	"time"

	"mediateka/domain"
)

// TelegramOptions configure Telegram sign-in and account links.
type TelegramOptions struct {
	// BotToken signs the Mini App's init_data (TELEGRAM_BOT_TOKEN or the
	// telegram plugin's token). Empty: the Mini App login and the
	// init_data link answer 503.
	BotToken string
	// MaxAge is how old an init_data's auth_date may be (default 24h).
	MaxAge time.Duration
	// LinkTTL is how long a link code stays valid (default LinkCodeTTL).
	LinkTTL time.Duration
}

// LinkCodeTTL is how long a link code for /link stays valid by default.
const LinkCodeTTL = 10 * time.Minute

// Limits of the link codes: codes one account may ask for, and wrong codes
// one Telegram account may send, within a code's lifetime. A code has 49
// random bits (10 of 30 characters), so guessing is hopeless at either rate.
const (
	maxCodesPerUser    = 5
	maxRedeemsPerTgID  = 10
	linkCodeLen        = 10
	linkCodeAlphabet   = "ABCDEFGHJKMNPQRSTVWXYZ23456789" // no 0/O, 1/I/L, U: typed from a screen
	telegramLoginLabel = "telegram"
)

// Errors of Telegram sign-in and links.
var (
	ErrTelegramNotConfigured = domain.NewError(domain.KindUnavailable, "telegram_not_configured",
		"Telegram sign-in is not configured on this server: set TELEGRAM_BOT_TOKEN or the telegram plugin's token")
	ErrTelegramNotLinked = domain.NewError(domain.KindForbidden, "telegram_not_linked",
		"this Telegram account is not linked to an account on this server: sign in with your e-mail and password "+
			"in the Mini App and link it, or get a code on the web (POST /api/auth/telegram/link) and send /link <code> to the bot")
	ErrBadLinkCode = domain.NewError(domain.KindInvalid, "invalid_link_code",
		"the link code is wrong, expired or was already used; ask for a new one")
)

// LinkCode is a pending link: the code to send to the bot as /link <code>.
type LinkCode struct {
	Code      string
	ExpiresAt time.Time
}

// pendingLink is a code not yet redeemed, and whose it is.
type pendingLink struct {
	userID int64
	exp    time.Time
}

// Telegram signs people in from the Mini App (init_data) and links Telegram
// accounts to accounts. Link codes live in memory only: a restart forgets
// the pending ones (a person asks for another). A Telegram account linked
// to one account and then linked to another moves: both links need proof
// of both sides (the account's sign-in, and the Telegram account's own
// message to the bot or its signed init_data), so the person moving it
// owns both.
type Telegram struct {
	auth   *Service
	users  TelegramUsers
	verify initDataVerifier
	ttl    time.Duration

	mu     sync.Mutex
	codes  map[string]pendingLink // code → whose
	byUser map[int64]string       // user → their one pending code
	issued *throttle              // codes asked for, per user
	wrong  *throttle              // wrong codes, per Telegram id
}

// NewTelegram builds Telegram sign-in over s (tokens, the login record).
func NewTelegram(s *Service, users TelegramUsers, opt TelegramOptions) *Telegram {
	if opt.MaxAge <= 0 {
		opt.MaxAge = 24 * time.Hour
	}
	if opt.LinkTTL <= 0 {
		opt.LinkTTL = LinkCodeTTL
	}
	return &Telegram{auth: s, users: users, ttl: opt.LinkTTL,
		verify: newInitDataVerifier(opt.BotToken, opt.MaxAge, s.opt.Now),
		codes:  map[string]pendingLink{}, byUser: map[int64]string{},
		issued: newThrottle(maxCodesPerUser, opt.LinkTTL, s.opt.Now),
		wrong:  newThrottle(maxRedeemsPerTgID, opt.LinkTTL, s.opt.Now)}
}

// Enabled reports whether a bot token is configured.
func (t *Telegram) Enabled() bool { return t.verify.secret != nil }

// VerifyInitData checks the Mini App's init_data and returns the Telegram
// user it names.
func (t *Telegram) VerifyInitData(initData string) (TelegramUser, error) {
	if !t.Enabled() {
		return TelegramUser{}, ErrTelegramNotConfigured
	}
	return t.verify.verify(initData)
}

// Login signs in the account linked to the Telegram user of initData: the
// same Login as a password sign-in. An unlinked Telegram user is
// ErrTelegramNotLinked.
func (t *Telegram) Login(ctx context.Context, initData, remote string) (Login, error) {
	tg, err := t.VerifyInitData(initData)
	if err != nil {
		return Login{}, err
	}
	u, ok, err := t.ByTelegramID(ctx, tg.ID)
	if err != nil {
		return Login{}, err
	}
	if !ok {
		return Login{}, ErrTelegramNotLinked
	}
	return t.auth.signIn(ctx, u, telegramLoginLabel, remote)
}

// ByTelegramID finds the account linked to a Telegram user; ok is false
// when none is.
func (t *Telegram) ByTelegramID(ctx context.Context, tgID int64) (domain.User, bool, error) {
	u, err := t.users.ByTelegramID(ctx, tgID)
	if domain.IsKind(err, domain.KindNotFound) {
		return domain.User{}, false, nil
	}
	if err != nil {
		return domain.User{}, false, fmt.Errorf("find the account of Telegram user %d: %w", tgID, err)
	}
	return u, true, nil
}

// LinkedAdmins are the administrators linked to a Telegram user: the bot
// tells them of library events and finished downloads.
func (t *Telegram) LinkedAdmins(ctx context.Context) ([]domain.User, error) {
	linked, err := t.users.TelegramLinked(ctx)
	if err != nil {
		return nil, fmt.Errorf("list the accounts linked to Telegram: %w", err)
	}
	admins := linked[:0]
	for _, u := range linked {
		if u.Admin() {
			admins = append(admins, u)
		}
	}
	return admins, nil
}

// LinkInitData links the Telegram user of initData to u directly: the Mini
// App's "link this Telegram account" once the person signed in there.
func (t *Telegram) LinkInitData(ctx context.Context, u domain.User, initData string) (domain.User, error) {
	tg, err := t.VerifyInitData(initData)
	if err != nil {
		return domain.User{}, err
	}
	return t.link(ctx, u.ID, tg.ID)
}

// NewLinkCode gives u a code to send to the bot as /link <code>: random,
// single use, valid for the link TTL. It replaces u's previous pending
// code; more than maxCodesPerUser within a TTL is ErrTooManyAttempts.
func (t *Telegram) NewLinkCode(_ context.Context, u domain.User) (LinkCode, error) {
	if _, ok := t.issued.reserve(fmt.Sprint(u.ID)); !ok {
		return LinkCode{}, domain.NewError(domain.KindTooMany, "too_many_attempts", "too many link codes asked for; use the last one or wait a few minutes")
	}
	code, err := newLinkCode()
	if err != nil {
		return LinkCode{}, fmt.Errorf("link code: %w", err)
	}
	exp := t.auth.opt.Now().Add(t.ttl)
	t.mu.Lock()
	defer t.mu.Unlock()
	t.sweep()
	if old, ok := t.byUser[u.ID]; ok {
		delete(t.codes, old)
	}
	t.codes[code], t.byUser[u.ID] = pendingLink{userID: u.ID, exp: exp}, code
	return LinkCode{Code: code, ExpiresAt: exp.UTC()}, nil
}

// Redeem links the Telegram user tgID to the account whose code this is
// (the bot's /link <code>) and returns that account. Case and spaces do
// not matter. A wrong, expired or used code is ErrBadLinkCode; more than
// maxRedeemsPerTgID wrong codes from one Telegram user within a TTL is
// ErrTooManyAttempts.
func (t *Telegram) Redeem(ctx context.Context, code string, tgID int64) (domain.User, error) {
	if tgID <= 0 {
		return domain.User{}, domain.ErrInvalid("the Telegram user id must be positive", map[string]string{"telegram_id": "must be positive"})
	}
	key := fmt.Sprint(tgID)
	stamp, ok := t.wrong.reserve(key)
	if !ok {
		return domain.User{}, domain.NewError(domain.KindTooMany, "too_many_attempts", "too many wrong link codes; wait a few minutes")
	}
	p, ok := t.take(normalizeLinkCode(code))
	if !ok {
		return domain.User{}, ErrBadLinkCode
	}
	t.wrong.release(stamp, key)
	u, err := t.link(ctx, p.userID, tgID)
	if domain.IsKind(err, domain.KindNotFound) {
		return domain.User{}, ErrBadLinkCode // the account went away meanwhile
	}
	return u, err
}

// take removes code and returns its pending link when it is still valid.
func (t *Telegram) take(code string) (pendingLink, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	p, ok := t.codes[code]
	if !ok {
		return pendingLink{}, false
	}
	delete(t.codes, code)
	delete(t.byUser, p.userID)
	return p, !t.auth.opt.Now().After(p.exp)
}

// sweep forgets expired codes; call with mu held. There is at most one
// code per account, so this walks no more than the accounts asking.
func (t *Telegram) sweep() {
	now := t.auth.opt.Now()
	for code, p := range t.codes {
		if now.After(p.exp) {
			delete(t.codes, code)
			delete(t.byUser, p.userID)
		}
	}
}

// link sets userID's telegram_id, taking it from any other account.
func (t *Telegram) link(ctx context.Context, userID, tgID int64) (domain.User, error) {
	u, err := t.users.LinkTelegram(ctx, userID, tgID)
	if err != nil {
		return domain.User{}, fmt.Errorf("link Telegram user %d to account %d: %w", tgID, userID, err)
	}
	t.auth.opt.Logger.InfoContext(ctx, "telegram account linked", "user_id", userID, "telegram_id", tgID)
	return u, nil
}

// newLinkCode draws linkCodeLen characters of linkCodeAlphabet uniformly.
func newLinkCode() (string, error) {
	var b strings.Builder
	buf := make([]byte, 1)
	limit := byte(256 - 256%len(linkCodeAlphabet)) // reject above: no bias
	for b.Len() < linkCodeLen {
		if _, err := rand.Read(buf); err != nil {
			return "", err
		}
		if buf[0] < limit {
			b.WriteByte(linkCodeAlphabet[int(buf[0])%len(linkCodeAlphabet)])
		}
	}
	return b.String(), nil
}

// normalizeLinkCode is a typed code as stored: upper case, no spaces or dashes.
func normalizeLinkCode(code string) string {
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '-' || r == '\t' {
			return -1
		}
		return r
	}, strings.ToUpper(strings.TrimSpace(code)))
}
