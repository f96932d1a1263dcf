package apikey

import (
	"context"

	"mediateka/domain"
)

// Store is what the key service needs from the key repository. Secrets are
// plain here: sealing them at rest is the repository's job.
type Store interface {
	// List returns every key in rotation order (the order they were added).
	List(ctx context.Context) ([]domain.APIKey, error)
	Get(ctx context.Context, name string) (domain.APIKey, error)
	// Create stores a new key; a taken name is a Conflict.
	Create(ctx context.Context, k domain.APIKey) (domain.APIKey, error)
	Delete(ctx context.Context, name string) error
	// Update changes one key atomically: fn sees the stored key and edits
	// it; an error from fn leaves the key as it was.
	Update(ctx context.Context, name string, fn func(k *domain.APIKey) error) (domain.APIKey, error)
	// UpdateProvider shows fn every key of provider in rotation order, in
	// one atomic step, and stores the keys fn returns as changed.
	UpdateProvider(ctx context.Context, provider string, fn func(keys []domain.APIKey) ([]domain.APIKey, error)) error
}

// Provider is a text model that takes the API key per call: the gemini and
// openai clients of repository/aimodel. Its errors are typed:
// domain.ErrRateLimited (429 or quota) makes the rotation mark the key
// exhausted and try the next one, domain.ErrKeyRejected marks the key
// rejected and tries the next one, anything else ends the call.
type Provider interface {
	// Provider names the provider, which is also the provider field of the
	// keys it uses: "gemini" or "openai".
	Provider() string
	Model() string
	Generate(ctx context.Context, apiKey string, p domain.Prompt) (string, error)
	Stream(ctx context.Context, apiKey string, p domain.Prompt, emit func(chunk string) error) error
}

// EmbedProvider is an embedding model that takes the API key per call: the
// openai and gemini clients of repository/embedder. Its errors are typed as
// Provider's, so the same rotation serves it.
type EmbedProvider interface {
	// Provider names the provider and the keys it uses: "openai" or "gemini".
	Provider() string
	Model() string
	// Dimensions is the vector length, 0 until the first answer tells it.
	Dimensions() int
	// Embed returns one L2-normalised vector per text, in order, asked with
	// apiKey; the client batches as it needs.
	Embed(ctx context.Context, apiKey string, texts []string) ([][]float32, error)
}
