// Package aimodeltest is the contract every AI provider client
// (aimodel.KeyedModel) must keep, written once and run against each client
// talking to its fake server (aifake): answers whole and streamed, the
// dialogue and the answer schema on the wire, typed rate-limit, key and
// outage errors that never show the key, cancellation and timeouts. A new
// provider passes the same suite before anything is built on it.
package aimodeltest

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
)

// Fake is what the suite drives of a provider's fake server; aifake.Gemini
// and aifake.OpenAI both are one.
type Fake interface {
	URL() string
	Close()
	SetReply(text string)
	SetReplyFunc(f aifake.ReplyFunc)
	SetChunks(n int)
	SetChunkDelay(d time.Duration)
	RateLimit(key string)
	Reject(key string)
	Restore(key string)
	FailAll(status int)
	Requests() []aifake.Request
	Last() aifake.Request
}

// Fault is one upstream failure and the typed error a client must return.
type Fault struct {
	Name  string
	Setup func(f Fake, key string)
	Want  *domain.Error
}

// Provider describes the client under test.
type Provider struct {
	// Key is a key in the provider's format, recognisable in any leak.
	Key string
	// NewFake starts the provider's fake server for one test.
	NewFake func(t *testing.T) Fake
	// New builds a client for baseURL; timeout 0 means the default.
	New func(t *testing.T, baseURL string, timeout time.Duration) aimodel.KeyedModel
	// ModelRole is the wire role of the model's turns ("model" for Gemini,
	// "assistant" for OpenAI).
	ModelRole string
	// SchemaFormat is how a request asks for JSON (Gemini's
	// responseMimeType, OpenAI's response_format.type).
	SchemaFormat string
	// Faults are the provider's own failures beyond the common ones
	// (Gemini's API_KEY_INVALID, OpenAI's insufficient_quota).
	Faults []Fault
}

// Run runs the whole contract against p.
func Run(t *testing.T, p Provider) {
	for _, c := range []struct {
		name string
		run  func(*testing.T, Provider)
	}{
		{"Generate", testGenerate},
		{"SystemAndHistoryInOrder", testSystemAndHistory},
		{"SchemaIsPassed", testSchema},
		{"Stream", testStream},
		{"StreamStopsOnEmitError", testStreamStops},
		{"ErrorsAreTypedAndNeverShowTheKey", testErrors},
		{"KeyEchoedByTheServerIsScrubbed", testEchoedKey},
		{"OtherKeysStillWork", testOtherKeys},
		{"BadPromptIsInvalidWithoutACall", testBadPrompt},
		{"CancelMidStreamReturnsPromptly", testCancel},
		{"GenerateTimeoutIsUnavailable", testTimeout},
		{"ConcurrentCallsWithDifferentKeys", testConcurrentKeys},
		{"EmptyAnswerIsUnavailable", testEmptyAnswer},
	} {
		t.Run(c.name, func(t *testing.T) { c.run(t, p) })
	}
}

// Prompt is the dialogue every test sends: a system instruction, four
// earlier turns using both names of the model's role, and the message.
func Prompt() domain.Prompt {
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

func (p Provider) client(t *testing.T, f Fake) aimodel.KeyedModel { return p.New(t, f.URL(), 0) }

func testGenerate(t *testing.T, p Provider) {
	fake := p.NewFake(t)
	fake.SetReply("Try «Кин-дза-дза!»")
	c := p.client(t, fake)
	got, err := c.Generate(context.Background(), p.Key, Prompt())
	require.NoError(t, err)
	assert.Equal(t, "Try «Кин-дза-дза!»", got)
	req := fake.Last()
	assert.Equal(t, c.Model(), req.Model)
	assert.NotEmpty(t, c.Provider())
	assert.False(t, req.Stream)
	assert.Equal(t, p.Key, req.Key)
	assert.NotContains(t, req.Path, p.Key, "the key travels in a header, never in the URL")
}

func testSystemAndHistory(t *testing.T, p Provider) {
	fake := p.NewFake(t)
	_, err := p.client(t, fake).Generate(context.Background(), p.Key, Prompt())
	require.NoError(t, err)
	req := fake.Last()
	assert.Equal(t, "You are the librarian.", req.System)
	assert.Equal(t, []aifake.Turn{
		{Role: "user", Text: "hi"}, {Role: p.ModelRole, Text: "hello"},
		{Role: "user", Text: "films?"}, {Role: p.ModelRole, Text: "which genre?"},
	}, req.History)
	assert.Equal(t, "comedies", req.Message)
	assert.Empty(t, req.Schema)
	assert.Empty(t, req.Format)
}

func testSchema(t *testing.T, p Provider) {
	fake := p.NewFake(t)
	fake.SetReply(`{"category":"movie"}`)
	schema := json.RawMessage(`{"type":"object","properties":{"category":{"type":"string","enum":["movie","series"]}},"required":["category"],"additionalProperties":false}`)
	got, err := p.client(t, fake).Generate(context.Background(), p.Key, domain.Prompt{Message: "Matrix 1999", Schema: schema})
	require.NoError(t, err)
	assert.JSONEq(t, `{"category":"movie"}`, got)
	req := fake.Last()
	assert.Equal(t, p.SchemaFormat, req.Format)
	assert.JSONEq(t, string(schema), string(req.Schema))
}

func testStream(t *testing.T, p Provider) {
	fake := p.NewFake(t)
	reply := "Here are three comedies you might like tonight."
	fake.SetReply(reply)
	fake.SetChunks(4)
	var chunks []string
	err := p.client(t, fake).Stream(context.Background(), p.Key, Prompt(), func(s string) error {
		chunks = append(chunks, s)
		return nil
	})
	require.NoError(t, err)
	assert.Len(t, chunks, 4, "each piece is passed on as it arrives")
	assert.Equal(t, reply, strings.Join(chunks, ""))
	req := fake.Last()
	assert.True(t, req.Stream)
	assert.Equal(t, "You are the librarian.", req.System)
	assert.Len(t, req.History, 4)
	assert.Equal(t, "comedies", req.Message)
}

func testStreamStops(t *testing.T, p Provider) {
	fake := p.NewFake(t)
	stop := errors.New("client went away")
	calls := 0
	err := p.client(t, fake).Stream(context.Background(), p.Key, Prompt(), func(string) error {
		calls++
		return stop
	})
	assert.Same(t, stop, err, "emit's error comes back unchanged")
	assert.Equal(t, 1, calls)
}

// commonFaults are the failures every provider maps the same way.
func commonFaults() []Fault {
	return []Fault{
		{"429 rate limit", func(f Fake, key string) { f.RateLimit(key) }, domain.ErrRateLimited},
		{"401 key refused", func(f Fake, key string) { f.Reject(key) }, domain.ErrKeyRejected},
		{"403", func(f Fake, _ string) { f.FailAll(http.StatusForbidden) }, domain.ErrKeyRejected},
		{"500", func(f Fake, _ string) { f.FailAll(http.StatusInternalServerError) }, domain.ErrAIUnavailable},
		{"503", func(f Fake, _ string) { f.FailAll(http.StatusServiceUnavailable) }, domain.ErrAIUnavailable},
		{"server down", func(f Fake, _ string) { f.Close() }, domain.ErrAIUnavailable},
	}
}

func testErrors(t *testing.T, p Provider) {
	for _, tt := range append(commonFaults(), p.Faults...) {
		t.Run(tt.Name, func(t *testing.T) {
			fake := p.NewFake(t)
			c := p.client(t, fake)
			tt.Setup(fake, p.Key)
			_, genErr := c.Generate(context.Background(), p.Key, Prompt())
			streamErr := c.Stream(context.Background(), p.Key, Prompt(), func(string) error { return nil })
			for _, err := range []error{genErr, streamErr} {
				require.ErrorIs(t, err, tt.Want)
				assert.NotContains(t, err.Error(), p.Key)
				assert.True(t, domain.IsKind(err, domain.KindUnavailable))
			}
		})
	}
}

func testEchoedKey(t *testing.T, p Provider) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "upstream proxy failed for "+r.Header.Get("x-goog-api-key")+r.Header.Get("Authorization"), http.StatusBadGateway)
	}))
	defer srv.Close()
	_, err := p.New(t, srv.URL, 0).Generate(context.Background(), p.Key, Prompt())
	require.ErrorIs(t, err, domain.ErrAIUnavailable)
	assert.NotContains(t, err.Error(), p.Key)
	assert.Contains(t, err.Error(), "[redacted]")
}

func testOtherKeys(t *testing.T, p Provider) {
	fake := p.NewFake(t)
	fake.RateLimit(p.Key)
	c := p.client(t, fake)
	_, err := c.Generate(context.Background(), p.Key+"-OTHER", Prompt())
	require.NoError(t, err, "a rate limit belongs to one key")
	fake.Restore(p.Key)
	_, err = c.Generate(context.Background(), p.Key, Prompt())
	require.NoError(t, err)
}

func testBadPrompt(t *testing.T, p Provider) {
	fake := p.NewFake(t)
	c := p.client(t, fake)
	_, err := c.Generate(context.Background(), p.Key, domain.Prompt{Message: "x", History: []domain.ChatTurn{{Role: "bot"}}})
	assert.True(t, domain.IsKind(err, domain.KindInvalid))
	err = c.Stream(context.Background(), p.Key, domain.Prompt{Message: "x", Schema: json.RawMessage("nope")}, func(string) error { return nil })
	assert.True(t, domain.IsKind(err, domain.KindInvalid))
	assert.Empty(t, fake.Requests(), "bad input is never sent")
}

func testCancel(t *testing.T, p Provider) {
	fake := p.NewFake(t)
	fake.SetChunks(5)
	fake.SetChunkDelay(30 * time.Second)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var chunks []string
	start := time.Now()
	err := p.client(t, fake).Stream(ctx, p.Key, Prompt(), func(s string) error {
		chunks = append(chunks, s)
		cancel()
		return nil
	})
	assert.Less(t, time.Since(start), 5*time.Second, "the 30-second wait was not sat out")
	require.ErrorIs(t, err, context.Canceled)
	require.ErrorIs(t, err, domain.ErrAIUnavailable)
	assert.Len(t, chunks, 1)
	assert.NotContains(t, err.Error(), p.Key)
}

func testTimeout(t *testing.T, p Provider) {
	fake := p.NewFake(t)
	block := make(chan struct{})
	defer close(block)
	fake.SetReplyFunc(func(aifake.Request) string { <-block; return "late" })
	_, err := p.New(t, fake.URL(), 100*time.Millisecond).Generate(context.Background(), p.Key, Prompt())
	require.ErrorIs(t, err, domain.ErrAIUnavailable)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
}

func testConcurrentKeys(t *testing.T, p Provider) {
	fake := p.NewFake(t)
	fake.SetReplyFunc(func(r aifake.Request) string { return "for " + r.Key })
	c := p.client(t, fake)
	errs := make(chan error, 8)
	for i := range 8 {
		go func() {
			k := fmt.Sprintf("%s-%d", p.Key, i)
			got, err := c.Generate(context.Background(), k, Prompt())
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

func testEmptyAnswer(t *testing.T, p Provider) {
	fake := p.NewFake(t)
	fake.SetReply("")
	c := p.client(t, fake)
	_, err := c.Generate(context.Background(), p.Key, Prompt())
	assert.ErrorIs(t, err, domain.ErrAIUnavailable)
	err = c.Stream(context.Background(), p.Key, Prompt(), func(string) error { return nil })
	assert.ErrorIs(t, err, domain.ErrAIUnavailable)
}
