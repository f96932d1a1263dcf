// Package domain holds mediateka's entities, typed errors and the interfaces
// every layer shares (Plugin, AIModel). It imports only the standard library so
// that use cases, plugins, repositories and delivery can all depend on it
// without cycles.
package domain

import (
	"errors"
	"fmt"
)

// Kind classifies an error by what the caller can do about it. The HTTP error
// handler maps kinds to statuses in one place, so no handler picks a status by
// looking at a message.
type Kind int

// The kinds of failure a use case reports.
const (
	KindInternal     Kind = iota // unexpected: logged, shown as "internal"
	KindInvalid                  // the input is wrong: 400
	KindUnauthorized             // no or bad credentials: 401
	KindForbidden                // authenticated but not allowed: 403
	KindNotFound                 // no such resource: 404
	KindConflict                 // clashes with the current state: 409
	KindTooLarge                 // body or value over a limit: 413
	KindTooMany                  // throttled: 429
	KindUnavailable              // an external dependency is down or not configured: 503
)

// Error is the typed error every use case returns for an expected failure.
// Code is a stable snake_case slug clients may switch on; Message is for people;
// Fields names the offending input fields of a validation error.
type Error struct {
	Kind    Kind
	Code    string
	Message string
	Fields  map[string]string
	Err     error // the cause, for logs only; never shown to clients
}

// Error implements error. The cause is included so logs keep it.
func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Message, e.Err)
	}
	return e.Code + ": " + e.Message
}

// Unwrap exposes the cause to errors.Is / errors.As.
func (e *Error) Unwrap() error { return e.Err }

// Is reports whether target is a typed error with the same Kind and Code.
// Wrap returns a copy, so pointer identity would make
// errors.Is(err, ErrRateLimited) fail for every wrapped sentinel; comparing
// the stable code keeps errors.Is working for copies and for errors built
// afresh with the same code.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Kind == e.Kind && t.Code == e.Code
}

// NewError builds a typed error.
func NewError(kind Kind, code, message string) *Error {
	return &Error{Kind: kind, Code: code, Message: message}
}

// Wrap returns a copy of e that records cause for the logs.
func (e *Error) Wrap(cause error) *Error {
	c := *e
	c.Err = cause
	return &c
}

// ErrInvalid is a validation failure with per-field reasons.
func ErrInvalid(message string, fields map[string]string) *Error {
	return &Error{Kind: KindInvalid, Code: "invalid_input", Message: message, Fields: fields}
}

// ErrNotFound reports a missing resource with the generic code.
func ErrNotFound(what string) *Error {
	return &Error{Kind: KindNotFound, Code: "not_found", Message: what + " not found"}
}

// ErrConflict reports a duplicate on create with the generic code.
func ErrConflict(message string) *Error {
	return &Error{Kind: KindConflict, Code: "already_exists", Message: message}
}

// ErrUnavailable reports an unreachable or unconfigured dependency.
func ErrUnavailable(code, message string, cause error) *Error {
	return &Error{Kind: KindUnavailable, Code: code, Message: message, Err: cause}
}

// Common errors shared by several use cases.
var (
	ErrUnauthorized       = NewError(KindUnauthorized, "unauthorized", "authentication required")
	ErrTokenExpired       = NewError(KindUnauthorized, "token_expired", "the token has expired")
	ErrForbidden          = NewError(KindForbidden, "forbidden", "you do not have the rights for this")
	ErrInvalidCredentials = NewError(KindUnauthorized, "invalid_credentials", "wrong e-mail or password")
	ErrTooManyAttempts    = NewError(KindTooMany, "too_many_attempts", "too many failed logins, try again in a minute")
)

// Errors of the AI model providers. They are all KindUnavailable (503 to
// clients) but carry distinct codes, because the key store reacts
// differently: a rate-limited key is marked exhausted and the call retried
// with the next key, a rejected key needs a person, and anything else means
// the provider itself cannot be reached.
var (
	ErrRateLimited   = NewError(KindUnavailable, "rate_limited", "the AI provider's rate limit or quota for this key is used up")
	ErrKeyRejected   = NewError(KindUnavailable, "key_rejected", "the AI provider rejected the API key")
	ErrAIUnavailable = NewError(KindUnavailable, "ai_unavailable", "the AI model is unreachable")
)

// KindOf reports the kind of err: the Kind of a wrapped *Error, or
// KindInternal for anything else.
func KindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return KindInternal
}

// IsKind reports whether err is a typed error of the given kind.
func IsKind(err error, kind Kind) bool {
	var e *Error
	return errors.As(err, &e) && e.Kind == kind
}
