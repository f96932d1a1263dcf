// Package gemini is the embedding client for the Gemini API, built on
// google.golang.org/genai like the chat client: Models.EmbedContent, which
// the Gemini API backend sends as one batchEmbedContents request per batch.
// It takes the API key per call, so the key store's rotation
// (usecase/apikey, Service.Embedder) serves every key with one client.
package gemini

import (
	"context"
	"net/http"

	"google.golang.org/genai"

	"mediateka/domain"
	"mediateka/repository/aimodel"
	chat "mediateka/repository/aimodel/gemini"
	"mediateka/repository/embedder/remote"
)

// Defaults used when Config leaves a field empty.
const (
	DefaultBaseURL = chat.DefaultBaseURL
	DefaultModel   = "gemini-embedding-001"
	// MaxBatch is the most texts one batchEmbedContents request takes.
	MaxBatch = 100
	provider = "gemini"
)

// Config configures a Client; see remote.Config.
type Config = remote.Config

// Client embeds texts with one Gemini embedding model. It is safe for
// concurrent use.
type Client struct {
	baseURL    string
	model      string
	dimensions int
	http       *http.Client
	batch      *remote.Batcher
}

// New returns a client for cfg, filling in the defaults. An unusable base
// URL or batch size is a configuration error reported at once.
func New(cfg Config) (*Client, error) {
	r, err := cfg.Resolve(provider, DefaultBaseURL, DefaultModel, MaxBatch)
	if err != nil {
		return nil, err
	}
	return &Client{baseURL: r.BaseURL, model: r.Model, dimensions: r.Dimensions, http: r.HTTPClient,
		batch: remote.NewBatcher(r)}, nil
}

// Provider returns "gemini", also the provider of the keys it uses.
func (c *Client) Provider() string { return provider }

// Model returns the model name sent upstream.
func (c *Client) Model() string { return c.model }

// Dimensions is the vector length: the configured one, else 0 until the
// first answer tells it.
func (c *Client) Dimensions() int { return c.batch.Dimensions() }

// Embed returns one unit vector per text, in order, asked with apiKey in
// batches of at most MaxBatch texts. The vectors are normalised here:
// Gemini normalises only its full-length vectors.
func (c *Client) Embed(ctx context.Context, apiKey string, texts []string) ([][]float32, error) {
	if apiKey == "" {
		// genai would fall back to GEMINI_API_KEY / GOOGLE_API_KEY from the
		// environment; keys come from the key store only.
		return nil, domain.ErrUnavailable(domain.ErrAIUnavailable.Code, "no API key is configured for gemini", nil)
	}
	api, err := genai.NewClient(ctx, &genai.ClientConfig{
		APIKey: apiKey, Backend: genai.BackendGeminiAPI, HTTPClient: c.http,
		HTTPOptions: genai.HTTPOptions{BaseURL: c.baseURL},
	})
	if err != nil {
		return nil, aimodel.Fail(ctx, domain.ErrAIUnavailable, "gemini client", err, apiKey)
	}
	// No task type: the index embeds documents and queries through the same
	// call, so both get the model's symmetric embedding.
	cfg := &genai.EmbedContentConfig{}
	if c.dimensions > 0 {
		n := int32(c.dimensions)
		cfg.OutputDimensionality = &n
	}
	return c.batch.Embed(ctx, texts, func(ctx context.Context, batch []string) ([][]float32, error) {
		contents := make([]*genai.Content, len(batch))
		for i, t := range batch {
			contents[i] = genai.NewContentFromText(t, genai.RoleUser)
		}
		resp, err := api.Models.EmbedContent(ctx, c.model, contents, cfg)
		if err != nil {
			return nil, aimodel.Fail(ctx, chat.Classify(err), "gemini embeddings", err, apiKey)
		}
		out := make([][]float32, len(resp.Embeddings))
		for i, e := range resp.Embeddings {
			if e != nil {
				out[i] = e.Values
			}
		}
		return out, nil
	})
}
