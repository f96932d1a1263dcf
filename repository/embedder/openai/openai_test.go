package openai_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/repository/aimodel/aifake"
	"mediateka/repository/embedder/openai"
	"mediateka/repository/embedder/remote"
	"mediateka/repository/embedder/remote/remotetest"
)

// key is recognisable so that any leak into an error text is caught.
const key = "sk-proj-TEST-KEY-8a1f2e3d4c5b"

func TestContract(t *testing.T) {
	remotetest.Run(t, remotetest.Provider{
		Key:      key,
		NewFake:  func(t *testing.T) remotetest.Fake { return aifake.NewOpenAI(t) },
		New:      func(cfg remote.Config) (remotetest.Client, error) { return openai.New(cfg) },
		MaxBatch: openai.MaxBatch,
	})
}

func TestWire(t *testing.T) {
	fake := aifake.NewOpenAI(t)
	c, err := openai.New(openai.Config{BaseURL: fake.URL(), Model: "nomic-embed-text"})
	require.NoError(t, err)
	_, err = c.Embed(context.Background(), key, []string{"Интерстеллар"})
	require.NoError(t, err)
	r := fake.Requests()[0]
	assert.Equal(t, "/v1/embeddings", r.Path)
	assert.Equal(t, "Bearer "+key, r.Header.Get("Authorization"))
	assert.Equal(t, "application/json", r.Header.Get("Content-Type"))
	assert.JSONEq(t, `{"model":"nomic-embed-text","input":["Интерстеллар"]}`, string(r.Body),
		"no dimensions or encoding_format unless asked: older local servers refuse unknown values")
}

// The protocol places each vector by its index; a server may list them in
// any order.
func TestDataOutOfOrder(t *testing.T) {
	fake := aifake.NewOpenAI(t)
	fake.ReverseEmbeddings(true)
	c, err := openai.New(openai.Config{BaseURL: fake.URL(), BatchSize: 3})
	require.NoError(t, err)
	texts := remotetest.Texts(7)
	got, err := c.Embed(context.Background(), key, texts)
	require.NoError(t, err)
	require.Len(t, fake.Requests(), 3)
	for i, v := range got {
		assert.InDeltaSlice(t, remotetest.Unit(texts[i], aifake.DefaultDimensions), v, 1e-6, "vector %d", i)
	}
}

func TestQuotaAnswerIsARateLimit(t *testing.T) {
	fake := aifake.NewOpenAI(t)
	fake.ExhaustQuota(key)
	c, err := openai.New(openai.Config{BaseURL: fake.URL()})
	require.NoError(t, err)
	_, err = c.Embed(context.Background(), key, []string{"x"})
	assert.ErrorIs(t, err, domain.ErrRateLimited)
}

// A local server (a configured base URL) needs no key and gets no
// Authorization header; OpenAI itself is never called without one.
func TestKeyless(t *testing.T) {
	fake := aifake.NewOpenAI(t)
	c, err := openai.New(openai.Config{BaseURL: fake.URL()})
	require.NoError(t, err)
	_, err = c.Embed(context.Background(), "", []string{"x"})
	require.NoError(t, err)
	assert.Empty(t, fake.Requests()[0].Header.Get("Authorization"))

	official, err := openai.New(openai.Config{})
	require.NoError(t, err)
	assert.Equal(t, "text-embedding-3-small", official.Model())
	_, err = official.Embed(context.Background(), "", []string{"x"})
	assert.ErrorIs(t, err, domain.ErrAIUnavailable)
}
