package qbittorrent

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
)

func TestARefusedLoginBacksOffInsteadOfGettingBanned(t *testing.T) {
	var logins atomic.Int32
	var password atomic.Value
	password.Store("right")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/api/v2/auth/login":
			logins.Add(1)
			if r.FormValue("password") != password.Load() {
				_, _ = w.Write([]byte("Fails."))
				return
			}
			http.SetCookie(w, &http.Cookie{Name: "SID", Value: "s"})
			_, _ = w.Write([]byte("Ok."))
		case "/api/v2/torrents/info":
			_, _ = w.Write([]byte("[]"))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	var mu sync.Mutex
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	advance := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
	var logged bytes.Buffer
	var logMu sync.Mutex
	log := slog.New(slog.NewTextHandler(lockedWriter{&logMu, &logged}, nil))
	c, err := New(Config{URL: srv.URL, Username: "admin", Password: "wrong", Logger: log, Now: clock})
	require.NoError(t, err)
	ctx := context.Background()

	for range 20 {
		_, err := c.List(ctx)
		assert.ErrorIs(t, err, domain.ErrTorrentClientUnavailable)
	}
	assert.EqualValues(t, 1, logins.Load(), "a refused login is not tried again at every call")
	advance(9 * time.Second)
	_, _ = c.List(ctx)
	assert.EqualValues(t, 1, logins.Load())
	advance(time.Second)
	_, _ = c.List(ctx)
	assert.EqualValues(t, 2, logins.Load(), "after 10 s once more")
	advance(10 * time.Second)
	_, _ = c.List(ctx)
	assert.EqualValues(t, 2, logins.Load(), "then the wait doubles")
	advance(10 * time.Second)
	_, _ = c.List(ctx)
	assert.EqualValues(t, 3, logins.Load())
	for range 10 {
		advance(time.Hour)
		_, _ = c.List(ctx)
	}
	assert.Equal(t, maxLoginBackoff, c.backoff, "the wait stops growing at 10 min")
	logMu.Lock()
	assert.Equal(t, 1, strings.Count(logged.String(), "bans an address after 5 failed logins"), "the ban risk is logged once")
	logMu.Unlock()

	password.Store("wrong") // qBittorrent's password is changed to the one configured
	advance(time.Hour)
	_, err = c.List(ctx)
	require.NoError(t, err, "a login accepted again ends the back-off")
	assert.Zero(t, c.backoff)
}

// lockedWriter serialises writes to a buffer shared with the test.
type lockedWriter struct {
	mu *sync.Mutex
	w  *bytes.Buffer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
