package app

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/repository/aimodel/aifake"
	"mediateka/repository/sqlstore/sqlstoretest"
)

// secrets of the keys used below: long and recognisable, so a leak of any
// of them anywhere is caught.
var (
	secretA = "AIzaSy-AAAA-first-key-1234567890-aaaa"
	secretB = "AIzaSy-BBBB-second-key-1234567890-bbbb"
	secretC = "AIzaSy-CCCC-third-key-1234567890-cccc"
)

// transcript collects every response body of a test, to check that no
// secret ever leaves the server.
type transcript struct{ bodies []string }

func (tr *transcript) do(t *testing.T, ta *testApp, method, path, token string, body any) (int, map[string]any) {
	t.Helper()
	resp, out := ta.do(t, method, path, token, body)
	raw, _ := json.Marshal(out)
	tr.bodies = append(tr.bodies, string(raw))
	return resp.StatusCode, out
}

// assertNoSecret checks the responses, the log on stderr, the log file and
// the database file with its write-ahead log for every raw secret.
func assertNoSecret(t *testing.T, ta *testApp, tr *transcript, secrets ...string) {
	t.Helper()
	logFile, err := os.ReadFile(filepath.Join(ta.cfg.LogDir, "mediateka.log"))
	require.NoError(t, err)
	_, err = sqlstoretest.Raw(t, ta.cfg.DBPath()).Exec(`PRAGMA wal_checkpoint(FULL)`)
	require.NoError(t, err)
	db, err := os.ReadFile(ta.cfg.DBPath())
	require.NoError(t, err)
	wal, _ := os.ReadFile(ta.cfg.DBPath() + "-wal")
	for _, s := range secrets {
		for _, b := range tr.bodies {
			assert.NotContains(t, b, s, "a response holds a raw key")
		}
		assert.NotContains(t, ta.stderr.String(), s, "the log holds a raw key")
		assert.False(t, bytes.Contains(logFile, []byte(s)), "the log file holds a raw key")
		assert.False(t, bytes.Contains(db, []byte(s)), "the database file holds a raw key")
		assert.False(t, bytes.Contains(wal, []byte(s)), "the write-ahead log holds a raw key")
	}
}

func TestKeysCRUDIsMaskedAndEncryptedAtRest(t *testing.T) {
	t.Parallel()
	ta := newTestApp(t, nil)
	admin, _ := ta.tokens(t)
	tr := &transcript{}

	status, k := tr.do(t, ta, "POST", "/api/keys", admin, map[string]any{"key_name": "main", "api_key": secretA, "daily_quota": 100})
	require.Equal(t, 201, status, "%v", k)
	assert.Equal(t, "main", k["key_name"])
	assert.Equal(t, "gemini", k["provider"])
	assert.Equal(t, "AIza…aaaa", k["api_key_masked"])
	assert.Equal(t, "active", k["status"])
	assert.Nil(t, k["last_run"])
	assert.Nil(t, k["exhausted_at"])
	assert.EqualValues(t, 100, k["daily_quota"])
	assert.EqualValues(t, 0, k["used_today"])
	assert.NotContains(t, k, "api_key")

	status, body := tr.do(t, ta, "POST", "/api/keys", admin, map[string]any{"key_name": "main", "api_key": secretB})
	assert.Equal(t, 409, status)
	assert.Equal(t, "already_exists", errCode(body))
	status, body = tr.do(t, ta, "POST", "/api/keys", admin, map[string]any{"key_name": "second"})
	assert.Equal(t, 400, status)
	assert.Contains(t, body["error"].(map[string]any)["fields"], "api_key")
	status, _ = tr.do(t, ta, "POST", "/api/keys", admin, map[string]any{"api_key": secretB})
	assert.Equal(t, 400, status)

	status, body = tr.do(t, ta, "POST", "/api/keys", admin, map[string]any{"key_name": "local", "api_key": secretB, "provider": "openai", "status": "disabled"})
	require.Equal(t, 201, status, "%v", body)
	status, list := tr.do(t, ta, "GET", "/api/keys", admin, nil)
	require.Equal(t, 200, status)
	assert.EqualValues(t, 2, list["total"])
	keys := list["keys"].([]any)
	assert.Equal(t, "main", keys[0].(map[string]any)["key_name"], "rotation order: the order keys were added")
	assert.Equal(t, "AIza…bbbb", keys[1].(map[string]any)["api_key_masked"])

	status, k = tr.do(t, ta, "PATCH", "/api/keys/main", admin, map[string]any{"daily_quota": nil, "api_key": secretC})
	require.Equal(t, 200, status, "%v", k)
	assert.Nil(t, k["daily_quota"], "null means unlimited")
	assert.Equal(t, "AIza…cccc", k["api_key_masked"])
	status, body = tr.do(t, ta, "PATCH", "/api/keys/main", admin, map[string]any{"status": "exhausted"})
	assert.Equal(t, 400, status, "only active and disabled may be set: %v", body)
	status, _ = tr.do(t, ta, "PATCH", "/api/keys/main", admin, map[string]any{"daily_quota": "many"})
	assert.Equal(t, 400, status)
	status, _ = tr.do(t, ta, "PATCH", "/api/keys/nope", admin, map[string]any{"status": "disabled"})
	assert.Equal(t, 404, status)

	status, k = tr.do(t, ta, "GET", "/api/keys/main", admin, nil)
	require.Equal(t, 200, status)
	assert.Equal(t, "AIza…cccc", k["api_key_masked"])
	status, _ = tr.do(t, ta, "DELETE", "/api/keys/local", admin, nil)
	assert.Equal(t, 204, status)
	status, body = tr.do(t, ta, "GET", "/api/keys/local", admin, nil)
	assert.Equal(t, 404, status)
	assert.Equal(t, "not_found", errCode(body))

	assertNoSecret(t, ta, tr, secretA, secretB, secretC)
	info, err := os.Stat(filepath.Join(ta.cfg.DataDir, "secret.key"))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), info.Mode().Perm(), "the key master secret is private")
}

func TestKeyRotationOverHTTP(t *testing.T) {
	t.Parallel()
	fake := aifake.NewGemini(t)
	ta := newTestApp(t, geminiEnv(fake))
	admin, user := ta.tokens(t)
	tr := &transcript{}
	for i, secret := range []string{secretA, secretB, secretC} {
		status, _ := tr.do(t, ta, "POST", "/api/keys", admin, map[string]any{"key_name": fmt.Sprintf("k%d", i+1), "api_key": secret})
		require.Equal(t, 201, status)
	}
	fake.RateLimit(secretA)
	fake.RateLimit(secretB)

	status, body := tr.do(t, ta, "POST", "/api/chat", user, map[string]any{"message": "что посмотреть?"})
	require.Equal(t, 200, status, "%v", body)
	assert.Equal(t, "gemini/gemini-2.5-flash", body["model"])
	assert.Equal(t, aifake.DefaultReply, body["response"])
	var sent []string
	for _, r := range fake.Requests() {
		sent = append(sent, r.Key)
	}
	assert.Equal(t, []string{secretA, secretB, secretC}, sent)

	_, list := tr.do(t, ta, "GET", "/api/keys", admin, nil)
	for i, want := range []string{"exhausted", "exhausted", "active"} {
		k := list["keys"].([]any)[i].(map[string]any)
		assert.Equal(t, want, k["status"], k["key_name"])
		if want == "exhausted" {
			at, err := time.Parse(time.RFC3339, k["exhausted_at"].(string))
			require.NoError(t, err)
			assert.WithinDuration(t, time.Now(), at, time.Minute)
		}
	}

	fake.RateLimit(secretC)
	status, body = tr.do(t, ta, "POST", "/api/chat", user, map[string]any{"message": "а теперь?"})
	assert.Equal(t, 503, status)
	assert.Equal(t, "ai_unavailable", errCode(body))

	status, k := tr.do(t, ta, "POST", "/api/keys/k2/reset-quota", admin, nil)
	require.Equal(t, 200, status)
	assert.Equal(t, "active", k["status"])
	assert.Nil(t, k["exhausted_at"])
	assert.EqualValues(t, 0, k["used_today"])
	fake.Restore(secretB)
	status, body = tr.do(t, ta, "POST", "/api/chat", user, map[string]any{"message": "ещё раз"})
	require.Equal(t, 200, status, "%v", body)
	assert.Equal(t, secretB, fake.Last().Key, "the reset key is back in the rotation")

	assertNoSecret(t, ta, tr, secretA, secretB, secretC)
}

func TestSystemInstructionAndHistoryReachTheModel(t *testing.T) {
	t.Parallel()
	fake := aifake.NewGemini(t)
	ta := newTestApp(t, geminiEnv(fake))
	admin, user := ta.tokens(t)
	resp, _ := ta.do(t, "POST", "/api/keys", admin, map[string]any{"key_name": "main", "api_key": secretA})
	require.Equal(t, 201, resp.StatusCode)

	resp, si := ta.do(t, "GET", "/api/admin/system_instruction", admin, nil)
	require.Equal(t, 200, resp.StatusCode)
	assert.Nil(t, si["updated_at"], "the built-in default was never stored")
	resp, _ = ta.do(t, "POST", "/api/chat", user, map[string]any{"message": "hi"})
	require.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, si["content"], fake.Last().System)

	resp, body := ta.do(t, "POST", "/api/admin/system_instruction", admin, map[string]any{"content": "   "})
	assert.Equal(t, 400, resp.StatusCode)
	assert.Equal(t, "invalid_input", errCode(body))
	resp, si = ta.do(t, "POST", "/api/admin/system_instruction", admin, map[string]any{"content": "Ты — киновед. Отвечай кратко."})
	require.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, "Ты — киновед. Отвечай кратко.", si["content"])
	_, err := time.Parse(time.RFC3339, si["updated_at"].(string))
	require.NoError(t, err)

	history := []map[string]string{
		{"role": "user", "text": "Посоветуй фильм"},
		{"role": "assistant", "text": "«Сталкер»"},
		{"role": "user", "text": "Уже видел"},
		{"role": "model", "text": "«Солярис»"},
	}
	resp, _ = ta.do(t, "POST", "/api/chat", user, map[string]any{"message": "Что-нибудь новее?", "history": history})
	require.Equal(t, 200, resp.StatusCode)
	got := fake.Last()
	assert.Equal(t, "Ты — киновед. Отвечай кратко.", got.System, "the change reached the very next model request")
	assert.Equal(t, []aifake.Turn{{Role: "user", Text: "Посоветуй фильм"}, {Role: "model", Text: "«Сталкер»"},
		{Role: "user", Text: "Уже видел"}, {Role: "model", Text: "«Солярис»"}}, got.History)
	assert.Equal(t, "Что-нибудь новее?", got.Message)
}

func TestPluginAdminAndRestart(t *testing.T) {
	t.Parallel()
	ta := newTestApp(t, nil)
	admin, _ := ta.tokens(t)
	resp, list := ta.doList(t, "GET", "/api/admin/plugins", admin)
	require.Equal(t, 200, resp)
	require.NotEmpty(t, list)
	assert.Equal(t, map[string]any{"name": "media_layer", "description": list[0]["description"], "order": 1.0,
		"enabled": true, "loaded": true, "running": false, "last_error": nil}, list[0], "not running: the server is not started")

	r, body := ta.do(t, "GET", "/api/admin/plugin/nope/status", admin, nil)
	assert.Equal(t, 404, r.StatusCode)
	assert.Equal(t, "not_found", errCode(body))
	r, body = ta.do(t, "POST", "/api/admin/plugin/media_layer/status", admin, map[string]any{})
	assert.Equal(t, 400, r.StatusCode)
	assert.Contains(t, body["error"].(map[string]any)["fields"], "enabled")
	r, body = ta.do(t, "POST", "/api/admin/plugin/media_layer/status", admin, map[string]any{"enabled": false})
	require.Equal(t, 200, r.StatusCode)
	assert.Equal(t, false, body["enabled"])
	ta.Close()

	a2, err := New(context.Background(), ta.cfg, Options{Stderr: &syncBuffer{}})
	require.NoError(t, err)
	defer a2.Close()
	st, err := a2.plugins.Get("media_layer")
	require.NoError(t, err)
	assert.False(t, st.Enabled, "the switch survived the restart")
	assert.True(t, st.Loaded)
}

// doList is do for endpoints that answer with a JSON array.
func (ta *testApp) doList(t *testing.T, method, path, token string) (int, []map[string]any) {
	t.Helper()
	req, err := http.NewRequest(method, path, nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := ta.HTTP().App().Test(req, 10_000)
	require.NoError(t, err)
	defer resp.Body.Close()
	var out []map[string]any
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&out))
	return resp.StatusCode, out
}
