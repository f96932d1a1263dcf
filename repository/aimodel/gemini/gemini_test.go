package gemini_test

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
	"mediateka/repository/aimodel/gemini"
)

// key is recognisable so that any leak into an error text is caught.
const key = "AIzaSy-TEST-KEY-5f3c9e1d7b"

var _ aimodel.KeyedModel = (*gemini.Client)(nil)

func newClient(t *testing.T, fake *aifake.Gemini) *gemini.Client {
	t.Helper()
	c, err := gemini.New(gemini.Config{BaseURL: fake.URL()})
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
	c, err := gemini.New(gemini.Config{})
	require.NoError(t, err)
	assert.Equal(t, "gemini", c.Provider())
	assert.Equal(t, "gemini-2.5-flash", c.Model())

	_, err = gemini.New(gemini.Config{BaseURL: "::nope"})
	assert.True(t, domain.IsKind(err, domain.KindInvalid))
}

func TestGenerate(t *testing.T) {
	fake := aifake.NewGemini(t)
	fake.SetReply("Try «Кин-дза-дза!»")
	c := newClient(t, fake)

	got, err := c.Generate(context.Background(), key, prompt())
	require.NoError(t, err)
	assert.Equal(t, "Try «Кин-дза-дза!»", got)

	req := fake.Last()
	assert.Equal(t, "/v1beta/models/gemini-2.5-flash:generateContent", req.Path)
	assert.Equal(t, "gemini-2.5-flash", req.Model)
	assert.False(t, req.Stream)
	assert.Equal(t, key, req.Key)
	assert.Equal(t, key, req.Header.Get("x-goog-api-key"), "genai sends the key in a header")
	assert.NotContains(t, req.Path, key)
}

func TestSystemAndHistoryArriveInOrderWithGeminiRoles(t *testing.T) {
	fake := aifake.NewGemini(t)
	c := newClient(t, fake)

	_, err := c.Generate(context.Background(), key, prompt())
	require.NoError(t, err)

	req := fake.Last()
	assert.Equal(t, "You are the librarian.", req.System)
	assert.Equal(t, []aifake.Turn{
		{Role: "user", Text: "hi"},
		{Role: "model", Text: "hello"},
		{Role: "user", Text: "films?"},
		{Role: "model", Text: "which genre?"},
	}, req.History)
	assert.Equal(t, "comedies", req.Message)
	assert.Empty(t, req.Schema)
	assert.Empty(t, req.Format)
}

func TestSchemaIsPassed(t *testing.T) {
	fake := aifake.NewGemini(t)
	fake.SetReply(`{"category":"movie"}`)
	c := newClient(t, fake)
	schema := json.RawMessage(`{"type":"object","properties":{"category":{"type":"string","enum":["movie","series"]}},"required":["category"]}`)

	got, err := c.Generate(context.Background(), key, domain.Prompt{Message: "Matrix 1999", Schema: schema})
	require.NoError(t, err)
	assert.JSONEq(t, `{"category":"movie"}`, got)

	req := fake.Last()
	assert.Equal(t, "application/json", req.Format)
	assert.JSONEq(t, string(schema), string(req.Schema))
}

func TestStream(t *testing.T) {
	fake := aifake.NewGemini(t)
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
	assert.Equal(t, "/v1beta/models/gemini-2.5-flash:streamGenerateContent", req.Path)
	assert.Equal(t, "You are the librarian.", req.System)
	assert.Len(t, req.History, 4)
	assert.Equal(t, "comedies", req.Message)
}

func TestStreamStopsOnEmitError(t *testing.T) {
	fake := aifake.NewGemini(t)
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
		setup func(*aifake.Gemini)
		want  *domain.Error
	}{
		{"429 RESOURCE_EXHAUSTED", func(f *aifake.Gemini) { f.RateLimit(key) }, domain.ErrRateLimited},
		{"401 UNAUTHENTICATED", func(f *aifake.Gemini) { f.Reject(key) }, domain.ErrKeyRejected},
		{"400 API_KEY_INVALID", func(f *aifake.Gemini) { f.InvalidKey(key) }, domain.ErrKeyRejected},
		{"403 PERMISSION_DENIED", func(f *aifake.Gemini) { f.FailAll(http.StatusForbidden) }, domain.ErrKeyRejected},
		{"500", func(f *aifake.Gemini) { f.FailAll(http.StatusInternalServerError) }, domain.ErrAIUnavailable},
		{"503", func(f *aifake.Gemini) { f.FailAll(http.StatusServiceUnavailable) }, domain.ErrAIUnavailable},
		{"server down", func(f *aifake.Gemini) { f.Close() }, domain.ErrAIUnavailable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := aifake.NewGemini(t)
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

func TestOtherKeysStillWork(t *testing.T) {
	fake := aifake.NewGemini(t)
	fake.RateLimit(key)
	c := newClient(t, fake)

	_, err := c.Generate(context.Background(), "AIzaSy-OTHER-KEY", prompt())
	require.NoError(t, err)

	fake.Restore(key)
	_, err = c.Generate(context.Background(), key, prompt())
	require.NoError(t, err)
}

func TestKeyEchoedByTheServerIsScrubbed(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "upstream proxy failed for key "+r.Header.Get("x-goog-api-key"), http.StatusBadGateway)
	}))
	defer srv.Close()
	c, err := gemini.New(gemini.Config{BaseURL: srv.URL})
	require.NoError(t, err)

	_, err = c.Generate(context.Background(), key, prompt())
	require.ErrorIs(t, err, domain.ErrAIUnavailable)
	assert.NotContains(t, err.Error(), key)
	assert.Contains(t, err.Error(), "[redacted]")
}

func TestNoKeyIsUnavailableWithoutACall(t *testing.T) {
	fake := aifake.NewGemini(t)
	t.Setenv("GEMINI_API_KEY", "from-the-environment")
	c := newClient(t, fake)

	_, err := c.Generate(context.Background(), "", prompt())
	require.ErrorIs(t, err, domain.ErrAIUnavailable)
	assert.Empty(t, fake.Requests())
}

func TestBadPromptIsInvalidWithoutACall(t *testing.T) {
	fake := aifake.NewGemini(t)
	c := newClient(t, fake)

	_, err := c.Generate(context.Background(), key, domain.Prompt{Message: "x", History: []domain.ChatTurn{{Role: "bot"}}})
	assert.True(t, domain.IsKind(err, domain.KindInvalid))
	err = c.Stream(context.Background(), key, domain.Prompt{Message: "x", Schema: json.RawMessage("nope")}, func(string) error { return nil })
	assert.True(t, domain.IsKind(err, domain.KindInvalid))
	assert.Empty(t, fake.Requests())
}

func TestCancelMidStreamReturnsPromptly(t *testing.T) {
	fake := aifake.NewGemini(t)
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
	fake := aifake.NewGemini(t)
	block := make(chan struct{})
	defer close(block)
	fake.SetReplyFunc(func(aifake.Request) string { <-block; return "late" })
	c, err := gemini.New(gemini.Config{BaseURL: fake.URL(), Timeout: 100 * time.Millisecond})
	require.NoError(t, err)

	_, err = c.Generate(context.Background(), key, prompt())
	require.ErrorIs(t, err, domain.ErrAIUnavailable)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
}

func TestConcurrentCallsWithDifferentKeys(t *testing.T) {
	fake := aifake.NewGemini(t)
	fake.SetReplyFunc(func(r aifake.Request) string { return "for " + r.Key })
	c := newClient(t, fake)

	errs := make(chan error, 8)
	for i := range 8 {
		go func() {
			k := fmt.Sprintf("key-%d", i)
			got, err := c.Generate(context.Background(), k, prompt())
			if err == nil && got != "for "+k {
				err = fmt.Errorf("got %q for %s", got, k)
			}
			errs <- err
		}()
	}
	for range 8 {
		assert.NoError(t, <-errs)
	}
}

func TestEmptyAnswerIsUnavailable(t *testing.T) {
	fake := aifake.NewGemini(t)
	fake.SetReply("")
	c := newClient(t, fake)

	_, err := c.Generate(context.Background(), key, prompt())
	assert.ErrorIs(t, err, domain.ErrAIUnavailable)
	err = c.Stream(context.Background(), key, prompt(), func(string) error { return nil })
	assert.ErrorIs(t, err, domain.ErrAIUnavailable)
}
