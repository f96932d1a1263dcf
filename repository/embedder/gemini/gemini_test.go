package gemini_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/repository/aimodel/aifake"
	"mediateka/repository/embedder/gemini"
	"mediateka/repository/embedder/remote"
	"mediateka/repository/embedder/remote/remotetest"
)

// key is recognisable so that any leak into an error text is caught.
const key = "AIzaSy-TEST-KEY-0123456789abcdef"

func TestContract(t *testing.T) {
	remotetest.Run(t, remotetest.Provider{
		Key:      key,
		NewFake:  func(t *testing.T) remotetest.Fake { return aifake.NewGemini(t) },
		New:      func(cfg remote.Config) (remotetest.Client, error) { return gemini.New(cfg) },
		MaxBatch: gemini.MaxBatch,
	})
}

func TestWire(t *testing.T) {
	fake := aifake.NewGemini(t)
	c, err := gemini.New(gemini.Config{BaseURL: fake.URL()})
	require.NoError(t, err)
	assert.Equal(t, "gemini-embedding-001", c.Model())
	_, err = c.Embed(context.Background(), key, []string{"Аватар", "Avatar"})
	require.NoError(t, err)
	r := fake.Requests()[0]
	assert.Equal(t, "/v1beta/models/gemini-embedding-001:batchEmbedContents", r.Path)
	assert.Equal(t, key, r.Header.Get("x-goog-api-key"))
	var body struct {
		Requests []map[string]any `json:"requests"`
	}
	require.NoError(t, json.Unmarshal(r.Body, &body))
	require.Len(t, body.Requests, 2)
	assert.Equal(t, "models/gemini-embedding-001", body.Requests[0]["model"])
	assert.NotContains(t, body.Requests[0], "taskType", "documents and queries are embedded alike")
}

// The default batch fills Gemini's limit of 100 requests at most.
func TestDefaultBatchWithinTheLimit(t *testing.T) {
	fake := aifake.NewGemini(t)
	c, err := gemini.New(gemini.Config{BaseURL: fake.URL()})
	require.NoError(t, err)
	got, err := c.Embed(context.Background(), key, remotetest.Texts(130))
	require.NoError(t, err)
	assert.Len(t, got, 130)
	assert.Len(t, fake.Requests(), 3, "130 texts in batches of 64")
}

// genai would read GEMINI_API_KEY from the environment; the client never
// lets it.
func TestNoKeyNoRequest(t *testing.T) {
	fake := aifake.NewGemini(t)
	t.Setenv("GEMINI_API_KEY", key)
	c, err := gemini.New(gemini.Config{BaseURL: fake.URL()})
	require.NoError(t, err)
	_, err = c.Embed(context.Background(), "", []string{"x"})
	assert.ErrorIs(t, err, domain.ErrAIUnavailable)
	assert.Empty(t, fake.Requests())
}
