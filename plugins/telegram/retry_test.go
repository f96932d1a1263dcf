package telegram

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// cutAfterReading is a Bot API that reads each request whole and then
// drops the connection without answering: the request reached it, and
// the client cannot tell whether it was carried out.
func cutAfterReading(t *testing.T, calls *atomic.Int32) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseMultipartForm(1 << 20)
		calls.Add(1)
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			_ = conn.Close()
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// post sends one call through a retryClient whose waits are counted, not
// spent, and returns how many waits it asked for.
func post(t *testing.T, base, method string) int {
	t.Helper()
	return postWith(t, &http.Client{}, base, method)
}

// postWith is post through client (say, one with a timeout).
func postWith(t *testing.T, client *http.Client, base, method string) int {
	t.Helper()
	var waits atomic.Int32
	c := &retryClient{client: client, log: slog.New(slog.DiscardHandler),
		sleep: func(context.Context, time.Duration) error { waits.Add(1); return nil }}
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, base+"/botTOKEN/"+method,
		strings.NewReader("chat_id=1&text=hi"))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := c.Do(req)
	if err == nil {
		_ = resp.Body.Close()
	}
	require.Error(t, err, "the attempts fail")
	return int(waits.Load())
}

func TestASentAnswerIsNotRetriedAfterTheConnectionDrops(t *testing.T) {
	var calls atomic.Int32
	url := cutAfterReading(t, &calls)
	assert.Equal(t, 0, post(t, url, "sendMessage"), "written, then no answer: Telegram may have sent it")
	assert.Equal(t, int32(1), calls.Load(), "sendMessage reached the server once")
	calls.Store(0)
	assert.Equal(t, maxAttempts-1, post(t, url, "getUpdates"), "reading again is harmless")
	assert.Equal(t, int32(maxAttempts), calls.Load())
}

func TestAnAnswerIsRetriedWhenTheConnectionIsRefused(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	url := "http://" + l.Addr().String()
	require.NoError(t, l.Close()) // nothing listens: every dial is refused
	assert.Equal(t, maxAttempts-1, post(t, url, "sendMessage"), "never written: certainly not sent, so tried again")
}

func TestWhichMethodsAreSafeToRepeat(t *testing.T) {
	for _, m := range []string{"getUpdates", "getMe", "setMyCommands", "setWebhook", "setChatMenuButton", "deleteWebhook",
		"sendChatAction", "answerCallbackQuery"} {
		assert.True(t, safeToRepeat(m), m)
	}
	for _, m := range []string{"sendMessage", "sendVoice", "editMessageText", "forwardMessage"} {
		assert.False(t, safeToRepeat(m), m)
	}
}

// A Bot API that takes the request and answers too late: the client's
// timeout ends the call. Reading again is harmless and retried; an answer
// may have been sent, so it is not.
func TestATimeoutIsRetriedOnlyForReads(t *testing.T) {
	tooLate := func(calls *atomic.Int32) string {
		done := make(chan struct{})
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			calls.Add(1)
			select {
			case <-r.Context().Done():
			case <-done:
			}
		}))
		t.Cleanup(srv.Close)
		t.Cleanup(func() { close(done) }) // runs first: no handler holds Close up
		return srv.URL
	}
	client := &http.Client{Timeout: 300 * time.Millisecond}
	var reads, answers atomic.Int32
	assert.Equal(t, maxAttempts-1, postWith(t, client, tooLate(&reads), "getUpdates"), "a timed-out read is tried again")
	require.Eventually(t, func() bool { return reads.Load() == maxAttempts }, 5*time.Second, 10*time.Millisecond, "every attempt reached the server")
	assert.Equal(t, 0, postWith(t, client, tooLate(&answers), "sendMessage"), "a timed-out answer may have been sent")
	require.Eventually(t, func() bool { return answers.Load() == 1 }, 5*time.Second, 10*time.Millisecond)
	assert.Equal(t, int32(1), answers.Load(), "sent once")
}
