package loginflood

import (
	"context"
	"net"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	deliveryhttp "mediateka/delivery/http"
	"mediateka/repository/sqlstore"
	"mediateka/repository/sqlstore/sqlstoretest"
	"mediateka/usecase/auth"
)

// peakHasher is argon2 that remembers the most checks it saw running at once.
type peakHasher struct {
	auth.Argon2
	now, peak atomic.Int32
}

func (h *peakHasher) Check(encoded, password string) bool {
	n := h.now.Add(1)
	defer h.now.Add(-1)
	for p := h.peak.Load(); n > p; p = h.peak.Load() {
		h.peak.CompareAndSwap(p, n)
	}
	return h.Argon2.Check(encoded, password)
}

// TestFloodAgainstARealServer runs the tool with small numbers against a
// real listening server: at most 10 wrong logins are judged (401), every
// other one is refused with 429, no more than two argon2 checks ever run at
// once, and /healthz keeps answering.
func TestFloodAgainstARealServer(t *testing.T) {
	db := sqlstoretest.New(t, nil)
	h := &peakHasher{}
	svc, err := auth.New(db.Users, sqlstore.NewActivity(db.Store), auth.Options{
		Secret: []byte("flood-test-secret-of-enough-length"), Hasher: h, MaxConcurrentChecks: 2})
	require.NoError(t, err)
	_, err = svc.CreateUser(context.Background(), auth.NewUser{Email: "admin@localhost", Password: "the-right-password"})
	require.NoError(t, err)
	srv := deliveryhttp.New(deliveryhttp.Deps{Auth: svc}, deliveryhttp.Options{Version: "flood"})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	go func() { _ = srv.App().Listener(ln) }()
	t.Cleanup(func() { _ = srv.App().ShutdownWithTimeout(5 * time.Second) })

	res, err := Run(context.Background(), Config{BaseURL: "http://" + ln.Addr().String(), Requests: 60,
		Email: "admin@localhost", PID: os.Getpid()})
	require.NoError(t, err)
	assert.LessOrEqual(t, res.Statuses[401], 10, "%v", res.Statuses)
	assert.Positive(t, res.Statuses[401])
	assert.Equal(t, 60, res.Statuses[401]+res.Statuses[429], "%v", res.Statuses)
	assert.LessOrEqual(t, int(h.peak.Load()), 2)
	assert.NotEmpty(t, res.Health)
	assert.Positive(t, res.RSSPeakKiB)
}

func TestOnlyLoopbackAndBoundedCounts(t *testing.T) {
	for _, cfg := range []Config{{BaseURL: "http://192.0.2.1:3000", Requests: 1}, {BaseURL: "http://example.org", Requests: 1},
		{BaseURL: "http://127.0.0.1:3000", Requests: MaxRequests + 1}, {BaseURL: "http://127.0.0.1:3000", Requests: 0}} {
		_, err := Run(context.Background(), cfg)
		assert.Error(t, err, "%+v", cfg)
	}
}
