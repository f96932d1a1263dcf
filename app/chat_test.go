package app

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/plugins"
	"mediateka/repository/aimodel/aifake"
	"mediateka/usecase/auth"
)

// tokens signs in the generated admin and a plain user.
func (ta *testApp) tokens(t testing.TB) (admin, user string) {
	t.Helper()
	_, err := AddUser(context.Background(), ta.cfg, auth.NewUser{Email: "viewer@example.org", Name: "Viewer", Password: "viewer-password"})
	require.NoError(t, err)
	return ta.login(t, "admin@localhost", ta.initialPassword(t)), ta.login(t, "viewer@example.org", "viewer-password")
}

// geminiEnv points the app at a fake Gemini server.
func geminiEnv(fake *aifake.Gemini) map[string]string {
	return map[string]string{"MEDIATEKA_AI__PROVIDER": "gemini", "MEDIATEKA_AI__BASE_URL": fake.URL()}
}

func TestEveryNewEndpointNeedsAToken(t *testing.T) {
	t.Parallel()
	ta := newTestApp(t, nil)
	admin, user := ta.tokens(t)
	routes := []struct {
		method, path string
		body         any
		adminOnly    bool
	}{
		{"POST", "/api/chat", map[string]any{"message": "привет"}, false},
		{"GET", "/api/admin/system_instruction", nil, true},
		{"POST", "/api/admin/system_instruction", map[string]any{"content": "x"}, true},
		{"GET", "/api/admin/plugins", nil, true},
		{"GET", "/api/admin/plugin/media_layer/status", nil, true},
		{"POST", "/api/admin/plugin/media_layer/status", map[string]any{"enabled": true}, true},
		{"GET", "/api/keys", nil, true},
		{"POST", "/api/keys", map[string]any{"key_name": "k", "api_key": "abcdefghijkl"}, true},
		{"GET", "/api/keys/k", nil, true},
		{"PATCH", "/api/keys/k", map[string]any{"status": "disabled"}, true},
		{"POST", "/api/keys/k/reset-quota", nil, true},
		{"DELETE", "/api/keys/k", nil, true},
	}
	for _, r := range routes {
		resp, body := ta.do(t, r.method, r.path, "", r.body)
		assert.Equal(t, 401, resp.StatusCode, "%s %s without a token", r.method, r.path)
		assert.Equal(t, "unauthorized", errCode(body))
		resp, _ = ta.do(t, r.method, r.path, "not-a-token", r.body)
		assert.Equal(t, 401, resp.StatusCode, "%s %s with a bad token", r.method, r.path)
		resp, body = ta.do(t, r.method, r.path, user, r.body)
		if r.adminOnly {
			assert.Equal(t, 403, resp.StatusCode, "%s %s as a user", r.method, r.path)
			assert.Equal(t, "forbidden", errCode(body))
		} else {
			assert.Equal(t, 200, resp.StatusCode, "%s %s as a user: %v", r.method, r.path, body)
		}
		resp, body = ta.do(t, r.method, r.path, admin, r.body)
		assert.Less(t, resp.StatusCode, 300, "%s %s as an admin: %v", r.method, r.path, body)
	}
}

func TestOfflineChatByDefault(t *testing.T) {
	t.Parallel()
	ta := newTestApp(t, nil)
	_, user := ta.tokens(t)
	resp, body := ta.do(t, "POST", "/api/chat", user, map[string]any{"message": "Есть ли у меня Матрица?", "history": []any{}})
	require.Equal(t, 200, resp.StatusCode, "%v", body)
	assert.Equal(t, "model", body["handled_by"])
	assert.Equal(t, "offline", body["model"])
	assert.Equal(t, "ok", body["status"])
	assert.Equal(t, body["response"], body["text"])
	text := body["text"].(string)
	assert.Contains(t, text, "AI-модель не настроена")
	assert.Contains(t, text, "ничего не нашлось", "the catalogue is searched, and the empty answer is said plainly")

	rows, err := ta.repos.activity.ForUser(context.Background(), 2, 10)
	require.NoError(t, err)
	require.NotEmpty(t, rows)
	assert.Equal(t, "chat", rows[0].Action)
	assert.JSONEq(t, `{"message_chars": 23, "history_items": 0, "handled_by": "model"}`, rows[0].Details)
}

func TestChatValidationOverHTTP(t *testing.T) {
	t.Parallel()
	ta := newTestApp(t, map[string]string{"MEDIATEKA_CHAT__MAX_MESSAGE_CHARS": "10"})
	_, user := ta.tokens(t)
	history := make([]map[string]string, 51)
	for i := range history {
		history[i] = map[string]string{"role": "user", "text": "x"}
	}
	cases := []struct {
		body any
		code string
	}{
		{map[string]any{}, "empty_message"},
		{map[string]any{"message": "   "}, "empty_message"},
		{map[string]any{"message": "одиннадцать"}, "message_too_long"},
		{map[string]any{"message": "hi", "history": history}, "invalid_input"},
		{map[string]any{"message": "hi", "history": []any{map[string]string{"role": "robot", "text": "x"}}}, "invalid_input"},
		{map[string]any{"message": 42}, "invalid_input"},
		{"{not json", "invalid_json"},
	}
	for _, c := range cases {
		resp, body := ta.do(t, "POST", "/api/chat", user, c.body)
		assert.Equal(t, 400, resp.StatusCode, "%v", c.body)
		assert.Equal(t, c.code, errCode(body), "%v", c.body)
	}
	resp, _ := ta.do(t, "POST", "/api/chat", user, map[string]any{"message": "десять букв"})
	assert.Equal(t, 400, resp.StatusCode, "eleven characters with the space")
	resp, body := ta.do(t, "POST", "/api/chat", user, map[string]any{"message": "десятьбукв"})
	assert.Equal(t, 200, resp.StatusCode, "ten Cyrillic characters (twenty bytes) fit: %v", body)
}

// named builds a test plugin entry from a handle function.
func named(name string, handle func(string) (string, error)) plugins.Entry {
	return plugins.Entry{Name: name, Factory: func(plugins.Deps) domain.Plugin { return &funcPlugin{name, handle} }}
}

type funcPlugin struct {
	name   string
	handle func(string) (string, error)
}

func (p *funcPlugin) Name() string                                       { return p.name }
func (p *funcPlugin) Description() string                                { return "test plugin " + p.name }
func (p *funcPlugin) Handle(_ context.Context, m string) (string, error) { return p.handle(m) }
func (p *funcPlugin) Setup(context.Context) (bool, error)                { return true, nil }
func (p *funcPlugin) Start(context.Context) error                        { return nil }
func (p *funcPlugin) Stop(context.Context) error                         { return nil }
func (p *funcPlugin) Teardown(context.Context) error                     { return nil }

// chainPlugins: media_layer is the real one; rag always fails; telegram
// and torrent_search both answer "hello", so the first of them must win.
func chainPlugins() []plugins.Entry {
	// The built-in rag, telegram and torrent_search give way to the test's
	// plugins of the same names: two slots of one name would make the
	// plugin switches ambiguous.
	var builtins []plugins.Entry
	for _, e := range plugins.Builtins() {
		if e.Name != "rag" && e.Name != "telegram" && e.Name != "torrent_search" {
			builtins = append(builtins, e)
		}
	}
	return append(builtins,
		named("rag", func(string) (string, error) { return "", errors.New("index is corrupt") }),
		named("telegram", func(m string) (string, error) {
			if strings.Contains(m, "hello") {
				return "telegram says hi", nil
			}
			return "", nil
		}),
		named("torrent_search", func(m string) (string, error) {
			if strings.Contains(m, "hello") {
				return "torrent_search says hi", nil
			}
			return "", nil
		}),
	)
}

func TestPluginChainOrderFailuresAndSwitches(t *testing.T) {
	t.Parallel()
	ta := newTestAppWith(t, nil, chainPlugins())
	admin, user := ta.tokens(t)
	ask := func(msg string) map[string]any {
		resp, body := ta.do(t, "POST", "/api/chat", user, map[string]any{"message": msg})
		require.Equal(t, 200, resp.StatusCode, "%v", body)
		return body
	}
	body := ask("hello there")
	assert.Equal(t, "telegram", body["handled_by"], "rag's error is skipped; telegram comes before torrent_search")
	assert.Equal(t, "telegram says hi", body["response"])
	assert.Nil(t, body["model"])
	assert.Contains(t, ta.stderr.String(), "index is corrupt", "the plugin's error is logged")

	body = ask("включи субтитры")
	assert.Equal(t, "media_layer", body["handled_by"])
	assert.Contains(t, body["response"], "Субтитры включены")

	resp, st := ta.do(t, "POST", "/api/admin/plugin/telegram/status", admin, map[string]any{"enabled": false})
	require.Equal(t, 200, resp.StatusCode, "%v", st)
	assert.Equal(t, false, st["enabled"])
	assert.Equal(t, false, st["running"])
	assert.Equal(t, "torrent_search", ask("hello there")["handled_by"], "the chain honours the switch at once")

	resp, _ = ta.do(t, "POST", "/api/admin/plugin/telegram/status", admin, map[string]any{"enabled": true})
	require.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, "telegram", ask("hello there")["handled_by"])
	assert.Equal(t, "model", ask("nobody knows this")["handled_by"])
}

func TestDisabledPluginsOverHTTP(t *testing.T) {
	t.Parallel()
	ta := newTestAppWith(t, map[string]string{"DISABLED_PLUGINS": " Telegram ,rag"}, chainPlugins())
	admin, user := ta.tokens(t)
	resp, body := ta.do(t, "POST", "/api/chat", user, map[string]any{"message": "hello"})
	require.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, "torrent_search", body["handled_by"])

	resp, body = ta.do(t, "GET", "/api/admin/plugin/telegram/status", admin, nil)
	require.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, false, body["loaded"])
	assert.Equal(t, false, body["enabled"])
	assert.Equal(t, "disabled by DISABLED_PLUGINS", body["last_error"])
	resp, body = ta.do(t, "POST", "/api/admin/plugin/telegram/status", admin, map[string]any{"enabled": true})
	assert.Equal(t, 409, resp.StatusCode)
	assert.Equal(t, "plugin_not_loaded", errCode(body))
}

// sse posts a streaming chat request to a running server and returns the
// decoded data objects in order.
func sse(t *testing.T, addr, token string, body any) []map[string]any {
	t.Helper()
	raw, _ := json.Marshal(body)
	req, err := http.NewRequest("POST", "http://"+addr+"/api/chat", strings.NewReader(string(raw)))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, 200, resp.StatusCode)
	assert.Contains(t, resp.Header.Get("Content-Type"), "text/event-stream")
	return readChatEvents(t, bufio.NewScanner(resp.Body))
}

func readChatEvents(t *testing.T, sc *bufio.Scanner) []map[string]any {
	t.Helper()
	var events []map[string]any
	blank := true
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			blank = true
			continue
		}
		require.True(t, blank, "each data line is its own event, followed by a blank line")
		require.True(t, strings.HasPrefix(line, "data: "), line)
		var ev map[string]any
		require.NoError(t, json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &ev))
		events = append(events, ev)
		blank = false
	}
	return events
}

func TestChatStreamsServerSentEvents(t *testing.T) {
	t.Parallel()
	fake := aifake.NewGemini(t)
	fake.SetReply("Посмотрите «Сталкер» Тарковского.")
	fake.SetChunks(4)
	ta := newTestAppWith(t, geminiEnv(fake), chainPlugins())
	admin, user := ta.tokens(t)
	resp, _ := ta.do(t, "POST", "/api/keys", admin, map[string]any{"key_name": "main", "api_key": "AIzaSy-STREAM-KEY-123456"})
	require.Equal(t, 201, resp.StatusCode)
	addr, stop := runOnLoopback(t, ta)
	defer func() { _ = stop() }()

	events := sse(t, addr, user, map[string]any{"message": "что посмотреть?"})
	require.GreaterOrEqual(t, len(events), 4)
	assert.Equal(t, map[string]any{"status": "checking_plugins"}, events[0])
	assert.Equal(t, map[string]any{"status": "asking_model"}, events[1])
	var text strings.Builder
	for _, ev := range events[2 : len(events)-1] {
		require.Len(t, ev, 1, "%v", ev)
		text.WriteString(ev["text"].(string))
	}
	assert.Equal(t, "Посмотрите «Сталкер» Тарковского.", text.String())
	assert.Greater(t, len(events)-3, 1, "the answer came in several pieces")
	assert.Equal(t, map[string]any{"done": true, "handled_by": "model", "model": "gemini/gemini-2.5-flash"}, events[len(events)-1])

	events = sse(t, addr, user, map[string]any{"message": "hello"})
	assert.Equal(t, []map[string]any{{"status": "checking_plugins"}, {"text": "telegram says hi"},
		{"done": true, "handled_by": "telegram", "model": nil}}, events)

	fake.FailAll(500)
	events = sse(t, addr, user, map[string]any{"message": "что ещё?"})
	last := events[len(events)-1]
	assert.Equal(t, "ai_unavailable", last["error"].(map[string]any)["code"], "%v", events)

	// Invalid input is a plain 400, before any stream starts.
	req, _ := http.NewRequest("POST", "http://"+addr+"/api/chat", strings.NewReader(`{"message": ""}`))
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Authorization", "Bearer "+user)
	plain, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer plain.Body.Close()
	assert.Equal(t, 400, plain.StatusCode)
	assert.Contains(t, plain.Header.Get("Content-Type"), "application/json")
}

func TestShutdownEndsAChatStream(t *testing.T) {
	t.Parallel()
	fake := aifake.NewGemini(t)
	fake.SetReply("one two three four")
	fake.SetChunks(4)
	fake.SetChunkDelay(time.Minute)
	ta := newTestApp(t, geminiEnv(fake))
	admin, user := ta.tokens(t)
	resp, _ := ta.do(t, "POST", "/api/keys", admin, map[string]any{"key_name": "main", "api_key": "AIzaSy-SHUTDOWN-KEY-1234"})
	require.Equal(t, 201, resp.StatusCode)
	addr, stop := runOnLoopback(t, ta)

	raw := `{"message": "long answer please"}`
	req, _ := http.NewRequest("POST", "http://"+addr+"/api/chat", strings.NewReader(raw))
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Authorization", "Bearer "+user)
	stream, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer stream.Body.Close()
	sc := bufio.NewScanner(stream.Body)
	for sc.Scan() && !strings.Contains(sc.Text(), `"text"`) {
	}
	begin := time.Now()
	require.NoError(t, stop())
	assert.Less(t, time.Since(begin), 5*time.Second, "the stream did not hold the server open")
	rest := readChatEvents(t, sc)
	require.NotEmpty(t, rest)
	last := rest[len(rest)-1]
	assert.Equal(t, "unavailable", last["error"].(map[string]any)["code"], "%v", rest)
}
