package remote_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/repository/tts/remote"
)

const key = "sk-remote-TEST0123456789"

var spec = remote.Spec{Provider: "acme", Server: "Acme Speech", UnreachableHint: "check the network",
	OddStatusHint: "check its base URL", Fields: []remote.Field{{Word: "voice", Name: "voice"}, {Word: "model", Name: "model"}}}

// answer is an error answer of status with body.
func answer(status int, body string) *http.Response {
	rec := httptest.NewRecorder()
	rec.WriteHeader(status)
	_, _ = rec.WriteString(body)
	return rec.Result()
}

// TestStatusErrorMapsTheClassOrTheBody: the engines' own tests reach these
// through their fakes; here are the cases neither fake answers.
func TestStatusErrorMapsTheClassOrTheBody(t *testing.T) {
	for _, c := range []struct {
		status int
		body   string
		f      remote.Failure
		want   *domain.Error
		says   string
		field  string
	}{
		{400, "", remote.Failure{Message: "throttled", RateLimited: true}, domain.ErrRateLimited, "throttled", ""},
		{400, "", remote.Failure{Message: "bad key " + key, Rejected: true}, domain.ErrKeyRejected, "bad key [redacted]", ""},
		{400, "", remote.Failure{Message: "model or voice unknown"}, nil, "Acme Speech refused the request: model or voice unknown", "voice"},
		{422, "", remote.Failure{Message: "too long"}, nil, "too long", "text"},
		{502, "<html>Bad gateway " + key + "</html>", remote.Failure{}, domain.ErrTTSUnavailable, "Acme Speech is failing (HTTP 502)", ""},
		{302, "", remote.Failure{}, domain.ErrTTSUnavailable, "Acme Speech answered HTTP 302; check its base URL", ""},
	} {
		name := fmt.Sprintf("HTTP %d %s", c.status, c.f.Message)
		err := spec.StatusError(answer(c.status, c.body), key, func([]byte) remote.Failure { return c.f })
		assert.Contains(t, err.Error(), c.says, name)
		assert.NotContains(t, err.Error(), key, name)
		assert.Contains(t, err.Error(), "acme tts: HTTP", name)
		if c.want != nil {
			assert.ErrorIs(t, err, c.want, name)
			continue
		}
		var de *domain.Error
		require.ErrorAs(t, err, &de, name)
		assert.Equal(t, domain.KindInvalid, de.Kind, name)
		assert.Equal(t, map[string]string{c.field: c.f.Message}, de.Fields, name)
	}
}

// TestStatusErrorReadsABoundedBody: read gets at most MaxErrorBody, and a
// body without a message is quoted by its first 300 bytes.
func TestStatusErrorReadsABoundedBody(t *testing.T) {
	var got int
	err := spec.StatusError(answer(500, strings.Repeat("x", 3*remote.MaxErrorBody)), key, func(b []byte) remote.Failure {
		got = len(b)
		return remote.Failure{}
	})
	assert.Equal(t, remote.MaxErrorBody, got)
	assert.Contains(t, err.Error(), ": "+strings.Repeat("x", 300))
	assert.NotContains(t, err.Error(), strings.Repeat("x", 301))
}

func TestUnreachableSaysWhy(t *testing.T) {
	for _, c := range []struct {
		err  error
		says string
	}{
		{context.Canceled, "the speech request was cancelled"},
		{context.DeadlineExceeded, "Acme Speech did not answer in time"},
		{errors.New("dial " + key + ": connection refused"), "Acme Speech is unreachable: check the network, or choose another engine"},
	} {
		err := spec.Unreachable(c.err, key)
		assert.ErrorIs(t, err, domain.ErrTTSUnavailable)
		if errors.Is(c.err, context.Canceled) || errors.Is(c.err, context.DeadlineExceeded) {
			assert.ErrorIs(t, err, c.err, "the context's cause is still found")
		}
		assert.Contains(t, err.Error(), c.says)
		assert.NotContains(t, err.Error(), key)
	}
}
