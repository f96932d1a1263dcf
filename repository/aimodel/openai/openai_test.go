package openai_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/repository/aimodel"
	"mediateka/repository/aimodel/aifake"
	"mediateka/repository/aimodel/openai"
)

// key is recognisable so that any leak into an error text is caught.
const key = "sk-proj-TEST-KEY-8a1f2e3d4c5b"

var _ aimodel.KeyedModel = (*openai.Client)(nil)

func newClient(t *testing.T, fake *aifake.OpenAI) *openai.Client {
	t.Helper()
	c, err := openai.New(openai.Config{BaseURL: fake.URL()})
	require.NoError(t, err)
	return c
}

func prompt() domain.Prompt {
	return domain.Prompt{
		System: "You are the librarian.",
		History: []domain.ChatTurn{
			{Role: "user", Text: "hi"},
			{Role: "model", Text: "hello"},
			{Role: "user", Text: "films?"},
			{Role: "assistant", Text: "which genre?"},
		},
		Message: "comedies",
	}
}

func TestDefaults(t *testing.T) {
	c, err := openai.New(openai.Config{})
	require.NoError(t, err)
	assert.Equal(t, "openai", c.Provider())
	assert.Equal(t, "gpt-4o-mini", c.Model())

	_, err = openai.New(openai.Config{BaseURL: "localhost:11434"})
	assert.True(t, domain.IsKind(err, domain.KindInvalid))
}

func TestGenerate(t *testing.T) {
	fake := aifake.NewOpenAI(t)
	fake.SetReply("Try «Кин-дза-дза!»")
	c, err := openai.New(openai.Config{BaseURL: fake.URL(), Model: "llama3.2"})
	require.NoError(t, err)

	got, err := c.Generate(context.Background(), key, prompt())
	require.NoError(t, err)
	assert.Equal(t, "Try «Кин-дза-дза!»", got)

	req := fake.Last()
	assert.Equal(t, "/v1/chat/completions", req.Path)
	assert.Equal(t, "llama3.2", req.Model)
	assert.False(t, req.Stream)
	assert.Equal(t, key, req.Key)
	assert.Equal(t, "Bearer "+key, req.Header.Get("Authorization"))
}

func TestSystemAndHistoryArriveInOrderWithOpenAIRoles(t *testing.T) {
	fake := aifake.NewOpenAI(t)
	c := newClient(t, fake)

	_, err := c.Generate(context.Background(), key, prompt())
	require.NoError(t, err)

	req := fake.Last()
	assert.Equal(t, "You are the librarian.", req.System)
	assert.Equal(t, []aifake.Turn{
		{Role: "user", Text: "hi"},
		{Role: "assistant", Text: "hello"},
		{Role: "user", Text: "films?"},
		{Role: "assistant", Text: "which genre?"},
	}, req.History)
	assert.Equal(t, "comedies", req.Message)
	assert.Empty(t, req.Schema)

	var body struct {
		Messages []struct{ Role string } `json:"messages"`
	}
	require.NoError(t, json.Unmarshal(req.Body, &body))
	require.Len(t, body.Messages, 6)
	assert.Equal(t, "system", body.Messages[0].Role, "the system message comes first")
}

func TestSchemaIsPassedAsStrictJSONSchema(t *testing.T) {
	fake := aifake.NewOpenAI(t)
	fake.SetReply(`{"category":"movie"}`)
	c := newClient(t, fake)
	schema := json.RawMessage(`{"type":"object","properties":{"category":{"type":"string","enum":["movie","series"]}},"required":["category"],"additionalProperties":false}`)

	got, err := c.Generate(context.Background(), key, domain.Prompt{Message: "Matrix 1999", Schema: schema})
	require.NoError(t, err)
	assert.JSONEq(t, `{"category":"movie"}`, got)

	req := fake.Last()
	assert.Equal(t, "json_schema", req.Format)
	assert.JSONEq(t, string(schema), string(req.Schema))
	var body struct {
		ResponseFormat struct {
			JSONSchema struct {
				Name   string `json:"name"`
				Strict bool   `json:"strict"`
			} `json:"json_schema"`
		} `json:"response_format"`
	}
	require.NoError(t, json.Unmarshal(req.Body, &body))
	assert.True(t, body.ResponseFormat.JSONSchema.Strict)
	assert.NotEmpty(t, body.ResponseFormat.JSONSchema.Name)
}

func TestStream(t *testing.T) {
	fake := aifake.NewOpenAI(t)
	reply := "Here are three comedies you might like tonight."
	fake.SetReply(reply)
	fake.SetChunks(4)
	c := newClient(t, fake)

	var chunks []string
	err := c.Stream(context.Background(), key, prompt(), func(s string) error {
		chunks = append(chunks, s)
		return nil
	})
	require.NoError(t, err)
	assert.Len(t, chunks, 4)
	assert.Equal(t, reply, strings.Join(chunks, ""))

	req := fake.Last()
	assert.True(t, req.Stream)
	assert.Equal(t, "You are the librarian.", req.System)
	assert.Len(t, req.History, 4)
	assert.Equal(t, "comedies", req.Message)
}

func TestStreamStopsOnEmitError(t *testing.T) {
	fake := aifake.NewOpenAI(t)
	c := newClient(t, fake)
	stop := errors.New("client went away")

	calls := 0
	err := c.Stream(context.Background(), key, prompt(), func(string) error {
		calls++
		return stop
	})
	assert.Same(t, stop, err)
	assert.Equal(t, 1, calls)
}

func TestErrorsAreTypedAndNeverShowTheKey(t *testing.T) {
	tests := []struct {
		name  string
		setup func(*aifake.OpenAI)
		want  *domain.Error
	}{
		{"429 rate_limit_exceeded", func(f *aifake.OpenAI) { f.RateLimit(key) }, domain.ErrRateLimited},
		{"429 insufficient_quota", func(f *aifake.OpenAI) { f.ExhaustQuota(key) }, domain.ErrRateLimited},
		{"401 invalid_api_key", func(f *aifake.OpenAI) { f.Reject(key) }, domain.ErrKeyRejected},
		{"403", func(f *aifake.OpenAI) { f.FailAll(http.StatusForbidden) }, domain.ErrKeyRejected},
		{"500", func(f *aifake.OpenAI) { f.FailAll(http.StatusInternalServerError) }, domain.ErrAIUnavailable},
		{"503", func(f *aifake.OpenAI) { f.FailAll(http.StatusServiceUnavailable) }, domain.ErrAIUnavailable},
		{"server down", func(f *aifake.OpenAI) { f.Close() }, domain.ErrAIUnavailable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := aifake.NewOpenAI(t)
			c := newClient(t, fake)
			tt.setup(fake)

			_, genErr := c.Generate(context.Background(), key, prompt())
			streamErr := c.Stream(context.Background(), key, prompt(), func(string) error { return nil })
			for _, err := range []error{genErr, streamErr} {
				require.ErrorIs(t, err, tt.want)
				assert.NotContains(t, err.Error(), key)
				assert.True(t, domain.IsKind(err, domain.KindUnavailable))
			}
		})
	}
}

func TestErrorInsideAStreamIsTyped(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, `data: {"choices":[{"index":0,"delta":{"content":"Hel"}}]}`+"\n\n")
		fmt.Fprint(w, `data: {"error":{"message":"Rate limit reached","type":"requests","param":null,"code":"rate_limit_exceeded"}}`+"\n\n")
	}))
	defer srv.Close()
	c, err := openai.New(openai.Config{BaseURL: srv.URL})
	require.NoError(t, err)

	var got string
	err = c.Stream(context.Background(), key, prompt(), func(s string) error { got += s; return nil })
	assert.Equal(t, "Hel", got)
	assert.ErrorIs(t, err, domain.ErrRateLimited)
}

func TestKeyEchoedByTheServerIsScrubbed(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "proxy failed for "+r.Header.Get("Authorization"), http.StatusBadGateway)
	}))
	defer srv.Close()
	c, err := openai.New(openai.Config{BaseURL: srv.URL})
	require.NoError(t, err)

	_, err = c.Generate(context.Background(), key, prompt())
	require.ErrorIs(t, err, domain.ErrAIUnavailable)
	assert.NotContains(t, err.Error(), key)
	assert.Contains(t, err.Error(), "[redacted]")
}

func TestEmptyKeyIsAllowedForALocalServer(t *testing.T) {
	fake := aifake.NewOpenAI(t)
	c := newClient(t, fake)

	_, err := c.Generate(context.Background(), "", prompt())
	require.NoError(t, err)
	assert.Empty(t, fake.Last().Header.Get("Authorization"), "no empty Bearer header")

	fake.Reject("")
	_, err = c.Generate(context.Background(), "", prompt())
	assert.ErrorIs(t, err, domain.ErrKeyRejected)
}

func TestEmptyKeyForOpenAIItselfIsUnavailable(t *testing.T) {
	c, err := openai.New(openai.Config{})
	require.NoError(t, err)
	_, err = c.Generate(context.Background(), "", prompt())
	assert.ErrorIs(t, err, domain.ErrAIUnavailable)
}

func TestBadPromptIsInvalidWithoutACall(t *testing.T) {
	fake := aifake.NewOpenAI(t)
	c := newClient(t, fake)

	_, err := c.Generate(context.Background(), key, domain.Prompt{Message: "x", History: []domain.ChatTurn{{Role: "bot"}}})
	assert.True(t, domain.IsKind(err, domain.KindInvalid))
	err = c.Stream(context.Background(), key, domain.Prompt{Message: "x", Schema: json.RawMessage("nope")}, func(string) error { return nil })
	assert.True(t, domain.IsKind(err, domain.KindInvalid))
	assert.Empty(t, fake.Requests())
}

func TestCancelMidStreamReturnsPromptly(t *testing.T) {
	fake := aifake.NewOpenAI(t)
	fake.SetChunks(5)
	fake.SetChunkDelay(30 * time.Second)
	c := newClient(t, fake)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	var chunks []string
	start := time.Now()
	err := c.Stream(ctx, key, prompt(), func(s string) error {
		chunks = append(chunks, s)
		cancel()
		return nil
	})
	assert.Less(t, time.Since(start), 5*time.Second)
	require.ErrorIs(t, err, context.Canceled)
	require.ErrorIs(t, err, domain.ErrAIUnavailable)
	assert.Len(t, chunks, 1)
	assert.NotContains(t, err.Error(), key)
}

func TestGenerateTimeoutIsUnavailable(t *testing.T) {
	fake := aifake.NewOpenAI(t)
	block := make(chan struct{})
	defer close(block)
	fake.SetReplyFunc(func(aifake.Request) string { <-block; return "late" })
	c, err := openai.New(openai.Config{BaseURL: fake.URL(), Timeout: 100 * time.Millisecond})
	require.NoError(t, err)

	_, err = c.Generate(context.Background(), key, prompt())
	require.ErrorIs(t, err, domain.ErrAIUnavailable)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
}

func TestEmptyAnswerIsUnavailable(t *testing.T) {
	fake := aifake.NewOpenAI(t)
	fake.SetReply("")
	c := newClient(t, fake)

	_, err := c.Generate(context.Background(), key, prompt())
	assert.ErrorIs(t, err, domain.ErrAIUnavailable)
	err = c.Stream(context.Background(), key, prompt(), func(string) error { return nil })
	assert.ErrorIs(t, err, domain.ErrAIUnavailable)
}
