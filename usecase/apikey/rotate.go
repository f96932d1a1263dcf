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

// rotate is the one key rotation every keyed client goes through (the chat
// Model and the Embedder): it runs call with one key of provider after
// another until it succeeds, fails for a reason another key cannot fix, or
// the keys run out. A key the provider throttles is marked exhausted, a key
// it refuses is marked rejected; mayRetry says whether the call may still
// be repeated with the next key (a stream that has shown text may not).
// keyOptional allows one call without a key when provider has no key in the
// rotation at all.
func (s *Service) rotate(ctx context.Context, provider string, keyOptional bool, call func(key string) error, mayRetry func() bool) error {
	for range maxAttempts {
		c, err := s.acquire(ctx, provider)
		if err != nil {
			return fmt.Errorf("pick an api key for %s: %w", provider, err)
		}
		if !c.found {
			return noKey(provider, c, keyOptional, call)
		}
		err = call(c.key.Secret)
		switch {
		case errors.Is(err, domain.ErrRateLimited):
			s.markExhausted(ctx, c.key)
		case errors.Is(err, domain.ErrKeyRejected):
			s.markRejected(ctx, c.key)
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
func noKey(provider string, c claim, keyOptional bool, call func(key string) error) error {
	switch {
	case !c.configured && keyOptional:
		return call("")
	case c.configured:
		return domain.ErrUnavailable(domain.ErrAIUnavailable.Code,
			"every API key of "+provider+" is exhausted; they come back after the cool-down or a quota reset", nil)
	default:
		return domain.ErrUnavailable(domain.ErrAIUnavailable.Code, "no active API key of "+provider+" is configured", nil)
	}
}
