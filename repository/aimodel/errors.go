package aimodel

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"mediateka/domain"
)

// minSecretLen is the shortest key Redact scrubs. Shorter strings are not
// real secrets, and replacing them would garble ordinary words of a message.
const minSecretLen = 4

// redactedText replaces a secret in error texts.
const redactedText = "[redacted]"

// StatusError picks the typed error for an upstream HTTP status: 429 →
// domain.ErrRateLimited, 401 and 403 → domain.ErrKeyRejected, anything else
// → domain.ErrAIUnavailable. Providers add their own body-based rules on top
// (Gemini's RESOURCE_EXHAUSTED, OpenAI's insufficient_quota, …).
func StatusError(status int) *domain.Error {
	switch status {
	case http.StatusTooManyRequests:
		return domain.ErrRateLimited
	case http.StatusUnauthorized, http.StatusForbidden:
		return domain.ErrKeyRejected
	default:
		return domain.ErrAIUnavailable
	}
}

// Fail builds the error a provider client returns for a failed call: kind
// (one of the AI sentinels) wrapping "op: cause" with apiKey scrubbed. When
// ctx is already done the call was abandoned, so the result is
// domain.ErrAIUnavailable and errors.Is(err, context.Canceled) (or
// DeadlineExceeded) holds.
func Fail(ctx context.Context, kind *domain.Error, op string, cause error, apiKey string) error {
	red := &redacted{msg: scrub(fmt.Sprintf("%s: %v", op, cause), apiKey)}
	if ctxErr := ctx.Err(); ctxErr != nil {
		kind, red.ctxErr = domain.ErrAIUnavailable, ctxErr
	} else if errors.Is(cause, context.Canceled) || errors.Is(cause, context.DeadlineExceeded) {
		red.ctxErr = contextCause(cause)
	}
	return kind.Wrap(red)
}

// Redact returns an error whose text is err's with every occurrence of
// secret (and of its URL-encoded form) replaced by "[redacted]". The result
// unwraps only to context.Canceled or context.DeadlineExceeded, never to the
// original chain, whose inner texts could still carry the secret.
func Redact(err error, secret string) error {
	if err == nil {
		return nil
	}
	return &redacted{msg: scrub(err.Error(), secret), ctxErr: contextCause(err)}
}

// redacted is an error text with the key removed; see Redact.
type redacted struct {
	msg    string
	ctxErr error
}

func (r *redacted) Error() string { return r.msg }

func (r *redacted) Unwrap() error { return r.ctxErr }

func scrub(text, secret string) string {
	if len(secret) < minSecretLen {
		return text
	}
	text = strings.ReplaceAll(text, secret, redactedText)
	if esc := url.QueryEscape(secret); esc != secret {
		text = strings.ReplaceAll(text, esc, redactedText)
	}
	return text
}

func contextCause(err error) error {
	switch {
	case errors.Is(err, context.Canceled):
		return context.Canceled
	case errors.Is(err, context.DeadlineExceeded):
		return context.DeadlineExceeded
	default:
		return nil
	}
}
