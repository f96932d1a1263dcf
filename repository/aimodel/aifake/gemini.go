package aifake

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// Gemini is a fake Gemini API (generativelanguage.googleapis.com, v1beta).
// It serves POST /v1beta/models/{model}:generateContent,
// :streamGenerateContent?alt=sse and :batchEmbedContents, reads the key
// from the x-goog-api-key header (what google.golang.org/genai sends) or
// the key query parameter,
// and answers in the REST API's JSON: candidates[].content.parts[].text,
// finishReason, usageMetadata; streams are SSE events of the same shape.
type Gemini struct {
	*recorder
	srv *httptest.Server
}

// NewGemini starts a fake Gemini server that is closed when t ends.
func NewGemini(t testing.TB) *Gemini {
	g := &Gemini{recorder: newRecorder()}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1beta/models/{call}", g.serve)
	g.srv = httptest.NewServer(mux)
	t.Cleanup(g.Close)
	return g
}

// URL is the base URL to configure a client with (genai's
// HTTPOptions.BaseURL); the API version is added by the client.
func (g *Gemini) URL() string { return g.srv.URL }

// Close stops the server, first releasing streams that are waiting.
func (g *Gemini) Close() {
	g.close()
	g.srv.Close()
}

// RateLimit makes the fake answer 429 RESOURCE_EXHAUSTED, Gemini's quota
// error, to every request with key.
func (g *Gemini) RateLimit(key string) { g.setFault(key, faultRateLimit) }

// InvalidKey makes the fake answer key the way Gemini really answers an
// unknown key: 400 INVALID_ARGUMENT with reason API_KEY_INVALID.
func (g *Gemini) InvalidKey(key string) { g.setFault(key, faultInvalid) }

func (g *Gemini) serve(w http.ResponseWriter, r *http.Request) {
	model, method, _ := strings.Cut(r.PathValue("call"), ":")
	if method == "batchEmbedContents" {
		g.serveEmbeddings(w, r, model)
		return
	}
	stream := method == "streamGenerateContent"
	if !stream && method != "generateContent" {
		writeGeminiError(w, http.StatusNotFound, "NOT_FOUND", "method "+method+" is not served by the fake")
		return
	}
	if stream && r.URL.Query().Get("alt") != "sse" {
		writeGeminiError(w, http.StatusBadRequest, "INVALID_ARGUMENT", "the fake streams only with alt=sse")
		return
	}
	req, err := decodeGemini(r, model, stream)
	if err != nil {
		writeGeminiError(w, http.StatusBadRequest, "INVALID_ARGUMENT", "Invalid JSON payload received. "+err.Error())
		return
	}
	p := g.record(req)
	switch {
	case p.status != 0:
		writeGeminiError(w, p.status, grpcStatus(p.status), "fake failure "+http.StatusText(p.status))
	case p.fault != faultNone:
		writeGeminiFault(w, p.fault)
	case stream:
		g.stream(w, r, req, p)
	default:
		writeJSON(w, http.StatusOK, geminiResponse(req, p.chunks, strings.Join(p.chunks, ""), true))
	}
}

func (g *Gemini) stream(w http.ResponseWriter, r *http.Request, req Request, p plan) {
	startSSE(w)
	for i, chunk := range p.chunks {
		if i > 0 && !g.wait(r, p.delay) {
			return
		}
		data, _ := json.Marshal(geminiResponse(req, p.chunks[:i+1], chunk, i == len(p.chunks)-1))
		// Google's servers end each event with CRLF CRLF.
		if writeEvent(w, data, "\r\n\r\n") != nil {
			return
		}
	}
}

// gemContent is Gemini's Content: a role and its parts.
type gemContent struct {
	Role  string `json:"role,omitempty"`
	Parts []struct {
		Text string `json:"text"`
	} `json:"parts"`
}

func (c gemContent) text() string {
	var b strings.Builder
	for _, p := range c.Parts {
		b.WriteString(p.Text)
	}
	return b.String()
}

// gemRequest is the part of GenerateContentRequest the fake understands.
type gemRequest struct {
	Contents          []gemContent `json:"contents"`
	SystemInstruction *gemContent  `json:"systemInstruction"`
	GenerationConfig  struct {
		ResponseMIMEType   string          `json:"responseMimeType"`
		ResponseSchema     json.RawMessage `json:"responseSchema"`
		ResponseJSONSchema json.RawMessage `json:"responseJsonSchema"`
	} `json:"generationConfig"`
}

func decodeGemini(r *http.Request, model string, stream bool) (Request, error) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return Request{}, err
	}
	var in gemRequest
	if err := json.Unmarshal(body, &in); err != nil {
		return Request{}, err
	}
	req := Request{
		Path: r.URL.Path, Model: model, Key: geminiKey(r), Header: r.Header.Clone(),
		Stream: stream, Body: body, Format: in.GenerationConfig.ResponseMIMEType,
		Schema: in.GenerationConfig.ResponseJSONSchema,
	}
	if len(req.Schema) == 0 {
		req.Schema = in.GenerationConfig.ResponseSchema
	}
	if in.SystemInstruction != nil {
		req.System = in.SystemInstruction.text()
	}
	for i, c := range in.Contents {
		if i == len(in.Contents)-1 && c.Role != "model" {
			req.Message = c.text()
			break
		}
		req.History = append(req.History, Turn{Role: c.Role, Text: c.text()})
	}
	return req, nil
}

func geminiKey(r *http.Request) string {
	if k := r.Header.Get("x-goog-api-key"); k != "" {
		return k
	}
	return r.URL.Query().Get("key")
}

// geminiResponse is a GenerateContentResponse carrying text; usage counts
// words of the request and of the answer so far.
func geminiResponse(req Request, sofar []string, text string, last bool) map[string]any {
	cand := map[string]any{
		"content": map[string]any{"role": "model", "parts": []any{map[string]any{"text": text}}},
		"index":   0,
	}
	if last {
		cand["finishReason"] = "STOP"
	}
	prompt := words(req.System + " " + req.Message)
	for _, t := range req.History {
		prompt += words(t.Text)
	}
	answer := words(strings.Join(sofar, ""))
	return map[string]any{
		"candidates": []any{cand},
		"usageMetadata": map[string]any{
			"promptTokenCount": prompt, "candidatesTokenCount": answer, "totalTokenCount": prompt + answer,
		},
		"modelVersion": req.Model,
		"responseId":   fmt.Sprintf("fake-%d", len(req.Body)),
	}
}

func words(s string) int { return len(strings.Fields(s)) }

func writeGeminiFault(w http.ResponseWriter, f keyFault) {
	switch f {
	case faultRateLimit, faultQuota:
		writeGeminiError(w, http.StatusTooManyRequests, "RESOURCE_EXHAUSTED",
			"You exceeded your current quota, please check your plan and billing details.",
			map[string]any{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "30s"})
	case faultInvalid:
		writeGeminiError(w, http.StatusBadRequest, "INVALID_ARGUMENT",
			"API key not valid. Please pass a valid API key.",
			map[string]any{
				"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "API_KEY_INVALID",
				"domain": "googleapis.com", "metadata": map[string]any{"service": "generativelanguage.googleapis.com"},
			})
	default:
		writeGeminiError(w, http.StatusUnauthorized, "UNAUTHENTICATED",
			"Request had invalid authentication credentials.")
	}
}

// writeGeminiError writes Google's error envelope:
// {"error":{"code","message","status","details"}}.
func writeGeminiError(w http.ResponseWriter, code int, status, message string, details ...map[string]any) {
	body := map[string]any{"code": code, "message": message, "status": status}
	if len(details) > 0 {
		body["details"] = details
	}
	writeJSON(w, code, map[string]any{"error": body})
}

// grpcStatus names the google.rpc.Code Google sends with an HTTP status.
func grpcStatus(code int) string {
	switch code {
	case http.StatusBadRequest:
		return "INVALID_ARGUMENT"
	case http.StatusUnauthorized:
		return "UNAUTHENTICATED"
	case http.StatusForbidden:
		return "PERMISSION_DENIED"
	case http.StatusNotFound:
		return "NOT_FOUND"
	case http.StatusTooManyRequests:
		return "RESOURCE_EXHAUSTED"
	case http.StatusServiceUnavailable:
		return "UNAVAILABLE"
	case http.StatusGatewayTimeout:
		return "DEADLINE_EXCEEDED"
	default:
		return "INTERNAL"
	}
}
