package app

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rawConn is a client that writes bytes to the server and reads HTTP
// answers from the same connection, so nothing between the test and the
// server tidies up what goes over the wire.
type rawConn struct {
	t  *testing.T
	c  net.Conn
	br *bufio.Reader
}

func dialRaw(t *testing.T, addr string) *rawConn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	require.NoError(t, c.SetDeadline(time.Now().Add(20*time.Second)))
	return &rawConn{t: t, c: c, br: bufio.NewReader(c)}
}

// send writes req without waiting: the server may answer and close before
// it has read everything (a request too large to read).
func (r *rawConn) send(req string) {
	go func() { _, _ = io.WriteString(r.c, req) }()
}

// answer reads one response to a request of the given method.
func (r *rawConn) answer(method string) (*http.Response, []byte) {
	r.t.Helper()
	resp, err := http.ReadResponse(r.br, &http.Request{Method: method})
	require.NoError(r.t, err)
	body, err := io.ReadAll(resp.Body)
	require.NoError(r.t, err)
	return resp, body
}

// assertAPIError checks the API.md §0 error body.
func assertAPIError(t *testing.T, resp *http.Response, body []byte, status int, code string) {
	t.Helper()
	assert.Equal(t, status, resp.StatusCode, "%s", body)
	assert.Contains(t, resp.Header.Get("Content-Type"), "application/json")
	assert.NotEmpty(t, resp.Header.Get("X-Request-ID"))
	var out struct {
		Error struct{ Code, Message string } `json:"error"`
	}
	require.NoError(t, json.Unmarshal(body, &out), "%s", body)
	assert.Equal(t, code, out.Error.Code, "%s", body)
	assert.NotEmpty(t, out.Error.Message)
}

func TestOversizedRequestsGetJSONErrorsWithoutEcho(t *testing.T) {
	ta := newTestApp(t, nil)
	addr, stop := runOnLoopback(t, ta)
	defer func() { _ = stop() }()
	const secret = "Bearer secret-token-that-must-not-come-back"
	cases := []struct {
		name, req, code string
		status          int
	}{
		{"100 KB header", "GET /healthz HTTP/1.1\r\nHost: x\r\nAuthorization: " + secret + "\r\nX-Big: " +
			strings.Repeat("a", 100<<10) + "\r\n\r\n", "headers_too_large", 431},
		{"100 KB URL", "GET /healthz?q=" + strings.Repeat("a", 100<<10) + " HTTP/1.1\r\nHost: x\r\nAuthorization: " +
			secret + "\r\n\r\n", "uri_too_long", 414},
		{"not HTTP", "GET /healthz HTTP/1.1\r\nHost: x\r\nAuthorization: " + secret + "\r\nContent-Length: nine\r\n\r\n",
			"invalid_input", 400},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rc := dialRaw(t, addr)
			rc.send(tc.req)
			resp, body := rc.answer("GET")
			assertAPIError(t, resp, body, tc.status, tc.code)
			assert.Equal(t, "nosniff", resp.Header.Get("X-Content-Type-Options"))
			assert.NotContains(t, string(body), "secret-token")
			assert.NotContains(t, string(body), "aaaa")
		})
	}
	logs := ta.stderr.String()
	assert.NotContains(t, logs, "secret-token", "the raw request never reaches the log")
	assert.NotContains(t, logs, `"level":"ERROR"`)
}

func TestLongRangeHeaderIs400(t *testing.T) {
	la := newLibApp(t, nil)
	la.put(t, map[string]string{"Heat (1995)/Heat.1995.mkv": "0123456789"})
	la.scan(t)
	id := la.idOf(t, "Heat (1995)/Heat.1995.mkv")
	addr, stop := runOnLoopback(t, la.testApp)
	defer func() { _ = stop() }()
	rc := dialRaw(t, addr)
	spans := strings.TrimSuffix(strings.Repeat("0-1,", 7<<10/4), ",")
	rc.send(fmt.Sprintf("GET /api/media/%d/stream HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\nRange: bytes=%s\r\n\r\n", id, la.user, spans))
	resp, body := rc.answer("GET")
	assertAPIError(t, resp, body, 400, "invalid_input")
	assert.NotContains(t, la.stderr.String(), `"level":"ERROR"`)

	rc.send(fmt.Sprintf("GET /api/media/%d/stream HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\nRange: bytes=2-4\r\n\r\n", id, la.user))
	resp, body = rc.answer("GET")
	assert.Equal(t, 206, resp.StatusCode)
	assert.Equal(t, "234", string(body), "the connection still serves after the 400")
}

func TestHeadOnStreamedRoutesLeavesTheConnectionClean(t *testing.T) {
	la := newLibApp(t, nil)
	la.put(t, map[string]string{"Heat (1995)/Heat.1995.mkv": "v"})
	la.scan(t)
	addr, stop := runOnLoopback(t, la.testApp)
	defer func() { _ = stop() }()
	for _, path := range []string{"/api/media/files", "/api/events"} {
		t.Run(path, func(t *testing.T) {
			rc := dialRaw(t, addr)
			rc.send("HEAD " + path + " HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + la.admin + "\r\n\r\n")
			resp, body := rc.answer("HEAD")
			assert.Equal(t, 200, resp.StatusCode)
			assert.Empty(t, body)
			rc.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
			resp, body = rc.answer("GET")
			assert.Equal(t, 200, resp.StatusCode, "the answer after HEAD starts clean")
			assert.Contains(t, string(body), `"status":"ok"`)
		})
	}
}
