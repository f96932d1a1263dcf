package apikey

import (
	"context"
	"errors"

	"mediateka/domain"
)

// Embedder is a domain.Embedder that asks an EmbedProvider with the
// provider's keys in the same rotation as Model: a throttled key is marked
// exhausted and the texts are embedded again with the next key, a refused
// key is marked rejected. One call of Embed is repeated whole, so a caller
// that embeds a large catalogue hands it over in parts (the index does, to
// report progress) and a key running out costs at most one part.
type Embedder struct {
	svc         *Service
	p           EmbedProvider
	keyOptional bool
}

// Embedder wraps p into a rotating embedder. keyOptional says p may be
// called without a key when the provider has no key in the rotation at all
// (a local Ollama or LM Studio server needs none).
func (s *Service) Embedder(p EmbedProvider, keyOptional bool) *Embedder {
	return &Embedder{svc: s, p: p, keyOptional: keyOptional}
}

// Name is the provider, "openai" or "gemini".
func (e *Embedder) Name() string { return e.p.Provider() }

// Model is the provider's embedding model.
func (e *Embedder) Model() string { return e.p.Model() }

// Dimensions is the vector length, 0 until the provider's first answer.
func (e *Embedder) Dimensions() int { return e.p.Dimensions() }

// Embed returns one vector per text, in order, rotating keys as needed.
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	var out [][]float32
	err := e.svc.rotate(ctx, e.p.Provider(), e.keyOptional, func(key string) error {
		var err error
		out, err = e.p.Embed(ctx, key, texts)
		return err
	}, func() bool { return true })
	return out, err
}

// WithKey is this embedder with one named key of the store, for a build
// someone asked to run on that key (POST /rag/build {"key"}): no rotation,
// since the person chose the key. A key of another provider is refused
// (Invalid), an unknown name is NotFound; a throttled or refused key
// still counts against that key as in the rotation.
func (e *Embedder) WithKey(ctx context.Context, name string) (domain.Embedder, error) {
	k, err := e.svc.Get(ctx, name)
	if err != nil {
		return nil, err
	}
	if k.Provider != e.p.Provider() {
		return nil, domain.ErrInvalid("the key "+name+" is for "+k.Provider+", the embedder is "+e.p.Provider(),
			map[string]string{"key": "must be a key of provider " + e.p.Provider()})
	}
	return &pinned{Embedder: e, key: k}, nil
}

// pinned is an Embedder held to one key.
type pinned struct {
	*Embedder
	key domain.APIKey
}

// Embed asks the provider with the pinned key only.
func (p *pinned) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out, err := p.p.Embed(ctx, p.key.Secret, texts)
	switch {
	case errors.Is(err, domain.ErrRateLimited):
		p.svc.markExhausted(ctx, p.key)
	case errors.Is(err, domain.ErrKeyRejected):
		p.svc.markRejected(ctx, p.key)
	}
	return out, err
}

var _ domain.Embedder = (*Embedder)(nil)
