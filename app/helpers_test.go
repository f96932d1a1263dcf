package app

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"mediateka/config"
	"mediateka/domain"
	"mediateka/plugins"
)

// syncBuffer is a goroutine-safe stderr for the app under test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

// testApp is a fully wired App on a temporary data folder.
type testApp struct {
	*App
	cfg    config.Config
	stderr *syncBuffer
}

// newTestApp loads the configuration through config.Load with env as the
// environment and builds the app.
func newTestApp(t testing.TB, env map[string]string) *testApp {
	t.Helper()
	return buildTestApp(t, appOptions{env: env})
}

// newTestAppWith is newTestApp with the plugin registry replaced by entries
// (nil: the built-in plugins).
func newTestAppWith(t testing.TB, env map[string]string, entries []plugins.Entry) *testApp {
	t.Helper()
	return buildTestApp(t, appOptions{env: env, plugins: entries})
}

// appOptions says how buildTestApp differs from the defaults.
type appOptions struct {
	env     map[string]string // the environment besides the data folder
	plugins []plugins.Entry   // nil: the built-in plugins
	// beside writes files into the folder of config.json (search_dirs.json)
	// before the configuration is loaded.
	beside func(dir string)
	// embedder is semantic search's embedder (nil: the default one).
	embedder domain.Embedder
}

// buildTestApp is the one builder of test apps: a temporary folder holding
// config.json and the data folder, the configuration loaded through
// config.Load with o.env as the environment, the app closed when t ends.
func buildTestApp(t testing.TB, o appOptions) *testApp {
	t.Helper()
	dir := t.TempDir()
	if o.beside != nil {
		o.beside(dir)
	}
	full := map[string]string{"MEDIATEKA_DATA_DIR": filepath.Join(dir, "data")}
	for k, v := range o.env {
		full[k] = v
	}
	cfg, _, err := config.Load(filepath.Join(dir, "config.json"), func(k string) (string, bool) { v, ok := full[k]; return v, ok })
	require.NoError(t, err)
	stderr := &syncBuffer{}
	a, err := New(context.Background(), cfg, Options{Version: "test", Stderr: stderr, Plugins: o.plugins, Embedder: o.embedder})
	require.NoError(t, err)
	t.Cleanup(a.Close)
	return &testApp{App: a, cfg: a.cfg, stderr: stderr}
}

// do sends a request through Fiber's in-memory test transport.
func (ta *testApp) do(t testing.TB, method, path, token string, body any) (*http.Response, map[string]any) {
	t.Helper()
	var r io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		r = strings.NewReader(b)
	default:
		raw, err := json.Marshal(b)
		require.NoError(t, err)
		r = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, path, r)
	require.NoError(t, err)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := ta.HTTP().App().Test(req, 10_000)
	require.NoError(t, err)
	raw, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	var out map[string]any
	_ = json.Unmarshal(raw, &out)
	return resp, out
}

// initialPassword reads the generated first-admin password.
func (ta *testApp) initialPassword(t testing.TB) string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(ta.cfg.DataDir, "initial_admin_password"))
	require.NoError(t, err)
	return strings.TrimSpace(string(raw))
}

// login signs in and returns the token.
func (ta *testApp) login(t testing.TB, email, password string) string {
	t.Helper()
	resp, body := ta.do(t, "POST", "/api/auth/login", "", map[string]string{"email": email, "password": password})
	require.Equal(t, 200, resp.StatusCode, "%v", body)
	return body["access_token"].(string)
}

// errCode extracts error.code from an error body.
func errCode(body map[string]any) string {
	e, _ := body["error"].(map[string]any)
	s, _ := e["code"].(string)
	return s
}
