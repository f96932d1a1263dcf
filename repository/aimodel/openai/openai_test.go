package openai_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/repository/aimodel"
	"mediateka/repository/aimodel/aifake"
	"mediateka/repository/aimodel/aimodeltest"
	"mediateka/repository/aimodel/openai"
)

// key is recognisable so that any leak into an error text is caught.
const key = "sk-proj-TEST-KEY-8a1f2e3d4c5b"

var _ aimodel.KeyedModel = (*openai.Client)(nil)

func newClient(t *testing.T, baseURL string, timeout time.Duration) aimodel.KeyedModel {
	t.Helper()
	c, err := openai.New(openai.Config{BaseURL: baseURL, Timeout: timeout})
	require.NoError(t, err)
	return c
}

func TestContract(t *testing.T) {
	aimodeltest.Run(t, aimodeltest.Provider{
		Key:          key,
		NewFake:      func(t *testing.T) aimodeltest.Fake { return aifake.NewOpenAI(t) },
		New:          newClient,
		ModelRole:    "assistant",
		SchemaFormat: "json_schema",
		Faults: []aimodeltest.Fault{{Name: "429 insufficient_quota", Want: domain.ErrRateLimited,
			Setup: func(f aimodeltest.Fake, k string) { f.(*aifake.OpenAI).ExhaustQuota(k) }}},
	})
}

func TestDefaults(t *testing.T) {
	c, err := openai.New(openai.Config{})
	require.NoError(t, err)
	assert.Equal(t, "openai", c.Provider())
	assert.Equal(t, "gpt-4o-mini", c.Model())

	_, err = openai.New(openai.Config{BaseURL: "localhost:11434"})
	assert.True(t, domain.IsKind(err, domain.KindInvalid))
}

func TestRequestShape(t *testing.T) {
	fake := aifake.NewOpenAI(t)
	c, err := openai.New(openai.Config{BaseURL: fake.URL(), Model: "llama3.2"})
	require.NoError(t, err)

	_, err = c.Generate(context.Background(), key, aimodeltest.Prompt())
	require.NoError(t, err)
	req := fake.Last()
	assert.Equal(t, "/v1/chat/completions", req.Path)
	assert.Equal(t, "llama3.2", req.Model)
	assert.Equal(t, "Bearer "+key, req.Header.Get("Authorization"))
	var body struct {
		Messages []struct{ Role string } `json:"messages"`
	}
	require.NoError(t, json.Unmarshal(req.Body, &body))
	require.Len(t, body.Messages, 6)
	assert.Equal(t, "system", body.Messages[0].Role, "the system message comes first")
}

func TestSchemaIsStrict(t *testing.T) {
	fake := aifake.NewOpenAI(t)
	fake.SetReply(`{"category":"movie"}`)
	schema := json.RawMessage(`{"type":"object","properties":{"category":{"type":"string"}},"required":["category"],"additionalProperties":false}`)
	_, err := newClient(t, fake.URL(), 0).Generate(context.Background(), key, domain.Prompt{Message: "Matrix 1999", Schema: schema})
	require.NoError(t, err)
	var body struct {
		ResponseFormat struct {
			JSONSchema struct {
				Name   string `json:"name"`
				Strict bool   `json:"strict"`
			} `json:"json_schema"`
		} `json:"response_format"`
	}
	require.NoError(t, json.Unmarshal(fake.Last().Body, &body))
	assert.True(t, body.ResponseFormat.JSONSchema.Strict)
	assert.NotEmpty(t, body.ResponseFormat.JSONSchema.Name)
}

func TestErrorInsideAStreamIsTyped(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, `data: {"choices":[{"index":0,"delta":{"content":"Hel"}}]}`+"\n\n")
		fmt.Fprint(w, `data: {"error":{"message":"Rate limit reached","type":"requests","param":null,"code":"rate_limit_exceeded"}}`+"\n\n")
	}))
	defer srv.Close()

	var got string
	err := newClient(t, srv.URL, 0).Stream(context.Background(), key, aimodeltest.Prompt(), func(s string) error { got += s; return nil })
	assert.Equal(t, "Hel", got)
	assert.ErrorIs(t, err, domain.ErrRateLimited)
}

func TestEmptyKeyIsAllowedForALocalServer(t *testing.T) {
	fake := aifake.NewOpenAI(t)
	c := newClient(t, fake.URL(), 0)

	_, err := c.Generate(context.Background(), "", aimodeltest.Prompt())
	require.NoError(t, err)
	assert.Empty(t, fake.Last().Header.Get("Authorization"), "no empty Bearer header")

	fake.Reject("")
	_, err = c.Generate(context.Background(), "", aimodeltest.Prompt())
	assert.ErrorIs(t, err, domain.ErrKeyRejected)
}

func TestEmptyKeyForOpenAIItselfIsUnavailable(t *testing.T) {
	c, err := openai.New(openai.Config{})
	require.NoError(t, err)
	_, err = c.Generate(context.Background(), "", aimodeltest.Prompt())
	assert.ErrorIs(t, err, domain.ErrAIUnavailable)
}
