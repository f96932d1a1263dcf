package apikey_test

import (
	"bytes"
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/repository/aimodel/aifake"
	"mediateka/repository/embedder/openai"
	"mediateka/repository/sqlstore"
	"mediateka/repository/sqlstore/sqlstoretest"
	"mediateka/usecase/apikey"
)

func embedder(t *testing.T, svc *apikey.Service, keyOptional bool) (*apikey.Embedder, *aifake.OpenAI) {
	t.Helper()
	fake := aifake.NewOpenAI(t)
	c, err := openai.New(openai.Config{BaseURL: fake.URL(), Model: "nomic-embed-text", BatchSize: 2})
	require.NoError(t, err)
	return svc.Embedder(c, keyOptional), fake
}

// A key the embeddings server throttles is marked exhausted and the texts
// are embedded with the next key; the logs name the keys, never show them.
func TestEmbedderRotatesOn429(t *testing.T) {
	var logs bytes.Buffer
	repo, err := sqlstore.NewAPIKeys(sqlstoretest.New(t, nil).Store, []byte("test-master-secret-0123456789abcdef"))
	require.NoError(t, err)
	svc := apikey.New(repo, apikey.Options{Cooldown: 24 * time.Hour, Now: newClock(start()).Now,
		Logger: slog.New(slog.NewJSONHandler(&logs, nil))})
	addKeys(t, svc, "openai", "e1", "e2")
	emb, fake := embedder(t, svc, false)
	fake.RateLimit(secretOf("e1"))

	var port domain.Embedder = emb
	assert.Equal(t, "openai", port.Name())
	assert.Equal(t, "nomic-embed-text", port.Model())
	assert.Zero(t, port.Dimensions())
	got, err := port.Embed(context.Background(), []string{"Интерстеллар", "Interstellar", "Аватар"})
	require.NoError(t, err)
	require.Len(t, got, 3)
	assert.Equal(t, aifake.DefaultDimensions, port.Dimensions())

	assert.Equal(t, []string{secretOf("e1"), secretOf("e2"), secretOf("e2")}, keysSent(fake.Requests()),
		"the first batch was throttled and repeated with e2, the second went to e2")
	assert.Equal(t, domain.KeyExhausted, status(t, svc, "e1").Status)
	assert.Equal(t, domain.KeyActive, status(t, svc, "e2").Status)
	assert.Contains(t, logs.String(), `"key_name":"e1"`)
	assert.NotContains(t, logs.String(), secretOf("e1"))
	assert.NotContains(t, logs.String(), secretOf("e2"))
}

func TestEmbedderAllKeysUsedUp(t *testing.T) {
	svc := newService(t, newClock(start()))
	addKeys(t, svc, "openai", "e1")
	emb, fake := embedder(t, svc, true)
	fake.RateLimit(secretOf("e1"))
	for range 2 {
		_, err := emb.Embed(context.Background(), []string{"x"})
		require.ErrorIs(t, err, domain.ErrAIUnavailable)
		assert.Contains(t, err.Error(), "exhausted")
		assert.NotContains(t, err.Error(), secretOf("e1"))
	}
	assert.Len(t, fake.Requests(), 1, "an exhausted key is not tried again, and no keyless call is made")
}

// A local server with no key in the store is asked without one.
func TestEmbedderKeyless(t *testing.T) {
	svc := newService(t, newClock(start()))
	emb, fake := embedder(t, svc, true)
	_, err := emb.Embed(context.Background(), []string{"x"})
	require.NoError(t, err)
	assert.Equal(t, []string{""}, keysSent(fake.Requests()))

	strict, _ := embedder(t, svc, false)
	_, err = strict.Embed(context.Background(), []string{"x"})
	assert.ErrorIs(t, err, domain.ErrAIUnavailable)
}
