package apikey

import (
	"context"
	"errors"
	"fmt"

	"mediateka/domain"
)

// maxAttempts bounds the keys one call tries. Each failed attempt takes a
// key out of the rotation, so the loop ends by itself when the keys run
// out; the bound only guards against a store that does not keep the marks.
const maxAttempts = 32

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

// rotate runs call with one key after another until it succeeds, fails for
// a reason another key cannot fix, or the keys run out.
func (m *Model) rotate(ctx context.Context, call func(key string) error, mayRetry func() bool) error {
	provider := m.p.Provider()
	for range maxAttempts {
		c, err := m.svc.acquire(ctx, provider)
		if err != nil {
			return fmt.Errorf("pick an api key for %s: %w", provider, err)
		}
		if !c.found {
			return m.noKey(c, call)
		}
		err = call(c.key.Secret)
		switch {
		case errors.Is(err, domain.ErrRateLimited):
			m.svc.markExhausted(ctx, c.key)
		case errors.Is(err, domain.ErrKeyRejected):
			m.svc.markRejected(ctx, c.key)
		default:
			return err
		}
		if !mayRetry() || ctx.Err() != nil {
			return err
		}
	}
	return domain.ErrUnavailable(domain.ErrAIUnavailable.Code, "too many API keys of "+provider+" failed in one call", nil)
}

// noKey handles a provider without a usable key: a keyless call when that
// is allowed and no key is meant to be used, else ai_unavailable saying why.
func (m *Model) noKey(c claim, call func(key string) error) error {
	provider := m.p.Provider()
	switch {
	case !c.configured && m.keyOptional:
		return call("")
	case c.configured:
		return domain.ErrUnavailable(domain.ErrAIUnavailable.Code,
			"every API key of "+provider+" is exhausted; they come back after the cool-down or a quota reset", nil)
	default:
		return domain.ErrUnavailable(domain.ErrAIUnavailable.Code, "no active API key of "+provider+" is configured", nil)
	}
}
