package roomload

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/app"
	"mediateka/config"
)

// startApp runs a whole mediateka on 127.0.0.1 until the test ends.
func startApp(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	env := map[string]string{"MEDIATEKA_DATA_DIR": filepath.Join(dir, "data"), "MEDIATEKA_LOG__LEVEL": "warn"}
	cfg, _, err := config.Load(filepath.Join(dir, "config.json"), func(k string) (string, bool) { v, ok := env[k]; return v, ok })
	require.NoError(t, err)
	a, err := app.New(context.Background(), cfg, app.Options{Version: "roomload-test", Stderr: os.Stderr})
	require.NoError(t, err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		require.NoError(t, <-done)
	})
	return "http://" + ln.Addr().String()
}

// TestShortRunAgainstARealServer runs the tool with small numbers, the
// stalled remote included: every command arrives and is timed.
func TestShortRunAgainstARealServer(t *testing.T) {
	base := startApp(t)
	res, err := Run(context.Background(), Config{BaseURL: base, Rooms: 4, Rate: 40, Duration: 500 * time.Millisecond,
		Stall: true, PID: os.Getpid(), Drain: 3 * time.Second})
	require.NoError(t, err)
	assert.InDelta(t, 20, res.Sent, 4, "40 a second for half a second")
	assert.Equal(t, res.Sent, res.Delivered)
	assert.Len(t, res.Latency, int(res.Delivered))
	assert.Less(t, len(res.Others), len(res.Latency), "the first room is left out of Others")
	assert.NotEmpty(t, res.Others)
	assert.Empty(t, res.Errors)
	assert.Zero(t, res.Dropped)
	assert.Positive(t, res.RSSPeakKiB)
}

func TestOnlyLoopbackAndBoundedRuns(t *testing.T) {
	ok := Config{BaseURL: "http://127.0.0.1:3000", Rooms: 10, Rate: 100, Duration: time.Second}
	assert.NoError(t, check(ok))
	for _, edit := range []func(*Config){
		func(c *Config) { c.BaseURL = "http://192.0.2.1:3000" },
		func(c *Config) { c.Rooms = 0 },
		func(c *Config) { c.Rooms = MaxRooms + 1 },
		func(c *Config) { c.Rate = 0 },
		func(c *Config) { c.Rate = 201 }, // over 20 a second per room
		func(c *Config) { c.Duration = 0 },
		func(c *Config) { c.Duration = MaxDuration + time.Second },
	} {
		c := ok
		edit(&c)
		assert.Error(t, check(c), "%+v", c)
	}
}
