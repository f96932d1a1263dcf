package telegram

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptrace"
	"strings"
	"sync/atomic"
	"time"
)

// Backoff bounds of the Bot API retries: a 5xx or a network failure waits
// minBackoff, doubling up to maxBackoff; a 429 waits what Telegram says in
// parameters.retry_after (at most maxRetryAfter, so a bogus answer cannot
// park the bot for hours).
const (
	minBackoff    = 500 * time.Millisecond
	maxBackoff    = 30 * time.Second
	maxRetryAfter = 10 * time.Minute
	// maxAttempts bounds one call; getUpdates is simply asked again by the
	// poll loop afterwards, so polling resumes whatever happened.
	maxAttempts = 6
)

// sleepFunc waits d or until ctx ends (tests record the waits instead).
type sleepFunc func(ctx context.Context, d time.Duration) error

// sleepCtx is the real sleepFunc.
func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// retryClient is the HTTP client the bot library sends every Bot API call
// through. The library gives up on the first 5xx or 429 (and its poll loop
// ignores retry_after), so the retries live here, below it. A call that
// shows something to a person (safeToRepeat false) is repeated only when
// the failed attempt certainly did not reach Telegram (notTaken), so an
// answer is never sent twice; the others are repeated on every network
// failure, timeout, 5xx and 429. The body is
// buffered (Bot API requests are small; a voice upload is at most a few
// hundred KiB) and sent again after the wait. Nothing here logs a URL,
// which holds the token.
type retryClient struct {
	client *http.Client
	sleep  sleepFunc
	log    *slog.Logger
}

// Do implements the library's HttpClient.
func (c *retryClient) Do(req *http.Request) (*http.Response, error) {
	body, err := readBody(req)
	if err != nil {
		return nil, err
	}
	method := req.URL.Path[strings.LastIndexByte(req.URL.Path, '/')+1:]
	repeatable := safeToRepeat(method)
	backoff := minBackoff
	for attempt := 1; ; attempt++ {
		var written atomic.Bool
		trace := &httptrace.ClientTrace{WroteRequest: func(i httptrace.WroteRequestInfo) {
			if i.Err == nil {
				written.Store(true)
			}
		}}
		r := req.Clone(httptrace.WithClientTrace(req.Context(), trace))
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.ContentLength = int64(len(body))
		resp, err := c.client.Do(r)
		wait, retry := retryWait(resp, err, backoff)
		if retry && !repeatable && !notTaken(resp, err, written.Load()) {
			retry = false
		}
		if !retry || attempt == maxAttempts || req.Context().Err() != nil {
			return resp, err
		}
		closeBody(resp)
		c.log.Warn("telegram: Bot API call failed, retrying", "method", method, "attempt", attempt,
			"wait", wait.String(), "reason", reason(resp, err))
		if err := c.sleep(req.Context(), wait); err != nil {
			return nil, err
		}
		backoff = min(backoff*2, maxBackoff)
	}
}

// safeToRepeat tells whether doing method twice is harmless, so that it
// may be retried even when Telegram may already have carried it out (a
// timeout after the request was sent, a 5xx): reading (get*, getUpdates
// among them), setting or deleting a state (set*, delete*), the typing
// indicator and acknowledging a button press (a second answer is refused
// by Telegram, nobody sees it twice). Everything else (sendMessage,
// sendVoice, editMessageText, …) shows something to a person and is
// retried only when notTaken.
func safeToRepeat(method string) bool {
	switch method {
	case "sendChatAction", "answerCallbackQuery":
		return true
	}
	for _, prefix := range []string{"get", "set", "delete"} {
		if strings.HasPrefix(method, prefix) {
			return true
		}
	}
	return false
}

// notTaken tells whether an attempt certainly did not reach Telegram, or
// reached it and was refused undone: the request was never completely
// written (no connection: refused, DNS, a dial timeout; or the write
// failed), or Telegram answered 429 (flood control refuses the call
// before doing it). A 5xx does not qualify: a proxy in front of the Bot
// API (Telegram's own, or the one before a self-hosted server) answers
// 502/504 when the backend is slow, which may still deliver the message.
// Neither does any failure after the request was written (a timeout, a
// reset connection): Telegram may have sent it.
func notTaken(resp *http.Response, err error, written bool) bool {
	if err != nil {
		return !written
	}
	return resp.StatusCode == http.StatusTooManyRequests
}

// readBody buffers and closes the request body.
func readBody(req *http.Request) ([]byte, error) {
	if req.Body == nil {
		return nil, nil
	}
	defer func() { _ = req.Body.Close() }()
	return io.ReadAll(req.Body)
}

// retryWait decides whether an answer is worth another try and after how
// long: network failures and timeouts, 5xx and 429 are; everything else
// (4xx: a bad request stays bad) is returned to the library as it is. For
// a 429 the response body is read for retry_after and replaced, so the
// library still sees it when the attempts run out.
func retryWait(resp *http.Response, err error, backoff time.Duration) (time.Duration, bool) {
	switch {
	case err != nil:
		return backoff, !errors.Is(err, context.Canceled)
	case resp.StatusCode == http.StatusTooManyRequests:
		if ra := retryAfter(resp); ra > 0 {
			return min(ra, maxRetryAfter), true
		}
		return backoff, true
	case resp.StatusCode >= 500:
		return backoff, true
	}
	return 0, false
}

// retryAfter reads parameters.retry_after of a 429 answer.
func retryAfter(resp *http.Response) time.Duration {
	data, err := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	_ = resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(data))
	if err != nil {
		return 0
	}
	var body struct {
		Parameters struct {
			RetryAfter int `json:"retry_after"`
		} `json:"parameters"`
	}
	if json.Unmarshal(data, &body) != nil {
		return 0
	}
	return time.Duration(body.Parameters.RetryAfter) * time.Second
}

func closeBody(resp *http.Response) {
	if resp != nil {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		_ = resp.Body.Close()
	}
}

// reason says why an attempt failed, without the URL (it holds the token).
func reason(resp *http.Response, err error) string {
	if err != nil {
		var ue interface{ Unwrap() error }
		if errors.As(err, &ue) && ue.Unwrap() != nil {
			return ue.Unwrap().Error()
		}
		return "request failed"
	}
	return resp.Status
}
