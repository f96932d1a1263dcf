package app

import (
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"github.com/gofiber/fiber/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNoSecretInLogs drives every path that handles a secret — password
// logins (right and wrong), a token in the URL, Google sign-in with its client
// secret, and a careless log call — then reads both the log file and stderr.
func TestNoSecretInLogs(t *testing.T) {
	t.Parallel()
	f := newFakeGoogle(t)
	ta := newTestApp(t, map[string]string{
		"JWT_SECRET":                            "jwt-secret-value-0123456789",
		"ADMIN_EMAIL":                           "boss@example.org",
		"ADMIN_PASSWORD":                        "admin-password-value-42",
		"MEDIATEKA_TORRENT_CLIENT__PASSWORD":    "torrent-password-value",
		"MEDIATEKA_GOOGLE_OAUTH__CLIENT_ID":     "client-1",
		"MEDIATEKA_GOOGLE_OAUTH__CLIENT_SECRET": "google-client-secret-xyz",
		"MEDIATEKA_GOOGLE_OAUTH__REDIRECT_URI":  "http://localhost:3000/api/auth/google/callback",
		"MEDIATEKA_GOOGLE_OAUTH__AUTH_URL":      f.URL + "/auth",
		"MEDIATEKA_GOOGLE_OAUTH__TOKEN_URL":     f.URL + "/token",
		"MEDIATEKA_GOOGLE_OAUTH__USERINFO_URL":  f.URL + "/userinfo",
	})
	srv := ta.HTTP()
	srv.Router().Get("/api/test-query-token", srv.RequireUserOrQuery(), func(c *fiber.Ctx) error { return c.SendString("ok") })

	token := ta.login(t, "boss@example.org", "admin-password-value-42")
	ta.do(t, "POST", "/api/auth/login", "", map[string]string{"email": "boss@example.org", "password": "wrong-password-value-7"})
	resp, _ := ta.do(t, "GET", "/api/test-query-token?token="+url.QueryEscape(token), "", nil)
	require.Equal(t, 200, resp.StatusCode, "?token= is accepted where allowed")
	resp, _ = ta.do(t, "GET", "/api/auth/me?token="+url.QueryEscape(token), "", nil)
	require.Equal(t, 401, resp.StatusCode, "?token= is refused where a header is possible")

	f.issue("code-boss", "boss@example.org", true)
	state, cookie := begin(t, ta, f.URL)
	resp, _ = callback(t, ta, "code-boss", state, cookie)
	require.Equal(t, 302, resp.StatusCode)

	log := ta.Logger()
	log.Error("careless", "err", errors.New("dial failed with password=admin-password-value-42"), "api_key", "sk-live-abcdef")
	log.Info("careless message with jwt-secret-value-0123456789 inside")
	ta.Close()

	file, err := os.ReadFile(filepath.Join(ta.cfg.LogDir, "mediateka.log"))
	require.NoError(t, err)
	for name, logs := range map[string]string{"log file": string(file), "stderr": ta.stderr.String()} {
		assert.Contains(t, logs, "careless", "%s has the lines", name)
		for _, secret := range []string{"admin-password-value-42", "wrong-password-value-7", token, "jwt-secret-value-0123456789",
			"google-client-secret-xyz", "torrent-password-value", "sk-live-abcdef", "at-code-boss", state} {
			assert.NotContains(t, logs, secret, "%s leaks a secret", name)
		}
		assert.Contains(t, logs, "token=%2A%2A%2A", "%s shows the masked query token", name)
	}
}
