package auth

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
)

const testBotToken = "123456:ABC-test-bot-token"

// signInitData signs fields as Telegram does, written from Telegram's
// documentation independently of the code under test, and returns the
// query string a Mini App receives as Telegram.WebApp.initData.
func signInitData(token string, fields map[string]string) string {
	secret := hmac.New(sha256.New, []byte("WebAppData"))
	secret.Write([]byte(token))
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	lines := make([]string, len(keys))
	q := url.Values{}
	for i, k := range keys {
		lines[i] = k + "=" + fields[k]
		q.Set(k, fields[k])
	}
	m := hmac.New(sha256.New, secret.Sum(nil))
	m.Write([]byte(strings.Join(lines, "\n")))
	q.Set("hash", hex.EncodeToString(m.Sum(nil)))
	return q.Encode()
}

// launchFields are the fields of a real launch, signed at authDate.
func launchFields(authDate time.Time) map[string]string {
	return map[string]string{
		"query_id":  "AAHdF6IQAAAAAN0XohDhrOrc",
		"user":      `{"id":4242,"first_name":"Анна & Co","last_name":"","username":"anna_tg","language_code":"ru","allows_write_to_pm":true}`,
		"auth_date": fmt.Sprint(authDate.Unix()),
		"signature": "c2lnbmF0dXJlLW9mLXRoZS1uZXctZmllbGQ=",
	}
}

func TestInitDataValidation(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	v := newInitDataVerifier(testBotToken, 24*time.Hour, func() time.Time { return now })
	valid := signInitData(testBotToken, launchFields(now.Add(-time.Hour)))
	with := func(change func(f map[string]string)) string {
		f := launchFields(now.Add(-time.Hour))
		change(f)
		return signInitData(testBotToken, f)
	}
	flipHash := func(raw string) string {
		q, _ := url.ParseQuery(raw)
		h := []byte(q.Get("hash"))
		if h[0] == 'a' {
			h[0] = 'b'
		} else {
			h[0] = 'a'
		}
		q.Set("hash", string(h))
		return q.Encode()
	}
	tamper := func(raw, key, value string) string {
		q, _ := url.ParseQuery(raw)
		q.Set(key, value)
		return q.Encode()
	}
	without := func(raw, key string) string {
		q, _ := url.ParseQuery(raw)
		q.Del(key)
		return q.Encode()
	}
	cases := []struct {
		name  string
		raw   string
		want  error  // nil: valid
		field string // the field a 400 names
	}{
		{"valid", valid, nil, ""},
		{"valid, signed a moment ahead of the server's clock", with(func(f map[string]string) { f["auth_date"] = fmt.Sprint(now.Add(30 * time.Second).Unix()) }), nil, ""},
		{"valid, 23 h old", with(func(f map[string]string) { f["auth_date"] = fmt.Sprint(now.Add(-23 * time.Hour).Unix()) }), nil, ""},
		{"tampered hash", flipHash(valid), ErrInitDataInvalid, ""},
		{"hash not hex", tamper(valid, "hash", "zz"), ErrInitDataInvalid, ""},
		{"tampered user", tamper(valid, "user", `{"id":1,"first_name":"Mallory"}`), ErrInitDataInvalid, ""},
		{"tampered auth_date", tamper(valid, "auth_date", fmt.Sprint(now.Unix())), ErrInitDataInvalid, ""},
		{"an added field", valid + "&start_param=x", ErrInitDataInvalid, ""},
		{"stale auth_date", with(func(f map[string]string) { f["auth_date"] = fmt.Sprint(now.Add(-25 * time.Hour).Unix()) }), ErrInitDataExpired, ""},
		{"future auth_date", with(func(f map[string]string) { f["auth_date"] = fmt.Sprint(now.Add(10 * time.Minute).Unix()) }), ErrInitDataFuture, ""},
		{"wrong bot token", signInitData("999:another-bot", launchFields(now)), ErrInitDataInvalid, ""},
		{"missing hash", without(valid, "hash"), domain.ErrInvalid("", nil), "hash"},
		{"missing auth_date", signInitData(testBotToken, map[string]string{"user": `{"id":4242}`}), domain.ErrInvalid("", nil), "auth_date"},
		{"missing user", with(func(f map[string]string) { delete(f, "user") }), domain.ErrInvalid("", nil), "user"},
		{"bad JSON user", with(func(f map[string]string) { f["user"] = `{"id":` }), domain.ErrInvalid("", nil), "user"},
		{"user without id", with(func(f map[string]string) { f["user"] = `{"first_name":"A"}` }), domain.ErrInvalid("", nil), "user"},
		{"auth_date not a number", with(func(f map[string]string) { f["auth_date"] = "yesterday" }), domain.ErrInvalid("", nil), "auth_date"},
		{"a key twice", valid + "&query_id=again", domain.ErrInvalid("", nil), "query_id"},
		{"empty", "", domain.ErrInvalid("", nil), "init_data"},
		{"not a query string", "%zz", domain.ErrInvalid("", nil), "init_data"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			u, err := v.verify(c.raw)
			if c.want == nil {
				require.NoError(t, err)
				assert.Equal(t, TelegramUser{ID: 4242, FirstName: "Анна & Co", Username: "anna_tg", LanguageCode: "ru"}, u)
				return
			}
			require.Error(t, err)
			assert.Equal(t, domain.KindOf(c.want), domain.KindOf(err), "%v", err)
			var de *domain.Error
			require.True(t, errors.As(err, &de))
			if c.field != "" {
				assert.Contains(t, de.Fields, c.field, "%v", de.Fields)
			} else {
				assert.ErrorIs(t, err, c.want)
			}
		})
	}
}

// newTestTelegram is Telegram sign-in over the test service, with its
// clock; anna is the service's one account.
func newTestTelegram(t *testing.T, token string) (*Telegram, *testClock, domain.User) {
	t.Helper()
	clock := &testClock{now: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
	s, users := newTestService(t, Options{Now: clock.Now})
	anna, err := users.ByEmail(context.Background(), "anna@example.org")
	require.NoError(t, err)
	return NewTelegram(s, users, TelegramOptions{BotToken: token}), clock, anna
}

func TestLinkCodesAreSingleUseAndExpire(t *testing.T) {
	ctx := context.Background()
	tg, clock, anna := newTestTelegram(t, testBotToken)
	_, linked, err := tg.ByTelegramID(ctx, 4242)
	require.NoError(t, err)
	assert.False(t, linked)

	code, err := tg.NewLinkCode(ctx, anna)
	require.NoError(t, err)
	assert.Regexp(t, `^[A-HJKMNP-TV-Z2-9]{10}$`, code.Code)
	assert.Equal(t, clock.Now().Add(10*time.Minute), code.ExpiresAt)

	u, err := tg.Redeem(ctx, " "+strings.ToLower(code.Code[:5])+"-"+code.Code[5:]+" ", 4242)
	require.NoError(t, err, "case, spaces and a dash do not matter")
	assert.Equal(t, anna.ID, u.ID)
	require.NotNil(t, u.TelegramID)
	assert.EqualValues(t, 4242, *u.TelegramID)
	found, linked, err := tg.ByTelegramID(ctx, 4242)
	require.NoError(t, err)
	assert.True(t, linked)
	assert.Equal(t, anna.ID, found.ID)
	_, err = tg.Redeem(ctx, code.Code, 4343)
	assert.ErrorIs(t, err, ErrBadLinkCode, "single use")

	late, err := tg.NewLinkCode(ctx, anna)
	require.NoError(t, err)
	clock.Add(10*time.Minute + time.Second)
	_, err = tg.Redeem(ctx, late.Code, 4343)
	assert.ErrorIs(t, err, ErrBadLinkCode, "expired")

	first, err := tg.NewLinkCode(ctx, anna)
	require.NoError(t, err)
	second, err := tg.NewLinkCode(ctx, anna)
	require.NoError(t, err)
	_, err = tg.Redeem(ctx, first.Code, 4343)
	assert.ErrorIs(t, err, ErrBadLinkCode, "a new code replaces the one before")
	_, err = tg.Redeem(ctx, second.Code, 4343)
	require.NoError(t, err)
	_, linked, _ = tg.ByTelegramID(ctx, 4242)
	assert.False(t, linked, "the account is now linked to the other Telegram user")
	_, err = tg.Redeem(ctx, "", 4343)
	assert.ErrorIs(t, err, ErrBadLinkCode)
}

func TestLinkCodesAreRateLimited(t *testing.T) {
	ctx := context.Background()
	tg, clock, anna := newTestTelegram(t, testBotToken)
	for range maxCodesPerUser {
		_, err := tg.NewLinkCode(ctx, anna)
		require.NoError(t, err)
	}
	_, err := tg.NewLinkCode(ctx, anna)
	assert.True(t, domain.IsKind(err, domain.KindTooMany), "%v", err)
	clock.Add(LinkCodeTTL + time.Second)
	code, err := tg.NewLinkCode(ctx, anna)
	require.NoError(t, err, "a code's lifetime later")

	for i := range maxRedeemsPerTgID {
		_, err := tg.Redeem(ctx, fmt.Sprintf("WRONG%05d", i), 4242)
		require.ErrorIs(t, err, ErrBadLinkCode)
	}
	_, err = tg.Redeem(ctx, code.Code, 4242)
	assert.True(t, domain.IsKind(err, domain.KindTooMany), "a Telegram user that guessed too often waits, even with the right code: %v", err)
	_, err = tg.Redeem(ctx, code.Code, 5555)
	require.NoError(t, err, "others are not affected, and the code was not burnt by the refused try")
}

func TestTelegramMovesBetweenAccounts(t *testing.T) {
	ctx := context.Background()
	tg, _, anna := newTestTelegram(t, testBotToken)
	bob, err := tg.auth.CreateUser(ctx, NewUser{Email: "bob@example.org", Password: "bob-password"})
	require.NoError(t, err)
	c1, _ := tg.NewLinkCode(ctx, anna)
	_, err = tg.Redeem(ctx, c1.Code, 4242)
	require.NoError(t, err)
	c2, _ := tg.NewLinkCode(ctx, bob)
	u, err := tg.Redeem(ctx, c2.Code, 4242)
	require.NoError(t, err)
	assert.Equal(t, bob.ID, u.ID)
	found, _, _ := tg.ByTelegramID(ctx, 4242)
	assert.Equal(t, bob.ID, found.ID, "the Telegram account moved to the account that redeemed last")
}

func TestMiniAppLoginAndInitDataLink(t *testing.T) {
	ctx := context.Background()
	tg, clock, anna := newTestTelegram(t, testBotToken)
	initData := signInitData(testBotToken, launchFields(clock.Now().Add(-time.Minute)))

	_, err := tg.Login(ctx, initData, "192.0.2.1")
	assert.ErrorIs(t, err, ErrTelegramNotLinked)
	u, err := tg.LinkInitData(ctx, anna, initData)
	require.NoError(t, err)
	assert.EqualValues(t, 4242, *u.TelegramID)
	l, err := tg.Login(ctx, initData, "192.0.2.1")
	require.NoError(t, err)
	assert.Equal(t, anna.ID, l.User.ID)
	who, err := tg.auth.VerifyToken(ctx, l.Token)
	require.NoError(t, err)
	assert.Equal(t, anna.ID, who.ID, "the token is an ordinary session token")

	_, err = tg.LinkInitData(ctx, anna, signInitData("999:other", launchFields(clock.Now())))
	assert.ErrorIs(t, err, ErrInitDataInvalid)
	clock.Add(25 * time.Hour)
	_, err = tg.Login(ctx, initData, "192.0.2.1")
	assert.ErrorIs(t, err, ErrInitDataExpired)

	off, _, _ := newTestTelegram(t, "")
	_, err = off.Login(ctx, initData, "192.0.2.1")
	assert.ErrorIs(t, err, ErrTelegramNotConfigured)
	_, err = off.LinkInitData(ctx, anna, initData)
	assert.ErrorIs(t, err, ErrTelegramNotConfigured)
}
