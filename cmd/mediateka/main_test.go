package main

import (
	"bytes"
	"context"
	"net"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/app"
	"mediateka/config"
)

// runCLI runs the command line in-process with a temporary data folder.
func runCLI(t *testing.T, dir, stdin string, args ...string) (int, string, string) {
	t.Helper()
	t.Setenv("MEDIATEKA_DATA_DIR", filepath.Join(dir, "data"))
	var out, errOut bytes.Buffer
	code := run(args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestVersionAndUnknownCommand(t *testing.T) {
	code, out, _ := runCLI(t, t.TempDir(), "", "version")
	assert.Equal(t, 0, code)
	assert.Equal(t, "mediateka dev\n", out)
	code, _, errOut := runCLI(t, t.TempDir(), "", "frobnicate")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, `unknown command "frobnicate"`)
	assert.Contains(t, errOut, "user add")
}

func TestUserAdd(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.json")
	code, out, errOut := runCLI(t, dir, "a-long-password\n", "user", "add", "--config", cfg, "--email", "kate@example.org", "--name", "Катя", "--admin", "--password-stdin")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "kate@example.org (role admin)")

	code, _, errOut = runCLI(t, dir, "a-long-password\n", "user", "add", "--config", cfg, "--email", "kate@example.org", "--password-stdin")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "already exists")

	code, _, errOut = runCLI(t, dir, "short\n", "user", "add", "--config", cfg, "--email", "bob@example.org", "--password-stdin")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "password must be at least 8 characters")

	code, _, errOut = runCLI(t, dir, "", "user", "add", "--config", cfg, "--email", "bob@example.org")
	assert.Equal(t, 2, code, "the password never comes from the command line")
	assert.Contains(t, errOut, "--password-stdin")
}

func TestInvalidConfigStopsWithEveryProblem(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.json")
	require.NoError(t, os.WriteFile(cfg, []byte(`{"port": 0, "ai": {"provider": "hal"}}`), 0o600))
	code, _, errOut := runCLI(t, dir, "", "serve", "--config", cfg)
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "port 0 is out of range")
	assert.Contains(t, errOut, `ai.provider "hal"`)

	require.NoError(t, os.WriteFile(cfg, []byte("{\n \"port\": 3000\n \"host\": \"x\"}"), 0o600))
	code, _, errOut = runCLI(t, dir, "", "--config", cfg)
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "line 3, column 2")
}

func TestHealthcheck(t *testing.T) {
	dir := t.TempDir()
	cfg, _, err := config.Load(filepath.Join(dir, "none.json"), func(k string) (string, bool) {
		if k == "MEDIATEKA_DATA_DIR" {
			return filepath.Join(dir, "data"), true
		}
		return "", false
	})
	require.NoError(t, err)
	a, err := app.New(context.Background(), cfg, app.Options{Version: "1.2.3", Stderr: &bytes.Buffer{}})
	require.NoError(t, err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx, ln) }()

	code, out, _ := runCLI(t, dir, "", "healthcheck", "--url", "http://"+ln.Addr().String()+"/healthz")
	assert.Equal(t, 0, code)
	assert.Equal(t, "ok 1.2.3\n", out)
	cancel()
	require.NoError(t, <-done)

	code, _, errOut := runCLI(t, dir, "", "healthcheck", "--url", "http://"+ln.Addr().String()+"/healthz")
	assert.Equal(t, 1, code, "nothing listens any more")
	assert.Contains(t, errOut, "unhealthy")
}

func TestUserPasswdReplacesThePasswordWithoutTheServer(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.json")
	code, _, errOut := runCLI(t, dir, "first-password\n", "user", "add", "--config", cfg, "--email", "Kate@Example.org", "--password-stdin")
	require.Equal(t, 0, code, errOut)
	code, _, errOut = runCLI(t, dir, "first-password\n", "user", "add", "--config", cfg, "--email", "kate@example.ORG", "--password-stdin")
	assert.Equal(t, 2, code, "the same e-mail in another case is refused")
	assert.Contains(t, errOut, "already exists")

	code, out, errOut := runCLI(t, dir, "second-password\n", "user", "passwd", "--config", cfg, "--email", "KATE@example.org", "--password-stdin")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "changed the password of user 1 kate@example.org")
	_, err := os.Stat(filepath.Join(dir, "data", "jwt_secret"))
	assert.True(t, os.IsNotExist(err), "account management needs no token secret")

	for _, bad := range []struct{ stdin, email, why string }{
		{"short\n", "kate@example.org", "at least 8 characters"},
		{"third-password\n", "nobody@example.org", "not found"},
	} {
		code, _, errOut = runCLI(t, dir, bad.stdin, "user", "passwd", "--config", cfg, "--email", bad.email, "--password-stdin")
		assert.Equal(t, 2, code, bad.why)
		assert.Contains(t, errOut, bad.why)
	}
	code, _, _ = runCLI(t, dir, "", "user", "passwd", "--config", cfg, "--email", "kate@example.org")
	assert.Equal(t, 2, code, "without --password-stdin")

	c, _, err := config.Load(cfg, func(k string) (string, bool) {
		if k == "MEDIATEKA_DATA_DIR" {
			return filepath.Join(dir, "data"), true
		}
		return "", false
	})
	require.NoError(t, err)
	a, err := app.New(context.Background(), c, app.Options{Stderr: &bytes.Buffer{}})
	require.NoError(t, err)
	defer a.Close()
	for pw, want := range map[string]int{"first-password": 401, "second-password": 200} {
		req := httptest.NewRequest("POST", "/api/auth/login", strings.NewReader(`{"email":"kate@example.org","password":"`+pw+`"}`))
		req.Header.Set("Content-Type", "application/json")
		resp, err := a.HTTP().App().Test(req, 10_000)
		require.NoError(t, err)
		assert.Equal(t, want, resp.StatusCode, pw)
	}
}
