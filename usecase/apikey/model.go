package apikey

import (
	"context"

	"mediateka/domain"
)

// Model is a domain.AIModel that asks a Provider with the provider's keys in
// rotation: the first active key is used; a key the provider throttles (429,
// quota) is marked exhausted and the call is repeated with the next key; a
// key the provider refuses is marked rejected and the next key is tried.
// When every key is used up the answer is domain.ErrAIUnavailable.
type Model struct {
	svc *Service
	p   Provider
	// keyOptional allows a call without a key when the provider has none
	// in the rotation: an OpenAI-compatible server on the local network
	// (Ollama, LM Studio) usually needs no key.
	keyOptional bool
}

// Model wraps p into a rotating model. keyOptional says p may be called
// without a key when the provider has no key in the rotation at all.
func (s *Service) Model(p Provider, keyOptional bool) *Model {
	return &Model{svc: s, p: p, keyOptional: keyOptional}
}

// Name is "<provider>/<model>".
func (m *Model) Name() string { return m.p.Provider() + "/" + m.p.Model() }

// Generate returns the whole answer, rotating keys as needed.
func (m *Model) Generate(ctx context.Context, p domain.Prompt) (string, error) {
	var out string
	err := m.rotate(ctx, func(key string) error {
		var err error
		out, err = m.p.Generate(ctx, key, p)
		return err
	}, func() bool { return true })
	return out, err
}

// Stream emits the answer as it arrives. A key is only swapped while
// nothing has been emitted: once the person has seen part of an answer,
// starting over with another key would repeat it, so a later failure ends
// the stream (the key is still marked).
func (m *Model) Stream(ctx context.Context, p domain.Prompt, emit func(chunk string) error) error {
	emitted := false
	return m.rotate(ctx, func(key string) error {
		return m.p.Stream(ctx, key, p, func(chunk string) error {
			emitted = true
			return emit(chunk)
		})
	}, func() bool { return !emitted })
}

// rotate runs call through the key rotation of m's provider.
func (m *Model) rotate(ctx context.Context, call func(key string) error, mayRetry func() bool) error {
	return m.svc.rotate(ctx, m.p.Provider(), m.keyOptional, call, mayRetry)
}
