package gemini_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/repository/aimodel"
	"mediateka/repository/aimodel/aifake"
	"mediateka/repository/aimodel/aimodeltest"
	"mediateka/repository/aimodel/gemini"
)

// key is recognisable so that any leak into an error text is caught.
const key = "AIzaSy-TEST-KEY-5f3c9e1d7b"

var _ aimodel.KeyedModel = (*gemini.Client)(nil)

func newClient(t *testing.T, baseURL string, timeout time.Duration) aimodel.KeyedModel {
	t.Helper()
	c, err := gemini.New(gemini.Config{BaseURL: baseURL, Timeout: timeout})
	require.NoError(t, err)
	return c
}

func TestContract(t *testing.T) {
	aimodeltest.Run(t, aimodeltest.Provider{
		Key:          key,
		NewFake:      func(t *testing.T) aimodeltest.Fake { return aifake.NewGemini(t) },
		New:          newClient,
		ModelRole:    "model",
		SchemaFormat: "application/json",
		Faults: []aimodeltest.Fault{{Name: "400 API_KEY_INVALID", Want: domain.ErrKeyRejected,
			Setup: func(f aimodeltest.Fake, k string) { f.(*aifake.Gemini).InvalidKey(k) }}},
	})
}

func TestDefaults(t *testing.T) {
	c, err := gemini.New(gemini.Config{})
	require.NoError(t, err)
	assert.Equal(t, "gemini", c.Provider())
	assert.Equal(t, "gemini-2.5-flash", c.Model())

	_, err = gemini.New(gemini.Config{BaseURL: "::nope"})
	assert.True(t, domain.IsKind(err, domain.KindInvalid))
}

func TestRequestsGoWhereGenaiSendsThem(t *testing.T) {
	fake := aifake.NewGemini(t)
	c := newClient(t, fake.URL(), 0)
	_, err := c.Generate(context.Background(), key, aimodeltest.Prompt())
	require.NoError(t, err)
	req := fake.Last()
	assert.Equal(t, "/v1beta/models/gemini-2.5-flash:generateContent", req.Path)
	assert.Equal(t, key, req.Header.Get("x-goog-api-key"), "genai sends the key in a header")

	require.NoError(t, c.Stream(context.Background(), key, aimodeltest.Prompt(), func(string) error { return nil }))
	assert.Equal(t, "/v1beta/models/gemini-2.5-flash:streamGenerateContent", fake.Last().Path)
}

func TestNoKeyIsUnavailableWithoutACall(t *testing.T) {
	fake := aifake.NewGemini(t)
	t.Setenv("GEMINI_API_KEY", "from-the-environment")
	c := newClient(t, fake.URL(), 0)

	_, err := c.Generate(context.Background(), "", aimodeltest.Prompt())
	require.ErrorIs(t, err, domain.ErrAIUnavailable)
	assert.Empty(t, fake.Requests())
}
