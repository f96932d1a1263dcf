package aifake

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// OpenAI is a fake OpenAI-compatible chat server (api.openai.com, and what
// Ollama /v1, LM Studio and vLLM imitate). It serves POST
// /v1/chat/completions, reads the key from "Authorization: Bearer", and
// answers a chat.completion object or, for "stream": true, SSE
// chat.completion.chunk events ending with "data: [DONE]"; and POST
// /v1/embeddings (see serveEmbeddings). Requests without
// a key are accepted, as local servers do, unless Reject("") is called.
type OpenAI struct {
	*recorder
	srv *httptest.Server
}

// NewOpenAI starts a fake OpenAI-compatible server that is closed when t
// ends.
func NewOpenAI(t testing.TB) *OpenAI {
	o := &OpenAI{recorder: newRecorder()}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", o.serve)
	mux.HandleFunc("POST /v1/embeddings", o.serveEmbeddings)
	o.srv = httptest.NewServer(mux)
	t.Cleanup(o.Close)
	return o
}

// URL is the base URL to configure a client with, ending in /v1 like
// https://api.openai.com/v1.
func (o *OpenAI) URL() string { return o.srv.URL + "/v1" }

// Close stops the server, first releasing streams that are waiting.
func (o *OpenAI) Close() {
	o.close()
	o.srv.Close()
}

// RateLimit makes the fake answer 429 with code rate_limit_exceeded (too
// many requests per minute) to every request with key.
func (o *OpenAI) RateLimit(key string) { o.setFault(key, faultRateLimit) }

// ExhaustQuota makes the fake answer 429 with type and code
// insufficient_quota (billing quota used up) to every request with key.
func (o *OpenAI) ExhaustQuota(key string) { o.setFault(key, faultQuota) }

func (o *OpenAI) serve(w http.ResponseWriter, r *http.Request) {
	req, err := decodeOpenAI(r)
	if err != nil {
		writeOpenAIError(w, http.StatusBadRequest, "We could not parse the JSON body of your request. "+err.Error(), "invalid_request_error", nil)
		return
	}
	p := o.record(req)
	switch {
	case p.status != 0:
		writeOpenAIError(w, p.status, "fake failure: "+http.StatusText(p.status), openAIErrorType(p.status), nil)
	case p.fault != faultNone:
		writeOpenAIFault(w, p.fault, req)
	case req.Stream:
		o.stream(w, r, req, p)
	default:
		writeJSON(w, http.StatusOK, openAICompletion(req, strings.Join(p.chunks, "")))
	}
}

func (o *OpenAI) stream(w http.ResponseWriter, r *http.Request, req Request, p plan) {
	startSSE(w)
	events := []map[string]any{{"role": "assistant", "content": ""}}
	for _, c := range p.chunks {
		events = append(events, map[string]any{"content": c})
	}
	for i, delta := range events {
		if i > 1 && !o.wait(r, p.delay) {
			return
		}
		data, _ := json.Marshal(openAIChunk(req, delta, nil))
		if writeEvent(w, data, "\n\n") != nil {
			return
		}
	}
	stop := "stop"
	data, _ := json.Marshal(openAIChunk(req, map[string]any{}, &stop))
	if writeEvent(w, data, "\n\n") == nil {
		_ = writeEvent(w, []byte("[DONE]"), "\n\n")
	}
}

// oaRequest is the part of a chat completion request the fake understands.
type oaRequest struct {
	Model    string `json:"model"`
	Stream   bool   `json:"stream"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
	ResponseFormat *struct {
		Type       string `json:"type"`
		JSONSchema *struct {
			Schema json.RawMessage `json:"schema"`
		} `json:"json_schema"`
	} `json:"response_format"`
}

func decodeOpenAI(r *http.Request) (Request, error) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return Request{}, err
	}
	var in oaRequest
	if err := json.Unmarshal(body, &in); err != nil {
		return Request{}, err
	}
	key, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	req := Request{Path: r.URL.Path, Model: in.Model, Key: key, Header: r.Header.Clone(), Stream: in.Stream, Body: body}
	if f := in.ResponseFormat; f != nil {
		req.Format = f.Type
		if f.JSONSchema != nil {
			req.Schema = f.JSONSchema.Schema
		}
	}
	var system []string
	for i, m := range in.Messages {
		text := contentText(m.Content)
		switch {
		case m.Role == "system" || m.Role == "developer":
			system = append(system, text)
		case i == len(in.Messages)-1 && m.Role == "user":
			req.Message = text
		default:
			req.History = append(req.History, Turn{Role: m.Role, Text: text})
		}
	}
	req.System = strings.Join(system, "\n")
	return req, nil
}

// contentText reads a message's content: a string, or an array of parts
// whose text parts are joined.
func contentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	_ = json.Unmarshal(raw, &parts)
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	return b.String()
}

func openAICompletion(req Request, text string) map[string]any {
	prompt := words(req.System + " " + req.Message)
	for _, t := range req.History {
		prompt += words(t.Text)
	}
	return map[string]any{
		"id": openAIID(req), "object": "chat.completion", "created": time.Now().Unix(),
		"model": req.Model, "system_fingerprint": "fp_fake",
		"choices": []any{map[string]any{
			"index":         0,
			"message":       map[string]any{"role": "assistant", "content": text, "refusal": nil},
			"logprobs":      nil,
			"finish_reason": "stop",
		}},
		"usage": map[string]any{
			"prompt_tokens": prompt, "completion_tokens": words(text), "total_tokens": prompt + words(text),
		},
	}
}

func openAIChunk(req Request, delta map[string]any, finish *string) map[string]any {
	return map[string]any{
		"id": openAIID(req), "object": "chat.completion.chunk", "created": time.Now().Unix(),
		"model": req.Model, "system_fingerprint": "fp_fake",
		"choices": []any{map[string]any{"index": 0, "delta": delta, "logprobs": nil, "finish_reason": finish}},
	}
}

func openAIID(req Request) string { return fmt.Sprintf("chatcmpl-fake%d", len(req.Body)) }

func writeOpenAIFault(w http.ResponseWriter, f keyFault, req Request) {
	switch f {
	case faultQuota:
		writeOpenAIError(w, http.StatusTooManyRequests,
			"You exceeded your current quota, please check your plan and billing details.",
			"insufficient_quota", "insufficient_quota")
	case faultRateLimit:
		writeOpenAIError(w, http.StatusTooManyRequests,
			"Rate limit reached for "+req.Model+" in organization org-fake on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 20s.",
			"requests", "rate_limit_exceeded")
	case faultInvalid, faultReject:
		if req.Key == "" {
			writeOpenAIError(w, http.StatusUnauthorized,
				"You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
				"invalid_request_error", nil)
			return
		}
		writeOpenAIError(w, http.StatusUnauthorized,
			"Incorrect API key provided: "+maskKey(req.Key)+". You can find your API key at https://platform.openai.com/account/api-keys.",
			"invalid_request_error", "invalid_api_key")
	}
}

// maskKey shows a key the way OpenAI's 401 message does: a few leading and
// the last four characters, never the whole key.
func maskKey(key string) string {
	if len(key) < 12 {
		return strings.Repeat("*", len(key))
	}
	return key[:3] + strings.Repeat("*", len(key)-7) + key[len(key)-4:]
}

// writeOpenAIError writes OpenAI's error envelope:
// {"error":{"message","type","param","code"}}.
func writeOpenAIError(w http.ResponseWriter, status int, message, typ string, code any) {
	writeJSON(w, status, map[string]any{"error": map[string]any{
		"message": message, "type": typ, "param": nil, "code": code,
	}})
}

func openAIErrorType(status int) string {
	if status >= 500 {
		return "server_error"
	}
	return "invalid_request_error"
}
