package aifake

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// These tests speak raw HTTP, so they pin the wire format independently of
// the client libraries.

func post(t *testing.T, url string, header map[string]string, body string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	require.NoError(t, err)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

func decode(t *testing.T, r io.Reader) map[string]any {
	t.Helper()
	var v map[string]any
	require.NoError(t, json.NewDecoder(r).Decode(&v))
	return v
}

// sseData returns the data payloads of an SSE body, split on blank lines.
func sseData(t *testing.T, r io.Reader) []string {
	t.Helper()
	raw, err := io.ReadAll(r)
	require.NoError(t, err)
	text := strings.ReplaceAll(string(raw), "\r\n", "\n")
	var out []string
	for ev := range strings.SplitSeq(strings.TrimSpace(text), "\n\n") {
		data, ok := strings.CutPrefix(ev, "data: ")
		require.True(t, ok, "event %q", ev)
		out = append(out, data)
	}
	return out
}

const gemBody = `{"contents":[{"role":"user","parts":[{"text":"hi"}]},{"role":"model","parts":[{"text":"hello"}]},{"role":"user","parts":[{"text":"films?"}]}],
 "systemInstruction":{"parts":[{"text":"be brief"}]},
 "generationConfig":{"responseMimeType":"application/json","responseSchema":{"type":"OBJECT"}}}`

func TestGeminiGenerateWire(t *testing.T) {
	g := NewGemini(t)
	g.SetReply("two films")
	resp := post(t, g.URL()+"/v1beta/models/gemini-x:generateContent", map[string]string{"x-goog-api-key": "k1"}, gemBody)
	require.Equal(t, http.StatusOK, resp.StatusCode)

	v := decode(t, resp.Body)
	cand := v["candidates"].([]any)[0].(map[string]any)
	assert.Equal(t, "STOP", cand["finishReason"])
	content := cand["content"].(map[string]any)
	assert.Equal(t, "model", content["role"])
	assert.Equal(t, "two films", content["parts"].([]any)[0].(map[string]any)["text"])
	assert.Contains(t, v, "usageMetadata")
	assert.Equal(t, "gemini-x", v["modelVersion"])

	req := g.Last()
	assert.Equal(t, "k1", req.Key)
	assert.Equal(t, "be brief", req.System)
	assert.Equal(t, []Turn{{"user", "hi"}, {"model", "hello"}}, req.History)
	assert.Equal(t, "films?", req.Message)
	assert.Equal(t, "application/json", req.Format)
	assert.JSONEq(t, `{"type":"OBJECT"}`, string(req.Schema), "responseSchema is read when responseJsonSchema is absent")
}

func TestGeminiKeyFromQuery(t *testing.T) {
	g := NewGemini(t)
	post(t, g.URL()+"/v1beta/models/m:generateContent?key=qk", nil, `{"contents":[]}`)
	assert.Equal(t, "qk", g.Last().Key)
}

func TestGeminiStreamWire(t *testing.T) {
	g := NewGemini(t)
	g.SetReply("abcdef")
	resp := post(t, g.URL()+"/v1beta/models/m:streamGenerateContent?alt=sse", nil, gemBody)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "text/event-stream", resp.Header.Get("Content-Type"))

	events := sseData(t, resp.Body)
	require.Len(t, events, 3)
	var text strings.Builder
	for i, ev := range events {
		var r struct {
			Candidates []struct {
				Content struct {
					Parts []struct{ Text string }
				}
				FinishReason string
			}
		}
		require.NoError(t, json.Unmarshal([]byte(ev), &r))
		text.WriteString(r.Candidates[0].Content.Parts[0].Text)
		assert.Equal(t, i == 2, r.Candidates[0].FinishReason == "STOP")
	}
	assert.Equal(t, "abcdef", text.String())

	bad := post(t, g.URL()+"/v1beta/models/m:streamGenerateContent", nil, gemBody)
	assert.Equal(t, http.StatusBadRequest, bad.StatusCode, "only alt=sse is served")
}

func TestGeminiFaults(t *testing.T) {
	g := NewGemini(t)
	g.RateLimit("limited")
	g.Reject("rejected")
	g.InvalidKey("invalid")
	tests := []struct {
		key, status string
		code        int
	}{
		{"limited", "RESOURCE_EXHAUSTED", 429},
		{"rejected", "UNAUTHENTICATED", 401},
		{"invalid", "INVALID_ARGUMENT", 400},
	}
	for _, tt := range tests {
		resp := post(t, g.URL()+"/v1beta/models/m:generateContent", map[string]string{"x-goog-api-key": tt.key}, `{"contents":[]}`)
		assert.Equal(t, tt.code, resp.StatusCode)
		e := decode(t, resp.Body)["error"].(map[string]any)
		assert.Equal(t, float64(tt.code), e["code"])
		assert.Equal(t, tt.status, e["status"])
		assert.NotEmpty(t, e["message"])
	}
	assert.Len(t, g.Requests(), 3, "failed requests are recorded too")
}

func TestOpenAIGenerateWire(t *testing.T) {
	o := NewOpenAI(t)
	o.SetReply("two films")
	body := `{"model":"gpt-x","messages":[{"role":"system","content":"be brief"},{"role":"user","content":"hi"},
	 {"role":"assistant","content":"hello"},{"role":"user","content":[{"type":"text","text":"films?"}]}],
	 "response_format":{"type":"json_schema","json_schema":{"name":"a","schema":{"type":"object"},"strict":true}}}`
	resp := post(t, o.URL()+"/chat/completions", map[string]string{"Authorization": "Bearer k1"}, body)
	require.Equal(t, http.StatusOK, resp.StatusCode)

	v := decode(t, resp.Body)
	assert.Equal(t, "chat.completion", v["object"])
	choice := v["choices"].([]any)[0].(map[string]any)
	assert.Equal(t, "stop", choice["finish_reason"])
	assert.Equal(t, "two films", choice["message"].(map[string]any)["content"])
	assert.Contains(t, v, "usage")

	req := o.Last()
	assert.Equal(t, "k1", req.Key)
	assert.Equal(t, "gpt-x", req.Model)
	assert.Equal(t, "be brief", req.System)
	assert.Equal(t, []Turn{{"user", "hi"}, {"assistant", "hello"}}, req.History)
	assert.Equal(t, "films?", req.Message)
	assert.Equal(t, "json_schema", req.Format)
	assert.JSONEq(t, `{"type":"object"}`, string(req.Schema))
}

func TestOpenAIStreamWire(t *testing.T) {
	o := NewOpenAI(t)
	o.SetReply("abcdef")
	resp := post(t, o.URL()+"/chat/completions", nil, `{"model":"m","stream":true,"messages":[{"role":"user","content":"x"}]}`)
	require.Equal(t, http.StatusOK, resp.StatusCode)

	events := sseData(t, resp.Body)
	require.Len(t, events, 6, "role, three pieces, finish, [DONE]")
	assert.Equal(t, "[DONE]", events[5])
	var text strings.Builder
	for _, ev := range events[:5] {
		var c struct {
			Object  string
			Choices []struct {
				Delta        struct{ Content string }
				FinishReason *string `json:"finish_reason"`
			}
		}
		require.NoError(t, json.Unmarshal([]byte(ev), &c))
		assert.Equal(t, "chat.completion.chunk", c.Object)
		text.WriteString(c.Choices[0].Delta.Content)
	}
	assert.Equal(t, "abcdef", text.String())
	assert.Contains(t, events[4], `"finish_reason":"stop"`)
}

func TestOpenAIFaults(t *testing.T) {
	o := NewOpenAI(t)
	o.RateLimit("limited")
	o.ExhaustQuota("broke")
	o.Reject("sk-rejected-0123456789")
	o.Reject("")
	tests := []struct {
		auth string
		code int
		want any
	}{
		{"Bearer limited", 429, "rate_limit_exceeded"},
		{"Bearer broke", 429, "insufficient_quota"},
		{"Bearer sk-rejected-0123456789", 401, "invalid_api_key"},
		{"", 401, nil},
	}
	for _, tt := range tests {
		h := map[string]string{}
		if tt.auth != "" {
			h["Authorization"] = tt.auth
		}
		resp := post(t, o.URL()+"/chat/completions", h, `{"model":"m","messages":[]}`)
		assert.Equal(t, tt.code, resp.StatusCode)
		e := decode(t, resp.Body)["error"].(map[string]any)
		assert.Equal(t, tt.want, e["code"])
		assert.NotContains(t, e["message"], "sk-rejected-0123456789", "OpenAI shows only a masked key")
	}
}

func TestFailAllAndRestore(t *testing.T) {
	o := NewOpenAI(t)
	o.FailAll(http.StatusServiceUnavailable)
	resp := post(t, o.URL()+"/chat/completions", nil, `{"model":"m","messages":[]}`)
	assert.Equal(t, http.StatusServiceUnavailable, resp.StatusCode)
	o.FailAll(0)

	o.RateLimit("k")
	o.Restore("k")
	resp = post(t, o.URL()+"/chat/completions", map[string]string{"Authorization": "Bearer k"}, `{"model":"m","messages":[]}`)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
}

func TestSplit(t *testing.T) {
	tests := []struct {
		text string
		n    int
		want []string
	}{
		{"abcdef", 3, []string{"ab", "cd", "ef"}},
		{"abcdefg", 3, []string{"ab", "cd", "efg"}},
		{"ab", 5, []string{"a", "b"}},
		{"", 3, []string{""}},
		{"привет", 2, []string{"при", "вет"}},
		{"abc", 0, []string{"abc"}},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, split(tt.text, tt.n), "split(%q, %d)", tt.text, tt.n)
	}
}

func TestReplyFuncSeesTheRequest(t *testing.T) {
	g := NewGemini(t)
	g.SetReplyFunc(func(r Request) string { return "echo " + r.Message })
	resp := post(t, g.URL()+"/v1beta/models/m:generateContent", nil, `{"contents":[{"role":"user","parts":[{"text":"ping"}]}]}`)
	var r struct {
		Candidates []struct {
			Content struct{ Parts []struct{ Text string } }
		}
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&r))
	assert.Equal(t, "echo ping", r.Candidates[0].Content.Parts[0].Text)
}
