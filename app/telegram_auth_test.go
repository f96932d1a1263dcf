package app

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/config"
	"mediateka/usecase/auth"
)

const miniAppBotToken = "424242:mini-app-test-token"

// signedInitData is Telegram.WebApp.initData for Telegram user tgID, signed
// with token as Telegram signs it, dated at.
func signedInitData(token string, tgID int64, at time.Time) string {
	fields := map[string]string{
		"query_id":  "AAHdF6IQAAAAAN0XohDhrOrc",
		"user":      fmt.Sprintf(`{"id":%d,"first_name":"Anna","username":"anna_tg","language_code":"en"}`, tgID),
		"auth_date": fmt.Sprint(at.Unix()),
	}
	secret := hmac.New(sha256.New, []byte("WebAppData"))
	secret.Write([]byte(token))
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	q, lines := url.Values{}, make([]string, 0, len(keys))
	for _, k := range keys {
		lines = append(lines, k+"="+fields[k])
		q.Set(k, fields[k])
	}
	m := hmac.New(sha256.New, secret.Sum(nil))
	m.Write([]byte(strings.Join(lines, "\n")))
	q.Set("hash", hex.EncodeToString(m.Sum(nil)))
	return q.Encode()
}

// errMessage extracts error.message from an error body.
func errMessage(body map[string]any) string {
	e, _ := body["error"].(map[string]any)
	s, _ := e["message"].(string)
	return s
}

func TestTelegramMiniAppLoginAndLinks(t *testing.T) {
	ta := newTestApp(t, map[string]string{"TELEGRAM_BOT_TOKEN": miniAppBotToken})
	ctx := context.Background()
	_, err := AddUser(ctx, ta.cfg, auth.NewUser{Email: "viewer@example.org", Name: "Viewer", Password: "viewer-password"})
	require.NoError(t, err)
	viewer := ta.login(t, "viewer@example.org", "viewer-password")
	now := time.Now()
	fresh := signedInitData(miniAppBotToken, 4242, now.Add(-time.Minute))

	for name, c := range map[string]struct {
		body   any
		status int
		code   string
		field  string
	}{
		"no init_data":      {map[string]any{}, 400, "invalid_input", "init_data"},
		"empty init_data":   {map[string]any{"init_data": ""}, 400, "invalid_input", "init_data"},
		"not JSON":          {"init_data=", 400, "invalid_json", ""},
		"init_data of type": {map[string]any{"init_data": 5}, 400, "invalid_input", "init_data"},
		"without user":      {map[string]any{"init_data": "auth_date=1&hash=00"}, 400, "invalid_input", "user"},
		"tampered":          {map[string]any{"init_data": strings.Replace(fresh, "anna_tg", "mallory", 1)}, 401, "invalid_init_data", ""},
		"another bot":       {map[string]any{"init_data": signedInitData("1:other", 4242, now)}, 401, "invalid_init_data", ""},
		"stale":             {map[string]any{"init_data": signedInitData(miniAppBotToken, 4242, now.Add(-25*time.Hour))}, 401, "init_data_expired", ""},
		"future":            {map[string]any{"init_data": signedInitData(miniAppBotToken, 4242, now.Add(time.Hour))}, 401, "invalid_init_data", ""},
		"not linked":        {map[string]any{"init_data": fresh}, 403, "telegram_not_linked", ""},
	} {
		resp, body := ta.do(t, "POST", "/api/auth/telegram", "", c.body)
		assert.Equal(t, c.status, resp.StatusCode, "%s: %v", name, body)
		assert.Equal(t, c.code, errCode(body), name)
		if c.field != "" {
			fields, _ := body["error"].(map[string]any)["fields"].(map[string]any)
			assert.Contains(t, fields, c.field, name)
		}
	}
	_, body := ta.do(t, "POST", "/api/auth/telegram", "", map[string]any{"init_data": fresh})
	assert.Contains(t, errMessage(body), "/link <code>", "the refusal says how to link")

	resp, body := ta.do(t, "POST", "/api/auth/telegram/link", "", nil)
	assert.Equal(t, 401, resp.StatusCode, "a link needs a signed-in account")
	assert.Equal(t, "unauthorized", errCode(body))
	resp, body = ta.do(t, "POST", "/api/auth/telegram/link", viewer, nil)
	require.Equal(t, 200, resp.StatusCode, "%v", body)
	code, _ := body["code"].(string)
	assert.Regexp(t, `^[A-Z2-9]{10}$`, code)
	exp, err := time.Parse(time.RFC3339, body["expires_at"].(string))
	require.NoError(t, err)
	assert.WithinDuration(t, now.Add(10*time.Minute), exp, 5*time.Second)

	// The bot's /link <code> (the bot calls Redeem), then the Mini App.
	u, err := ta.uc.telegram.Redeem(ctx, code, 4242)
	require.NoError(t, err)
	assert.Equal(t, "viewer@example.org", u.Email)
	resp, body = ta.do(t, "POST", "/api/auth/telegram", "", map[string]any{"init_data": fresh})
	require.Equal(t, 200, resp.StatusCode, "%v", body)
	assert.Equal(t, "bearer", body["token_type"])
	user := body["user"].(map[string]any)
	assert.Equal(t, "viewer@example.org", user["email"])
	assert.Equal(t, 4242.0, user["telegram_id"])
	_, me := ta.do(t, "GET", "/api/auth/me", body["access_token"].(string), nil)
	assert.Equal(t, 4242.0, me["telegram_id"], "the Mini App's token is an ordinary session")
	rows, err := ta.repos.activity.ForUser(ctx, int64(user["id"].(float64)), 10)
	require.NoError(t, err)
	require.NotEmpty(t, rows)
	assert.Equal(t, "login", rows[0].Action, "the newest row is the Mini App's sign-in")
	assert.Contains(t, rows[0].Details, "method=telegram")

	// The Mini App's "link this Telegram account" for a signed-in person.
	admin := ta.login(t, "admin@localhost", ta.initialPassword(t))
	_, me = ta.do(t, "GET", "/api/auth/me", admin, nil)
	assert.Contains(t, me, "telegram_id")
	assert.Nil(t, me["telegram_id"], "unlinked: null")
	other := signedInitData(miniAppBotToken, 5151, now)
	resp, body = ta.do(t, "POST", "/api/auth/telegram/link", admin, map[string]any{"init_data": strings.Replace(other, "5151", "5152", 1)})
	assert.Equal(t, 401, resp.StatusCode, "%v", body)
	assert.Equal(t, "invalid_init_data", errCode(body))
	resp, body = ta.do(t, "POST", "/api/auth/telegram/link", admin, map[string]any{"init_data": other})
	require.Equal(t, 200, resp.StatusCode, "%v", body)
	assert.Equal(t, "admin@localhost", body["email"])
	assert.Equal(t, 5151.0, body["telegram_id"])
	_, body = ta.do(t, "POST", "/api/auth/telegram", "", map[string]any{"init_data": other})
	assert.Equal(t, "admin@localhost", body["user"].(map[string]any)["email"])

	log := ta.stderr.String()
	assert.NotContains(t, log, "anna_tg", "init_data never reaches the log")
	assert.NotContains(t, log, miniAppBotToken)
}

func TestTelegramMiniAppWithoutBotToken(t *testing.T) {
	ta := newTestApp(t, nil)
	resp, body := ta.do(t, "POST", "/api/auth/telegram", "", map[string]any{"init_data": signedInitData(miniAppBotToken, 1, time.Now())})
	assert.Equal(t, 503, resp.StatusCode)
	assert.Equal(t, "telegram_not_configured", errCode(body))
	assert.Contains(t, errMessage(body), "TELEGRAM_BOT_TOKEN")
	admin := ta.login(t, "admin@localhost", ta.initialPassword(t))
	resp, body = ta.do(t, "POST", "/api/auth/telegram/link", admin, map[string]any{"init_data": "x"})
	assert.Equal(t, 503, resp.StatusCode)
	assert.Equal(t, "telegram_not_configured", errCode(body))
}

// The plugin's config.json token serves when TELEGRAM_BOT_TOKEN is unset;
// the environment wins when both are there.
func TestTelegramBotTokenFromThePluginConfig(t *testing.T) {
	ta := buildTestApp(t, appOptions{beside: telegramConfig(t, map[string]any{"token": " " + miniAppBotToken + " "})})
	resp, body := ta.do(t, "POST", "/api/auth/telegram", "", map[string]any{"init_data": signedInitData(miniAppBotToken, 1, time.Now())})
	assert.Equal(t, 403, resp.StatusCode, "verified with the plugin's token: %v", body)
	assert.Equal(t, "telegram_not_linked", errCode(body))

	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "telegram"), 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "telegram", "config.json"), []byte(`{"token": "from-file"}`), 0o600))
	tok, err := telegramBotToken(config.Config{PluginConfigDir: dir, TelegramBotToken: "from-env"})
	require.NoError(t, err)
	assert.Equal(t, "from-env", tok)
	tok, err = telegramBotToken(config.Config{PluginConfigDir: dir})
	require.NoError(t, err)
	assert.Equal(t, "from-file", tok)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "telegram", "config.json"), []byte(`{"token": 5}`), 0o600))
	tok, err = telegramBotToken(config.Config{PluginConfigDir: dir})
	assert.Error(t, err)
	assert.Empty(t, tok)
}
