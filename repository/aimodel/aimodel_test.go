package aimodel_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/repository/aimodel"
)

const secret = "AIzaSECRET-key/with+chars=="

func TestCheckPrompt(t *testing.T) {
	tests := []struct {
		name string
		p    domain.Prompt
		ok   bool
	}{
		{"empty prompt", domain.Prompt{Message: "hi"}, true},
		{"all roles", domain.Prompt{History: []domain.ChatTurn{{Role: "user"}, {Role: "model"}, {Role: "assistant"}}}, true},
		{"unknown role", domain.Prompt{History: []domain.ChatTurn{{Role: "user"}, {Role: "system"}}}, false},
		{"schema object", domain.Prompt{Schema: json.RawMessage(`{"type":"object"}`)}, true},
		{"schema not JSON", domain.Prompt{Schema: json.RawMessage(`{type`)}, false},
		{"schema not an object", domain.Prompt{Schema: json.RawMessage(`[1]`)}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := aimodel.CheckPrompt(tt.p)
			if tt.ok {
				assert.NoError(t, err)
				return
			}
			assert.True(t, domain.IsKind(err, domain.KindInvalid), "got %v", err)
		})
	}
}

func TestIsModelTurn(t *testing.T) {
	assert.True(t, aimodel.IsModelTurn("model"))
	assert.True(t, aimodel.IsModelTurn("assistant"))
	assert.False(t, aimodel.IsModelTurn("user"))
}

func TestStatusError(t *testing.T) {
	assert.Same(t, domain.ErrRateLimited, aimodel.StatusError(http.StatusTooManyRequests))
	assert.Same(t, domain.ErrKeyRejected, aimodel.StatusError(http.StatusUnauthorized))
	assert.Same(t, domain.ErrKeyRejected, aimodel.StatusError(http.StatusForbidden))
	assert.Same(t, domain.ErrAIUnavailable, aimodel.StatusError(http.StatusInternalServerError))
	assert.Same(t, domain.ErrAIUnavailable, aimodel.StatusError(http.StatusBadRequest))
}

func TestFailScrubsTheKeyAndKeepsTheKind(t *testing.T) {
	cause := fmt.Errorf("GET https://x/?key=%s: bad key %s", url.QueryEscape(secret), secret)
	err := aimodel.Fail(context.Background(), domain.ErrKeyRejected, "gemini generate", cause, secret)

	require.ErrorIs(t, err, domain.ErrKeyRejected)
	assert.NotContains(t, err.Error(), secret)
	assert.NotContains(t, err.Error(), url.QueryEscape(secret))
	assert.Contains(t, err.Error(), "gemini generate")
	assert.Contains(t, err.Error(), "[redacted]")
}

func TestFailOnADoneContextIsUnavailableAndCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := aimodel.Fail(ctx, domain.ErrRateLimited, "op", errors.New("read: body closed"), secret)

	assert.ErrorIs(t, err, domain.ErrAIUnavailable)
	assert.NotErrorIs(t, err, domain.ErrRateLimited)
	assert.ErrorIs(t, err, context.Canceled)
}

func TestFailKeepsADeadlineFromTheCause(t *testing.T) {
	err := aimodel.Fail(context.Background(), domain.ErrAIUnavailable, "op", fmt.Errorf("x: %w", context.DeadlineExceeded), "")
	assert.ErrorIs(t, err, context.DeadlineExceeded)
}

func TestRedact(t *testing.T) {
	assert.NoError(t, aimodel.Redact(nil, secret))

	inner := errors.New("inner " + secret)
	err := aimodel.Redact(fmt.Errorf("outer: %w", inner), secret)
	assert.Equal(t, "outer: inner [redacted]", err.Error())
	assert.NotErrorIs(t, err, inner, "the unscrubbed chain must not be reachable")

	short := aimodel.Redact(errors.New("a cat"), "a")
	assert.Equal(t, "a cat", short.Error(), "too short to be a key, left alone")
}
