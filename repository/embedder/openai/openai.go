// Package openai is the embedding client for OpenAI and every
// OpenAI-compatible /v1/embeddings server (Ollama, LM Studio, llama.cpp's
// server, vLLM), built on github.com/sashabaranov/go-openai like the chat
// client. It takes the API key per call, so the key store's rotation
// (usecase/apikey, Service.Embedder) serves every key with one client;
// local servers need no key.
package openai

import (
	"context"
	"fmt"
	"net/http"

	goopenai "github.com/sashabaranov/go-openai"

	"mediateka/domain"
	"mediateka/repository/aimodel"
	chat "mediateka/repository/aimodel/openai"
	"mediateka/repository/embedder/remote"
)

// Defaults used when Config leaves a field empty.
const (
	DefaultBaseURL = chat.DefaultBaseURL
	DefaultModel   = "text-embedding-3-small"
	// MaxBatch is the most texts one request carries: OpenAI takes up to
	// 2048 inputs per request.
	MaxBatch = 2048
	provider = "openai"
)

// Config configures a Client; see remote.Config.
type Config = remote.Config

// Client embeds texts with one model of an OpenAI-compatible server. It is
// safe for concurrent use.
type Client struct {
	baseURL     string
	model       string
	dimensions  int
	http        *http.Client
	batch       *remote.Batcher
	keyOptional bool
}

// New returns a client for cfg, filling in the defaults. An unusable base
// URL or batch size is a configuration error reported at once.
func New(cfg Config) (*Client, error) {
	r, err := cfg.Resolve(provider, DefaultBaseURL, DefaultModel, MaxBatch)
	if err != nil {
		return nil, err
	}
	// A configured base URL is a local or self-hosted server, which usually
	// needs no key.
	return &Client{baseURL: r.BaseURL, model: r.Model, dimensions: r.Dimensions, http: r.HTTPClient,
		batch: remote.NewBatcher(r), keyOptional: cfg.BaseURL != ""}, nil
}

// Provider returns "openai", the provider name of every OpenAI-compatible
// server and of the keys it uses.
func (c *Client) Provider() string { return provider }

// Model returns the model name sent upstream.
func (c *Client) Model() string { return c.model }

// Dimensions is the vector length: the configured one, else 0 until the
// first answer tells it.
func (c *Client) Dimensions() int { return c.batch.Dimensions() }

// Embed returns one unit vector per text, in order, asked with apiKey in
// batches. The answer's data are placed by their index, not by their order
// on the wire.
func (c *Client) Embed(ctx context.Context, apiKey string, texts []string) ([][]float32, error) {
	if apiKey == "" && !c.keyOptional {
		return nil, domain.ErrUnavailable(domain.ErrAIUnavailable.Code, "no API key is configured for openai", nil)
	}
	cfg := goopenai.DefaultConfig(apiKey)
	cfg.BaseURL = c.baseURL
	cfg.HTTPClient = c.http
	api := goopenai.NewClientWithConfig(cfg)
	return c.batch.Embed(ctx, texts, func(ctx context.Context, batch []string) ([][]float32, error) {
		resp, err := api.CreateEmbeddings(ctx, goopenai.EmbeddingRequest{
			Input: batch, Model: goopenai.EmbeddingModel(c.model), Dimensions: c.dimensions,
		})
		if err != nil {
			return nil, aimodel.Fail(ctx, chat.Classify(err), "openai embeddings", err, apiKey)
		}
		return byIndex(resp.Data, len(batch))
	})
}

// byIndex orders the answer's vectors by their index; a missing, repeated
// or out-of-range index makes the answer unusable.
func byIndex(data []goopenai.Embedding, n int) ([][]float32, error) {
	out := make([][]float32, n)
	for _, d := range data {
		if d.Index < 0 || d.Index >= n || out[d.Index] != nil {
			return nil, domain.ErrUnavailable(remote.MismatchCode,
				fmt.Sprintf("the server answered an embedding with index %d for %d texts, or twice", d.Index, n), nil)
		}
		out[d.Index] = d.Embedding
	}
	if len(data) != n {
		return nil, domain.ErrUnavailable(remote.MismatchCode, fmt.Sprintf("the server answered %d embeddings for %d texts", len(data), n), nil)
	}
	return out, nil
}
