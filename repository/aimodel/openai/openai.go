// Package openai is the client for OpenAI and every OpenAI-compatible chat
// server (Ollama's /v1, LM Studio, vLLM, OpenRouter), built on
// github.com/sashabaranov/go-openai. It takes the API key per call so that
// one client serves every key of the key store's rotation; local servers
// need no key at all.
package openai

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	goopenai "github.com/sashabaranov/go-openai"

	"mediateka/domain"
	"mediateka/repository/aimodel"
)

// Defaults used when Config leaves a field empty.
const (
	DefaultBaseURL = "https://api.openai.com/v1"
	DefaultModel   = "gpt-4o-mini"
	DefaultTimeout = aimodel.DefaultTimeout
	provider       = "openai"
)

// Config configures a Client; see aimodel.Config.
type Config = aimodel.Config

// Client asks a chat model of an OpenAI-compatible server. It is safe for
// concurrent use.
type Client struct {
	baseURL     string
	model       string
	timeout     time.Duration
	http        *http.Client
	keyOptional bool
}

// New returns a client for cfg, filling in the defaults. An unusable base
// URL is a configuration error reported at once rather than on every call.
func New(cfg Config) (*Client, error) {
	r, err := cfg.Resolve(provider, DefaultBaseURL, DefaultModel)
	if err != nil {
		return nil, err
	}
	// A configured base URL is a local or self-hosted server, which usually
	// needs no key.
	return &Client{baseURL: r.BaseURL, model: r.Model, timeout: r.Timeout, http: r.HTTPClient,
		keyOptional: cfg.BaseURL != ""}, nil
}

// Provider returns "openai", the provider name of every OpenAI-compatible
// server.
func (c *Client) Provider() string { return provider }

// Model returns the model name sent upstream.
func (c *Client) Model() string { return c.model }

// Generate returns the model's whole answer to p, asked with apiKey.
func (c *Client) Generate(ctx context.Context, apiKey string, p domain.Prompt) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	api, err := c.client(apiKey, p)
	if err != nil {
		return "", err
	}
	resp, err := api.CreateChatCompletion(ctx, buildRequest(c.model, p))
	if err != nil {
		return "", aimodel.Fail(ctx, Classify(err), "openai generate", err, apiKey)
	}
	if len(resp.Choices) == 0 {
		return "", noAnswer("openai generate", "no choices")
	}
	msg := resp.Choices[0].Message
	switch {
	case msg.Content != "":
		return msg.Content, nil
	case msg.Refusal != "":
		// A refusal is the model's answer to the person, not a failure.
		return msg.Refusal, nil
	default:
		return "", noAnswer("openai generate", "finish reason "+string(resp.Choices[0].FinishReason))
	}
}

// Stream calls emit with each piece of the answer to p as it arrives. An
// error from emit stops the stream and is returned as it is; cancelling
// ctx closes the connection and returns at once. A stream that ends without
// any text is an error, as in Generate.
func (c *Client) Stream(ctx context.Context, apiKey string, p domain.Prompt, emit func(chunk string) error) error {
	api, err := c.client(apiKey, p)
	if err != nil {
		return err
	}
	stream, err := api.CreateChatCompletionStream(ctx, buildRequest(c.model, p))
	if err != nil {
		return aimodel.Fail(ctx, Classify(err), "openai stream", err, apiKey)
	}
	defer stream.Close()
	emitted := false
	for {
		resp, err := stream.Recv()
		if errors.Is(err, io.EOF) && emitted {
			return nil
		}
		if errors.Is(err, io.EOF) {
			return noAnswer("openai stream", "empty stream")
		}
		if err != nil {
			return aimodel.Fail(ctx, Classify(err), "openai stream", err, apiKey)
		}
		for _, choice := range resp.Choices {
			if choice.Index != 0 || choice.Delta.Content == "" {
				continue
			}
			emitted = true
			if err := emit(choice.Delta.Content); err != nil {
				return err
			}
		}
	}
}

// noAnswer is the error for an answer without text; the reason goes to the
// logs.
func noAnswer(op, reason string) error {
	return domain.ErrAIUnavailable.Wrap(fmt.Errorf("%s: the model returned no text (%s)", op, reason))
}

// client checks p and the key and returns a go-openai client bound to
// apiKey. go-openai fixes the key at client creation, so each call gets its
// own light client sharing c.http.
func (c *Client) client(apiKey string, p domain.Prompt) (*goopenai.Client, error) {
	if err := aimodel.CheckPrompt(p); err != nil {
		return nil, err
	}
	if apiKey == "" && !c.keyOptional {
		return nil, domain.ErrUnavailable(domain.ErrAIUnavailable.Code, "no API key is configured for openai", nil)
	}
	cfg := goopenai.DefaultConfig(apiKey)
	cfg.BaseURL = c.baseURL
	cfg.HTTPClient = c.http
	return goopenai.NewClientWithConfig(cfg), nil
}
