// Package remotetest is the contract every remote embedding client (openai,
// gemini) must keep, written once and run against each client talking to
// its fake server (repository/aimodel/aifake): texts and model on the wire,
// batching in order, unit vectors, the vector length learnt and then
// enforced, typed rate-limit, key and outage errors that never show the key,
// and the timeout of one request.
package remotetest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/repository/aimodel/aifake"
	"mediateka/repository/embedder/remote"
)

// Fake is what the suite drives of a provider's fake server; aifake.OpenAI
// and aifake.Gemini both are one.
type Fake interface {
	URL() string
	Close()
	RateLimit(key string)
	Reject(key string)
	FailAll(status int)
	SetDimensions(n int)
	SetEmbedDelay(d time.Duration)
	Requests() []aifake.Request
}

// Client is the keyed embedder under test (usecase/apikey.EmbedProvider).
type Client interface {
	Provider() string
	Model() string
	Dimensions() int
	Embed(ctx context.Context, apiKey string, texts []string) ([][]float32, error)
}

// Provider describes the client under test.
type Provider struct {
	// Key is a key in the provider's format, recognisable in any leak.
	Key string
	// NewFake starts the provider's fake server for one test.
	NewFake func(t *testing.T) Fake
	// New builds a client for cfg (BaseURL set by the suite).
	New func(cfg remote.Config) (Client, error)
	// MaxBatch is the most texts the provider takes in one request.
	MaxBatch int
}

// Run runs the whole contract against p.
func Run(t *testing.T, p Provider) {
	for _, c := range []struct {
		name string
		run  func(*testing.T, Provider)
	}{
		{"RequestShapeAndUnitVectors", testRequestShape},
		{"BatchesKeepOrder", testBatches},
		{"DimensionLearntThenEnforced", testDimensionEnforced},
		{"ConfiguredDimensionsAreAsked", testConfiguredDimensions},
		{"TypedErrorsWithoutTheKey", testErrors},
		{"EchoedKeyIsScrubbed", testEchoedKey},
		{"TimeoutPerRequest", testTimeout},
		{"EmptyInput", testEmptyInput},
		{"BadConfig", testBadConfig},
	} {
		t.Run(c.name, func(t *testing.T) { c.run(t, p) })
	}
}

// Texts returns n distinct texts, Russian and English mixed.
func Texts(n int) []string {
	out := make([]string, n)
	for i := range out {
		if i%2 == 0 {
			out[i] = fmt.Sprintf("Фильм номер %d про войну", i)
		} else {
			out[i] = fmt.Sprintf("Film number %d, something funny for kids", i)
		}
	}
	return out
}

// Unit returns aifake's vector of text normalised, what a client must
// return for it.
func Unit(text string, dims int) []float32 {
	v := aifake.Vector(text, dims)
	var sum float64
	for _, x := range v {
		sum += float64(x) * float64(x)
	}
	for i := range v {
		v[i] = float32(float64(v[i]) / math.Sqrt(sum))
	}
	return v
}

func (p Provider) client(t *testing.T, f Fake, cfg remote.Config) Client {
	t.Helper()
	cfg.BaseURL = f.URL()
	c, err := p.New(cfg)
	require.NoError(t, err)
	return c
}

func testRequestShape(t *testing.T, p Provider) {
	fake := p.NewFake(t)
	c := p.client(t, fake, remote.Config{Model: "embed-test"})
	texts := Texts(3)
	got, err := c.Embed(context.Background(), p.Key, texts)
	require.NoError(t, err)
	reqs := fake.Requests()
	require.Len(t, reqs, 1)
	assert.Equal(t, "embed-test", reqs[0].Model)
	assert.Equal(t, texts, reqs[0].Input)
	assert.Equal(t, p.Key, reqs[0].Key)
	assert.Equal(t, "embed-test", c.Model())
	require.Len(t, got, 3)
	for i, v := range got {
		assert.InDeltaSlice(t, Unit(texts[i], aifake.DefaultDimensions), v, 1e-6, "vector %d", i)
		assert.InDelta(t, 1.0, norm(v), 1e-5, "unit length")
	}
}

func testBatches(t *testing.T, p Provider) {
	fake := p.NewFake(t)
	c := p.client(t, fake, remote.Config{BatchSize: 4})
	texts := Texts(10)
	got, err := c.Embed(context.Background(), p.Key, texts)
	require.NoError(t, err)
	reqs := fake.Requests()
	require.Len(t, reqs, 3, "10 texts in batches of 4")
	assert.Equal(t, texts[0:4], reqs[0].Input)
	assert.Equal(t, texts[4:8], reqs[1].Input)
	assert.Equal(t, texts[8:10], reqs[2].Input)
	require.Len(t, got, 10)
	for i, v := range got {
		assert.InDeltaSlice(t, Unit(texts[i], aifake.DefaultDimensions), v, 1e-6, "vector %d in order", i)
	}
}

func testDimensionEnforced(t *testing.T, p Provider) {
	fake := p.NewFake(t)
	c := p.client(t, fake, remote.Config{BatchSize: 2})
	assert.Zero(t, c.Dimensions(), "unknown before the first answer")
	_, err := c.Embed(context.Background(), p.Key, Texts(1))
	require.NoError(t, err)
	assert.Equal(t, aifake.DefaultDimensions, c.Dimensions())

	fake.SetDimensions(12)
	got, err := c.Embed(context.Background(), p.Key, Texts(3))
	require.Error(t, err)
	assert.Nil(t, got, "nothing of a refused answer comes back")
	assert.True(t, domain.IsKind(err, domain.KindUnavailable))
	var de *domain.Error
	require.True(t, errors.As(err, &de))
	assert.Equal(t, remote.MismatchCode, de.Code)
	assert.Contains(t, err.Error(), "12 dimensions")
	assert.Equal(t, aifake.DefaultDimensions, c.Dimensions(), "the learnt length stays")
}

func testConfiguredDimensions(t *testing.T, p Provider) {
	fake := p.NewFake(t)
	c := p.client(t, fake, remote.Config{Dimensions: 5})
	assert.Equal(t, 5, c.Dimensions(), "known before any call")
	got, err := c.Embed(context.Background(), p.Key, Texts(2))
	require.NoError(t, err)
	assert.Equal(t, 5, fake.Requests()[0].Dimensions)
	assert.Len(t, got[0], 5)
}

func testErrors(t *testing.T, p Provider) {
	for _, tt := range []struct {
		name  string
		setup func(f Fake, key string)
		want  *domain.Error
	}{
		{"429 rate limit", func(f Fake, key string) { f.RateLimit(key) }, domain.ErrRateLimited},
		{"401 key refused", func(f Fake, key string) { f.Reject(key) }, domain.ErrKeyRejected},
		{"500", func(f Fake, _ string) { f.FailAll(http.StatusInternalServerError) }, domain.ErrAIUnavailable},
		{"503", func(f Fake, _ string) { f.FailAll(http.StatusServiceUnavailable) }, domain.ErrAIUnavailable},
		{"server down", func(f Fake, _ string) { f.Close() }, domain.ErrAIUnavailable},
	} {
		t.Run(tt.name, func(t *testing.T) {
			fake := p.NewFake(t)
			c := p.client(t, fake, remote.Config{})
			tt.setup(fake, p.Key)
			got, err := c.Embed(context.Background(), p.Key, Texts(2))
			require.ErrorIs(t, err, tt.want)
			assert.Nil(t, got)
			assert.True(t, domain.IsKind(err, domain.KindUnavailable))
			assert.NotContains(t, err.Error(), p.Key)
		})
	}
}

func testEchoedKey(t *testing.T, p Provider) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "upstream proxy failed for "+r.Header.Get("x-goog-api-key")+r.Header.Get("Authorization"), http.StatusBadGateway)
	}))
	defer srv.Close()
	c, err := p.New(remote.Config{BaseURL: srv.URL})
	require.NoError(t, err)
	_, err = c.Embed(context.Background(), p.Key, Texts(1))
	require.ErrorIs(t, err, domain.ErrAIUnavailable)
	assert.NotContains(t, err.Error(), p.Key)
	assert.Contains(t, err.Error(), "[redacted]")
}

func testTimeout(t *testing.T, p Provider) {
	fake := p.NewFake(t)
	fake.SetEmbedDelay(30 * time.Second)
	c := p.client(t, fake, remote.Config{Timeout: 100 * time.Millisecond})
	start := time.Now()
	_, err := c.Embed(context.Background(), p.Key, Texts(1))
	assert.Less(t, time.Since(start), 5*time.Second, "the 30-second wait was not sat out")
	require.ErrorIs(t, err, domain.ErrAIUnavailable)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
}

func testEmptyInput(t *testing.T, p Provider) {
	fake := p.NewFake(t)
	c := p.client(t, fake, remote.Config{})
	got, err := c.Embed(context.Background(), p.Key, nil)
	require.NoError(t, err)
	assert.Empty(t, got)
	_, err = c.Embed(context.Background(), p.Key, []string{"a film", ""})
	assert.True(t, domain.IsKind(err, domain.KindInvalid), "an empty text is bad input: %v", err)
	assert.Empty(t, fake.Requests(), "nothing is sent")
}

func testBadConfig(t *testing.T, p Provider) {
	for _, cfg := range []remote.Config{
		{BaseURL: "ftp://example.org"}, {BatchSize: -1}, {BatchSize: p.MaxBatch + 1}, {Dimensions: -3},
	} {
		_, err := p.New(cfg)
		assert.True(t, domain.IsKind(err, domain.KindInvalid), "%+v: %v", cfg, err)
	}
}

func norm(v []float32) float64 {
	var sum float64
	for _, x := range v {
		sum += float64(x) * float64(x)
	}
	return math.Sqrt(sum)
}
