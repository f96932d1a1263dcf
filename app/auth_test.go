package app

import (
	"context"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/golang-jwt/jwt/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/repository/sqlstore/sqlstoretest"
	"mediateka/usecase/auth"
)

func TestFirstStartCreatesAdminWithPasswordFile(t *testing.T) {
	t.Parallel()
	ta := newTestApp(t, nil)
	path := filepath.Join(ta.cfg.DataDir, "initial_admin_password")
	info, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), info.Mode().Perm())
	pw := ta.initialPassword(t)
	assert.Len(t, pw, 24)

	resp, body := ta.do(t, "POST", "/api/auth/login", "", map[string]string{"email": "admin@localhost", "password": pw})
	require.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, "bearer", body["token_type"])
	assert.EqualValues(t, 86400, body["expires_in"])
	user := body["user"].(map[string]any)
	assert.Equal(t, "admin", user["role"])
	assert.Equal(t, true, user["is_admin"])
	assert.Equal(t, "admin@localhost", user["email"])
	assert.NotContains(t, ta.stderr.String(), pw, "the log names the file, never the password")

	secret, err := os.Stat(filepath.Join(ta.cfg.DataDir, "jwt_secret"))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), secret.Mode().Perm())
}

func TestAdminFromEnvironmentAndNoOverwrite(t *testing.T) {
	t.Parallel()
	ta := newTestApp(t, map[string]string{"ADMIN_EMAIL": "boss@example.org", "ADMIN_PASSWORD": "correct horse battery"})
	_, err := os.Stat(filepath.Join(ta.cfg.DataDir, "initial_admin_password"))
	assert.True(t, os.IsNotExist(err), "no generated admin when ADMIN_EMAIL is set")
	tok := ta.login(t, "boss@example.org", "correct horse battery")
	resp, me := ta.do(t, "GET", "/api/auth/me", tok, nil)
	require.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, "boss", me["name"], "name defaults to the local part")
	assert.Equal(t, "admin", me["role"])
	assert.NotEmpty(t, me["created_at"])
	ta.Close()

	// A restart with another password must not overwrite the existing user.
	cfg := ta.cfg
	cfg.AdminPassword = "another password"
	a2, err := New(context.Background(), cfg, Options{Stderr: &syncBuffer{}})
	require.NoError(t, err)
	t.Cleanup(a2.Close)
	ta2 := &testApp{App: a2, cfg: cfg, stderr: &syncBuffer{}}
	ta2.login(t, "boss@example.org", "correct horse battery")
}

func TestLoginFailuresAndThrottle(t *testing.T) {
	t.Parallel()
	ta := newTestApp(t, nil)
	resp, body := ta.do(t, "POST", "/api/auth/login", "", map[string]string{"email": "admin@localhost"})
	assert.Equal(t, 400, resp.StatusCode)
	assert.Equal(t, "invalid_input", errCode(body))
	assert.Contains(t, body["error"].(map[string]any)["fields"], "password")

	resp, body = ta.do(t, "POST", "/api/auth/login", "", `{"email": 5}`)
	assert.Equal(t, 400, resp.StatusCode)
	assert.Equal(t, "invalid_input", errCode(body))
	resp, body = ta.do(t, "POST", "/api/auth/login", "", `{"email": `)
	assert.Equal(t, 400, resp.StatusCode)
	assert.Equal(t, "invalid_json", errCode(body))

	_, wrongPw := ta.do(t, "POST", "/api/auth/login", "", map[string]string{"email": "admin@localhost", "password": "nope-nope"})
	_, unknown := ta.do(t, "POST", "/api/auth/login", "", map[string]string{"email": "ghost@localhost", "password": "nope-nope"})
	assert.Equal(t, wrongPw, unknown, "unknown e-mail and wrong password look the same")
	assert.Equal(t, "invalid_credentials", errCode(wrongPw))

	for i := 0; i < 8; i++ { // 10 failures in all
		resp, _ = ta.do(t, "POST", "/api/auth/login", "", map[string]string{"email": "admin@localhost", "password": "bad"})
		require.Equal(t, 401, resp.StatusCode)
	}
	resp, body = ta.do(t, "POST", "/api/auth/login", "", map[string]string{"email": "admin@localhost", "password": ta.initialPassword(t)})
	assert.Equal(t, 429, resp.StatusCode, "the 11th attempt in a minute is refused, even with the right password")
	assert.Equal(t, "too_many_attempts", errCode(body))
}

func TestTokensThatMustNotPass(t *testing.T) {
	t.Parallel()
	ta := newTestApp(t, nil)
	good := ta.login(t, "admin@localhost", ta.initialPassword(t))
	resp, _ := ta.do(t, "GET", "/api/auth/me", good, nil)
	require.Equal(t, 200, resp.StatusCode)

	sign := func(method jwt.SigningMethod, key any, claims jwt.MapClaims) string {
		s, err := jwt.NewWithClaims(method, claims).SignedString(key)
		require.NoError(t, err)
		return s
	}
	now := time.Now()
	valid := jwt.MapClaims{"sub": "1", "role": "admin", "iat": now.Unix(), "exp": now.Add(time.Hour).Unix()}
	expired := jwt.MapClaims{"sub": "1", "role": "admin", "iat": now.Add(-2 * time.Hour).Unix(), "exp": now.Add(-time.Hour).Unix()}
	header := base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"none","typ":"JWT"}`))
	payload := base64.RawURLEncoding.EncodeToString([]byte(fmt.Sprintf(`{"sub":"1","role":"admin","exp":%d}`, now.Add(time.Hour).Unix())))

	cases := []struct {
		name, token, code string
	}{
		{"missing", "", "unauthorized"},
		{"garbage", "not-a-jwt", "unauthorized"},
		{"expired", sign(jwt.SigningMethodHS256, []byte(ta.cfg.JWTSecret), expired), "token_expired"},
		{"wrong secret", sign(jwt.SigningMethodHS256, []byte("some-other-secret-of-enough-length"), valid), "unauthorized"},
		{"alg none", header + "." + payload + ".", "unauthorized"},
		{"HS512 with the right secret", sign(jwt.SigningMethodHS512, []byte(ta.cfg.JWTSecret), valid), "unauthorized"},
		{"no exp", sign(jwt.SigningMethodHS256, []byte(ta.cfg.JWTSecret), jwt.MapClaims{"sub": "1"}), "unauthorized"},
		{"unknown user", sign(jwt.SigningMethodHS256, []byte(ta.cfg.JWTSecret), jwt.MapClaims{"sub": "999", "exp": now.Add(time.Hour).Unix()}), "unauthorized"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := ta.do(t, "GET", "/api/auth/me", tc.token, nil)
			assert.Equal(t, 401, resp.StatusCode)
			assert.Equal(t, tc.code, errCode(body))
			assert.NotEmpty(t, resp.Header.Get("X-Request-ID"))
		})
	}
}

func TestRolesAndLiveUserReload(t *testing.T) {
	t.Parallel()
	ta := newTestApp(t, nil)
	srv := ta.HTTP()
	srv.Router().Get("/api/test-admin", srv.RequireUser(), srv.RequireAdmin(), func(c *fiber.Ctx) error { return c.SendString("ok") })
	_, err := AddUser(context.Background(), ta.cfg, auth.NewUser{Email: "viewer@example.org", Name: "Viewer", Password: "viewer-password"})
	require.NoError(t, err)
	admin := ta.login(t, "admin@localhost", ta.initialPassword(t))
	user := ta.login(t, "viewer@example.org", "viewer-password")

	resp, _ := ta.do(t, "GET", "/api/test-admin", admin, nil)
	assert.Equal(t, 200, resp.StatusCode)
	resp, body := ta.do(t, "GET", "/api/test-admin", user, nil)
	assert.Equal(t, 403, resp.StatusCode)
	assert.Equal(t, "forbidden", errCode(body))
	resp, _ = ta.do(t, "GET", "/api/test-admin", "", nil)
	assert.Equal(t, 401, resp.StatusCode)

	// Demote the admin in the database: the very next request is refused.
	_, err = sqlstoretest.Raw(t, ta.cfg.DBPath()).Exec(`UPDATE users SET role = 'user', is_admin = 0 WHERE email = 'admin@localhost'`)
	require.NoError(t, err)
	resp, _ = ta.do(t, "GET", "/api/test-admin", admin, nil)
	assert.Equal(t, 403, resp.StatusCode)
	// Delete the user: the token stops working at once.
	_, err = sqlstoretest.Raw(t, ta.cfg.DBPath()).Exec(`DELETE FROM users WHERE email = 'viewer@example.org'`)
	require.NoError(t, err)
	resp, _ = ta.do(t, "GET", "/api/auth/me", user, nil)
	assert.Equal(t, 401, resp.StatusCode)
}

func TestLoginIsRecordedInActivity(t *testing.T) {
	t.Parallel()
	ta := newTestApp(t, nil)
	ta.login(t, "admin@localhost", ta.initialPassword(t))
	rows, err := ta.repos.activity.ForUser(context.Background(), 1, 10)
	require.NoError(t, err)
	require.Len(t, rows, 1)
	assert.Equal(t, "login", rows[0].Action)
	assert.Contains(t, rows[0].Details, "method=password")
}
