// Package aimodel holds what the AI provider clients (gemini, openai) share:
// the KeyedModel contract they implement, prompt checks, and the mapping of
// upstream failures to mediateka's typed errors with the API key scrubbed
// from every error text.
package aimodel

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"mediateka/domain"
)

// KeyedModel is a text model of one provider that takes the API key per
// call. The key store (which rotates keys and marks exhausted ones) wraps it
// into a domain.AIModel; keeping the key out of the client lets one client
// serve every key of its provider.
//
// Errors are typed: errors.Is(err, domain.ErrRateLimited) for an upstream 429
// or quota answer, domain.ErrKeyRejected for a key the provider refuses,
// domain.ErrAIUnavailable for anything else (connection refused, 5xx,
// timeout, cancelled context). No error text ever contains the key.
type KeyedModel interface {
	// Provider is the provider's name: "gemini" or "openai".
	Provider() string
	// Model is the model name sent upstream, e.g. "gemini-2.5-flash".
	Model() string
	// Generate returns the whole answer to p.
	Generate(ctx context.Context, apiKey string, p domain.Prompt) (string, error)
	// Stream calls emit with each piece of the answer as it arrives. An error
	// from emit stops the stream and is returned unchanged; cancelling ctx
	// stops the stream promptly.
	Stream(ctx context.Context, apiKey string, p domain.Prompt, emit func(chunk string) error) error
}

// CheckPrompt rejects a prompt that no provider could be sent: a history turn
// whose role is not user, model or assistant, or a schema that is not a JSON
// object. It runs before any network call, so bad input is never blamed on
// the provider.
func CheckPrompt(p domain.Prompt) error {
	for i, turn := range p.History {
		switch turn.Role {
		case domain.TurnUser, domain.TurnModel, domain.TurnAssistant:
		default:
			field := fmt.Sprintf("history[%d].role", i)
			return domain.ErrInvalid("unknown chat role", map[string]string{field: "must be user, model or assistant"})
		}
	}
	if len(p.Schema) == 0 {
		return nil
	}
	var obj map[string]any
	if err := json.Unmarshal(p.Schema, &obj); err != nil {
		return domain.ErrInvalid("the answer schema is not a JSON object", map[string]string{"schema": "must be a JSON object"})
	}
	return nil
}

// IsModelTurn reports whether a history role is the model's side of the
// dialogue: "model" or its synonym "assistant".
func IsModelTurn(role string) bool {
	return role == domain.TurnModel || role == domain.TurnAssistant
}

// DefaultTimeout bounds one Generate call when Config leaves it unset.
const DefaultTimeout = 2 * time.Minute

// Config configures a provider client. Every field is optional.
type Config struct {
	// BaseURL is the API root, e.g. a test fake's URL or a local
	// OpenAI-compatible server. Set explicitly so no library picks one from
	// the environment.
	BaseURL string
	// Model is the model name sent upstream.
	Model string
	// Timeout bounds one Generate call. Streams are bounded by their context
	// only, since a long answer may legitimately take minutes.
	Timeout time.Duration
	// HTTPClient carries every request, so connections are reused across
	// calls and keys; a fresh client is made when nil.
	HTTPClient *http.Client
}

// Resolve fills cfg's empty fields with the provider's defaults and checks
// the base URL, so an unusable one is a configuration error reported at
// start rather than on every call.
func (cfg Config) Resolve(provider, defaultBaseURL, defaultModel string) (Config, error) {
	if cfg.BaseURL == "" {
		cfg.BaseURL = defaultBaseURL
	}
	if u, err := url.Parse(cfg.BaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return Config{}, domain.ErrInvalid("bad "+provider+" base URL", map[string]string{"base_url": "must be an http(s) URL"})
	}
	if cfg.Model == "" {
		cfg.Model = defaultModel
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{}
	}
	return cfg, nil
}
