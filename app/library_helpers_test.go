package app

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"mediateka/usecase/auth"
)

// libApp is a test app with a library folder listed in search_dirs.json,
// an admin token and a plain user's token.
type libApp struct {
	*testApp
	root  string
	admin string
	user  string
}

// newLibApp writes search_dirs.json (dirs is its "dirs" list; nil lists the
// library folder as "Disk 1") beside config.json, then builds the app.
func newLibApp(t *testing.T, dirs func(root string) any) *libApp {
	t.Helper()
	return newLibAppEnv(t, dirs, nil)
}

// newLibAppEnv is newLibApp with extra environment settings (the AI
// provider of classification tests).
func newLibAppEnv(t *testing.T, dirs func(root string) any, extra map[string]string) *libApp {
	t.Helper()
	return newLibAppWith(t, dirs, appOptions{env: extra})
}

// newLibAppWith is newLibApp with the app options o (their beside runs
// before the library's own).
func newLibAppWith(t *testing.T, dirs func(root string) any, o appOptions) *libApp {
	t.Helper()
	var root string
	also := o.beside
	o.beside = func(dir string) {
		if also != nil {
			also(dir)
		}
		root = filepath.Join(dir, "library")
		require.NoError(t, os.MkdirAll(root, 0o755))
		var list any = []map[string]string{{"path": root, "disk": "Disk 1"}}
		if dirs != nil {
			list = dirs(root)
		}
		raw, err := json.Marshal(map[string]any{"dirs": list})
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, "search_dirs.json"), raw, 0o600))
	}
	ta := buildTestApp(t, o)
	_, err := AddUser(context.Background(), ta.cfg, auth.NewUser{Email: "viewer@example.org", Name: "Viewer", Password: "viewer-password"})
	require.NoError(t, err)
	return &libApp{testApp: ta, root: root, admin: ta.login(t, "admin@localhost", ta.initialPassword(t)),
		user: ta.login(t, "viewer@example.org", "viewer-password")}
}

// put writes files (relative to the library folder) with the given bodies.
func (la *libApp) put(t *testing.T, files map[string]string) {
	t.Helper()
	for rel, body := range files {
		p := filepath.Join(la.root, rel)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(body), 0o644))
	}
}

// scan starts a scan through the API and waits for it to finish.
func (la *libApp) scan(t *testing.T) map[string]any {
	t.Helper()
	resp, body := la.do(t, "POST", "/api/media-admin/scan", la.admin, nil)
	require.Equal(t, 202, resp.StatusCode, "%v", body)
	var st map[string]any
	require.Eventually(t, func() bool {
		_, st = la.do(t, "GET", "/api/media-admin/scan/status", la.admin, nil)
		return st["state"] != "running"
	}, 10*time.Second, 10*time.Millisecond)
	require.Equal(t, "completed", st["state"], "%v", st)
	return st
}

// raw sends a request and returns the response with its body as bytes.
func (la *libApp) raw(t *testing.T, method, path, token string, header map[string]string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, path, nil)
	require.NoError(t, err)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := la.HTTP().App().Test(req, 10_000)
	require.NoError(t, err)
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp, b
}

// idOf finds the id of the entry at a path relative to the library folder.
func (la *libApp) idOf(t *testing.T, rel string) int64 {
	t.Helper()
	_, raw := la.raw(t, "GET", "/api/media/files", la.user, nil)
	var entries []map[string]any
	require.NoError(t, json.Unmarshal(raw, &entries))
	want := filepath.Join(la.root, rel)
	if len(rel) > 0 && rel[0] == '#' {
		want = la.root + rel
	}
	for _, e := range entries {
		if e["path"] == want {
			return int64(e["id"].(float64))
		}
	}
	t.Fatalf("no entry at %s", want)
	return 0
}
