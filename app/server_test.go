package app

import (
	"bufio"
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestHealthz(t *testing.T) {
	t.Parallel()
	ta := newTestApp(t, nil)
	resp, body := ta.do(t, "GET", "/healthz", "", nil)
	assert.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, map[string]any{"status": "ok", "version": "test"}, body)
	assert.NotEmpty(t, resp.Header.Get("X-Request-ID"))
}

func TestErrorBodies(t *testing.T) {
	t.Parallel()
	ta := newTestApp(t, nil)
	ta.HTTP().Router().Get("/api/test-panic", func(*fiber.Ctx) error { panic("secret internals: SELECT * FROM users") })

	resp, body := ta.do(t, "GET", "/api/no-such-thing", "", nil)
	assert.Equal(t, 404, resp.StatusCode)
	assert.Equal(t, "not_found", errCode(body))

	resp, body = ta.do(t, "DELETE", "/healthz", "", nil)
	assert.Equal(t, 405, resp.StatusCode)
	assert.Equal(t, "method_not_allowed", errCode(body))

	resp, body = ta.do(t, "GET", "/api/test-panic", "", nil)
	assert.Equal(t, 500, resp.StatusCode)
	assert.Equal(t, map[string]any{"error": map[string]any{"code": "internal", "message": "internal server error"}}, body)
	rid := resp.Header.Get("X-Request-ID")
	require.NotEmpty(t, rid)
	logged := ta.stderr.String()
	assert.Contains(t, logged, rid, "the 500's detail is logged under its request id")
	assert.Contains(t, logged, "secret internals")

}

func TestBodyOverLimitIs413(t *testing.T) {
	t.Parallel()
	ta := newTestApp(t, nil)
	addr, stop := runOnLoopback(t, ta)
	defer func() { _ = stop() }()
	// The server answers from the Content-Length header, before the body
	// arrives, so send only the headers and read the answer.
	conn, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer conn.Close()
	_, err = fmt.Fprintf(conn, "POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n{", 2<<20)
	require.NoError(t, err)
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	require.NoError(t, err)
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	assert.Equal(t, 413, resp.StatusCode)
	assert.JSONEq(t, `{"error": {"code": "payload_too_large", "message": "request entity too large"}}`, string(raw))
}

func TestRequestIDIsEchoedWhenSane(t *testing.T) {
	t.Parallel()
	ta := newTestApp(t, nil)
	req, _ := http.NewRequest("GET", "/healthz", nil)
	req.Header.Set("X-Request-ID", "client-chosen-42")
	resp, err := ta.HTTP().App().Test(req)
	require.NoError(t, err)
	assert.Equal(t, "client-chosen-42", resp.Header.Get("X-Request-ID"))
}

func TestHomePageAndIndexPath(t *testing.T) {
	t.Parallel()
	ta := newTestApp(t, nil)
	req, _ := http.NewRequest("GET", "/", nil)
	resp, err := ta.HTTP().App().Test(req)
	require.NoError(t, err)
	assert.Equal(t, 200, resp.StatusCode)
	assert.Contains(t, resp.Header.Get("Content-Type"), "text/html")
	assert.Contains(t, homePageCode(t, ta), "/api/auth/exchange", "the built-in page completes a Google sign-in from #code=")

	index := filepath.Join(t.TempDir(), "index.html")
	require.NoError(t, os.WriteFile(index, []byte("<h1>my own start page</h1>"), 0o644))
	ta2 := newTestApp(t, map[string]string{"MEDIATEKA_INDEX_PATH": index})
	resp, err = ta2.HTTP().App().Test(httpGet("/"))
	require.NoError(t, err)
	page, _ := io.ReadAll(resp.Body)
	assert.Equal(t, "<h1>my own start page</h1>", string(page))
}

func httpGet(path string) *http.Request {
	req, _ := http.NewRequest("GET", path, nil)
	return req
}

// runOnLoopback starts ta on 127.0.0.1 and returns its base URL and a stop
// function that cancels Run and waits for it.
func runOnLoopback(t testing.TB, ta *testApp) (string, func() error) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	return ln.Addr().String(), runOn(t, ta, ln)
}

// runOn runs ta on ln until the returned stop is called.
func runOn(t testing.TB, ta *testApp, ln net.Listener) func() error {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- ta.Run(ctx, ln) }()
	return func() error {
		cancel()
		select {
		case err := <-done:
			return err
		case <-time.After(20 * time.Second):
			t.Fatal("Run did not return after shutdown")
			return nil
		}
	}
}

func TestGracefulShutdownFinishesInFlightRequest(t *testing.T) {
	t.Parallel()
	ta := newTestApp(t, nil)
	started := make(chan struct{})
	ta.HTTP().Router().Get("/api/test-slow", func(c *fiber.Ctx) error {
		close(started)
		time.Sleep(700 * time.Millisecond)
		return c.SendString("finished")
	})
	addr, stop := runOnLoopback(t, ta)
	result := make(chan string, 1)
	go func() {
		resp, err := http.Get("http://" + addr + "/api/test-slow")
		if err != nil {
			result <- "error: " + err.Error()
			return
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		result <- string(b)
	}()
	<-started
	require.NoError(t, stop())
	assert.Equal(t, "finished", <-result, "the in-flight request completed during shutdown")
	_, err := http.Get("http://" + addr + "/healthz")
	assert.Error(t, err, "nothing listens after shutdown")
	assert.Nil(t, ta.repos.store, "the database was closed")
}

func TestShutdownEndsLongLivedStreams(t *testing.T) {
	t.Parallel()
	ta := newTestApp(t, nil)
	streams := ta.streams
	ta.HTTP().Router().Get("/api/test-stream", func(c *fiber.Ctx) error {
		select {
		case <-streams.Done():
			return c.SendString("stream ended by shutdown")
		case <-time.After(time.Minute):
			return c.SendString("timeout")
		}
	})
	addr, stop := runOnLoopback(t, ta)
	result := make(chan string, 1)
	go func() {
		resp, err := http.Get("http://" + addr + "/api/test-stream")
		if err != nil {
			result <- err.Error()
			return
		}
		b, _ := io.ReadAll(resp.Body)
		result <- string(b)
	}()
	time.Sleep(200 * time.Millisecond)
	begin := time.Now()
	require.NoError(t, stop())
	assert.Less(t, time.Since(begin), 5*time.Second)
	assert.Equal(t, "stream ended by shutdown", <-result)
}

func TestUseSSLServesHTTPSWithSelfSignedCertificate(t *testing.T) {
	t.Parallel()
	ta := newTestApp(t, map[string]string{"USE_SSL": "1"})
	addr, stop := runOnLoopback(t, ta)
	defer func() { _ = stop() }()
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}}
	resp, err := client.Get("https://" + addr + "/healthz")
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, 200, resp.StatusCode)
	assert.NotNil(t, resp.TLS)
	assert.FileExists(t, filepath.Join(ta.cfg.DataDir, "tls", "cert.pem"))
}
