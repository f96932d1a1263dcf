package measure

import (
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestLoopbackOnly(t *testing.T) {
	for _, ok := range []string{"http://127.0.0.1:3000", "http://[::1]:3000"} {
		assert.NoError(t, Loopback(ok), ok)
	}
	for _, bad := range []string{"http://192.0.2.1:3000", "http://example.org", "https://127.0.0.1:3000", "127.0.0.1:3000", "http://localhost:3000"} {
		assert.Error(t, Loopback(bad), bad)
	}
}

func TestPercentile(t *testing.T) {
	var d []time.Duration
	for i := 100; i >= 1; i-- {
		d = append(d, time.Duration(i)*time.Millisecond)
	}
	assert.Equal(t, 51*time.Millisecond, Percentile(d, 50))
	assert.Equal(t, 100*time.Millisecond, Percentile(d, 99))
	assert.Equal(t, 100*time.Millisecond, Percentile(d, 100))
	assert.Equal(t, time.Duration(0), Percentile(nil, 50))
	assert.Equal(t, 100*time.Millisecond, d[0], "the input is left as it was")
}

func TestRSSOfThisProcess(t *testing.T) {
	assert.Positive(t, RSSKiB(os.Getpid()))
	assert.Zero(t, RSSKiB(0))
}
