// Package aimodel holds what the AI provider clients (gemini, openai) share:
// the KeyedModel contract they implement, prompt checks, and the mapping of
// upstream failures to mediateka's typed errors with the API key scrubbed
// from every error text.
package aimodel

import (
	"context"
	"encoding/json"
	"fmt"

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
