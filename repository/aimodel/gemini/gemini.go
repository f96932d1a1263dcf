// Package gemini is the Google Gemini provider client, built on
// google.golang.org/genai against the Gemini API (not Vertex AI). It takes
// the API key per call so that one client serves every key of the key
// store's rotation.
package gemini

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"google.golang.org/genai"

	"mediateka/domain"
	"mediateka/repository/aimodel"
)

// Defaults used when Config leaves a field empty.
const (
	DefaultBaseURL = "https://generativelanguage.googleapis.com/"
	DefaultModel   = "gemini-2.5-flash"
	DefaultTimeout = aimodel.DefaultTimeout
	provider       = "gemini"
)

// Config configures a Client; see aimodel.Config.
type Config = aimodel.Config

// Client asks a Gemini model. It is safe for concurrent use.
type Client struct {
	baseURL string
	model   string
	timeout time.Duration
	http    *http.Client
}

// New returns a client for cfg, filling in the defaults. An unusable base
// URL is a configuration error reported at once rather than on every call.
func New(cfg Config) (*Client, error) {
	r, err := cfg.Resolve(provider, DefaultBaseURL, DefaultModel)
	if err != nil {
		return nil, err
	}
	return &Client{baseURL: r.BaseURL, model: r.Model, timeout: r.Timeout, http: r.HTTPClient}, nil
}

// Provider returns "gemini".
func (c *Client) Provider() string { return provider }

// Model returns the model name sent upstream.
func (c *Client) Model() string { return c.model }

// Generate returns the model's whole answer to p, asked with apiKey.
func (c *Client) Generate(ctx context.Context, apiKey string, p domain.Prompt) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	api, contents, cfg, err := c.prepare(ctx, apiKey, p)
	if err != nil {
		return "", err
	}
	resp, err := api.Models.GenerateContent(ctx, c.model, contents, cfg)
	if err != nil {
		return "", aimodel.Fail(ctx, Classify(err), "gemini generate", err, apiKey)
	}
	if text := resp.Text(); text != "" {
		return text, nil
	}
	return "", noAnswer("gemini generate", resp)
}

// Stream calls emit with each piece of the answer to p as it arrives. An
// error from emit stops the stream and is returned as it is; cancelling
// ctx closes the connection and returns at once. A stream that ends without
// any text is an error, as in Generate.
func (c *Client) Stream(ctx context.Context, apiKey string, p domain.Prompt, emit func(chunk string) error) error {
	api, contents, cfg, err := c.prepare(ctx, apiKey, p)
	if err != nil {
		return err
	}
	var last *genai.GenerateContentResponse
	emitted := false
	for resp, err := range api.Models.GenerateContentStream(ctx, c.model, contents, cfg) {
		if err != nil {
			return aimodel.Fail(ctx, Classify(err), "gemini stream", err, apiKey)
		}
		last = resp
		if text := resp.Text(); text != "" {
			emitted = true
			if err := emit(text); err != nil {
				return err
			}
		}
		if ctx.Err() != nil {
			return aimodel.Fail(ctx, domain.ErrAIUnavailable, "gemini stream", ctx.Err(), apiKey)
		}
	}
	if !emitted {
		return noAnswer("gemini stream", last)
	}
	return nil
}

// prepare checks p and builds a genai client bound to apiKey plus the
// request. genai fixes the key at client creation, so each call gets its own
// light client sharing c.http.
func (c *Client) prepare(ctx context.Context, apiKey string, p domain.Prompt) (*genai.Client, []*genai.Content, *genai.GenerateContentConfig, error) {
	if err := aimodel.CheckPrompt(p); err != nil {
		return nil, nil, nil, err
	}
	if apiKey == "" {
		// genai would fall back to GEMINI_API_KEY / GOOGLE_API_KEY from the
		// environment; keys come from the key store only.
		return nil, nil, nil, domain.ErrUnavailable(domain.ErrAIUnavailable.Code, "no API key is configured for gemini", nil)
	}
	api, err := genai.NewClient(ctx, &genai.ClientConfig{
		APIKey:      apiKey,
		Backend:     genai.BackendGeminiAPI,
		HTTPClient:  c.http,
		HTTPOptions: genai.HTTPOptions{BaseURL: c.baseURL},
	})
	if err != nil {
		return nil, nil, nil, aimodel.Fail(ctx, domain.ErrAIUnavailable, "gemini client", err, apiKey)
	}
	contents, cfg := buildRequest(p)
	return api, contents, cfg, nil
}

// noAnswer is the error for an answer without text, which Gemini sends when
// it blocks a prompt (promptFeedback.blockReason) or stops a candidate for
// safety and the like (finishReason); the reason goes to the logs.
func noAnswer(op string, resp *genai.GenerateContentResponse) error {
	reason := "no candidates"
	switch {
	case resp == nil:
		reason = "no response"
	case resp.PromptFeedback != nil && resp.PromptFeedback.BlockReason != "":
		reason = "prompt blocked: " + string(resp.PromptFeedback.BlockReason)
	case len(resp.Candidates) > 0:
		reason = "finish reason " + string(resp.Candidates[0].FinishReason)
	}
	return domain.ErrAIUnavailable.Wrap(fmt.Errorf("%s: the model returned no text (%s)", op, reason))
}
