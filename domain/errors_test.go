package domain

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

func TestErrorIsMatchesKindAndCode(t *testing.T) {
	cause := fmt.Errorf("upstream: %w", context.Canceled)
	tests := []struct {
		name   string
		err    error
		target error
		want   bool
	}{
		{"sentinel itself", ErrRateLimited, ErrRateLimited, true},
		{"wrapped copy", ErrRateLimited.Wrap(cause), ErrRateLimited, true},
		{"wrapped copy under fmt.Errorf", fmt.Errorf("generate: %w", ErrKeyRejected.Wrap(cause)), ErrKeyRejected, true},
		{"fresh error with the same code", ErrUnavailable("ai_unavailable", "no key", nil), ErrAIUnavailable, true},
		{"same kind, other code", ErrKeyRejected.Wrap(cause), ErrRateLimited, false},
		{"same code, other kind", NewError(KindInternal, "rate_limited", "x"), ErrRateLimited, false},
		{"cause stays reachable", ErrAIUnavailable.Wrap(cause), context.Canceled, true},
		{"plain error", errors.New("rate_limited"), ErrRateLimited, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := errors.Is(tt.err, tt.target); got != tt.want {
				t.Fatalf("errors.Is(%v, %v) = %v, want %v", tt.err, tt.target, got, tt.want)
			}
		})
	}
}

func TestAIErrorsAreUnavailable(t *testing.T) {
	for _, e := range []*Error{ErrRateLimited, ErrKeyRejected, ErrAIUnavailable} {
		if e.Kind != KindUnavailable {
			t.Errorf("%s: kind %v, want KindUnavailable", e.Code, e.Kind)
		}
		if !IsKind(fmt.Errorf("x: %w", e.Wrap(errors.New("cause"))), KindUnavailable) {
			t.Errorf("%s: IsKind through wrapping failed", e.Code)
		}
	}
}

func TestWrapDoesNotChangeTheSentinel(t *testing.T) {
	_ = ErrRateLimited.Wrap(errors.New("cause"))
	if ErrRateLimited.Err != nil {
		t.Fatal("Wrap modified the shared sentinel")
	}
}
