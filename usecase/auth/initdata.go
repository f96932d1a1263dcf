package auth

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"mediateka/domain"
)

// TelegramUser is the Telegram account a verified init_data names (the
// "user" field Telegram signs), with what a page or the bot may show.
type TelegramUser struct {
	ID           int64  `json:"id"`
	FirstName    string `json:"first_name"`
	LastName     string `json:"last_name"`
	Username     string `json:"username"`
	LanguageCode string `json:"language_code"`
}

// Errors of the init_data check. A signature that does not match (a
// tampered field, another bot's token) and a stale one are 401; a shape
// that could never be Telegram's is 400.
var (
	ErrInitDataInvalid = domain.NewError(domain.KindUnauthorized, "invalid_init_data",
		"the Telegram launch data is not signed by this server's bot; open the Mini App from the bot again")
	ErrInitDataExpired = domain.NewError(domain.KindUnauthorized, "init_data_expired",
		"the Telegram launch data is too old; close the Mini App and open it from the bot again")
	ErrInitDataFuture = domain.NewError(domain.KindUnauthorized, "invalid_init_data",
		"the Telegram launch data is dated in the future; check the server's clock")
)

// initDataSkew is how far in the future an auth_date may lie: the server's
// clock and Telegram's differ by a few seconds, never by minutes.
const initDataSkew = time.Minute

// initDataVerifier checks Telegram Mini App launch data as Telegram
// documents it (core.telegram.org/bots/webapps, "Validating data received
// via the Mini App"): secret_key = HMAC_SHA256(key "WebAppData", bot
// token); the data-check-string is every field but hash, decoded once, as
// key=value lines sorted by key; hash is the hex HMAC_SHA256 of that string
// under secret_key. Unlike bot.ValidateWebappRequest it leaves its input
// alone, decodes exactly once and refuses a stale auth_date.
type initDataVerifier struct {
	secret []byte // HMAC_SHA256("WebAppData", token); nil: no bot token
	maxAge time.Duration
	now    func() time.Time
}

func newInitDataVerifier(botToken string, maxAge time.Duration, now func() time.Time) initDataVerifier {
	v := initDataVerifier{maxAge: maxAge, now: now}
	if botToken != "" {
		m := hmac.New(sha256.New, []byte("WebAppData"))
		m.Write([]byte(botToken))
		v.secret = m.Sum(nil)
	}
	return v
}

// verify returns the Telegram user of raw init_data after checking its
// signature and age.
func (v initDataVerifier) verify(raw string) (TelegramUser, error) {
	fields, err := parseInitData(raw)
	if err != nil {
		return TelegramUser{}, err
	}
	got, err := hex.DecodeString(fields["hash"])
	if err != nil || !hmac.Equal(got, v.sign(fields)) {
		return TelegramUser{}, ErrInitDataInvalid
	}
	secs, err := strconv.ParseInt(fields["auth_date"], 10, 64)
	if err != nil || secs <= 0 {
		return TelegramUser{}, initDataProblem("auth_date", "must be a Unix time in seconds")
	}
	at, now := time.Unix(secs, 0), v.now()
	switch {
	case at.After(now.Add(initDataSkew)):
		return TelegramUser{}, ErrInitDataFuture
	case now.Sub(at) > v.maxAge:
		return TelegramUser{}, ErrInitDataExpired
	}
	var u TelegramUser
	if err := json.Unmarshal([]byte(fields["user"]), &u); err != nil || u.ID <= 0 {
		return TelegramUser{}, initDataProblem("user", "must be a JSON object with a positive id")
	}
	return u, nil
}

// sign is the HMAC the hash of fields must equal.
func (v initDataVerifier) sign(fields map[string]string) []byte {
	lines := make([]string, 0, len(fields))
	for k, val := range fields {
		if k != "hash" {
			lines = append(lines, k+"="+val)
		}
	}
	slices.Sort(lines)
	m := hmac.New(sha256.New, v.secret)
	m.Write([]byte(strings.Join(lines, "\n")))
	return m.Sum(nil)
}

// parseInitData decodes the query string once; a repeated key (which one
// was signed?) or a missing hash, auth_date or user is invalid input.
func parseInitData(raw string) (map[string]string, error) {
	if strings.TrimSpace(raw) == "" {
		return nil, domain.ErrInvalid("init_data is required", map[string]string{"init_data": "must not be empty"})
	}
	q, err := url.ParseQuery(raw)
	if err != nil {
		return nil, initDataProblem("init_data", "must be Telegram.WebApp.initData as received")
	}
	fields := make(map[string]string, len(q))
	for k, vals := range q {
		if len(vals) != 1 {
			return nil, initDataProblem(k, "must appear once")
		}
		fields[k] = vals[0]
	}
	for _, k := range []string{"hash", "auth_date", "user"} {
		if fields[k] == "" {
			return nil, initDataProblem(k, "is missing from init_data")
		}
	}
	return fields, nil
}

func initDataProblem(field, why string) error {
	return domain.ErrInvalid("the Telegram launch data is incomplete or malformed", map[string]string{field: why})
}
