package remote

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"mediateka/domain"
	"mediateka/repository/aimodel"
	"mediateka/repository/httperr"
)

// MaxErrorBody bounds what is read of an error answer.
const MaxErrorBody = 8 << 10

// Failure is what an engine reads from its server's error body: what the
// status code alone does not tell.
type Failure struct {
	// Code is the body's own name for the error ("RESOURCE_EXHAUSTED",
	// "insufficient_quota"), kept in the cause.
	Code string
	// Message is the body's message; "" takes the body's first 300 bytes.
	Message string
	// RateLimited and Rejected say the body means a throttled key (a quota
	// code) or a refused one (Google's 400 for a malformed key) whatever
	// the status.
	RateLimited, Rejected bool
}

// StatusError maps an error answer to a typed error. It reads at most
// MaxErrorBody of the body and hands it to read, the engine's parser, then:
// 429 or RateLimited → rate_limited; 401, 403 or Rejected → key_rejected;
// 5xx → tts_unavailable; another 4xx → invalid_input with the field of
// s.Fields; anything else → tts_unavailable. The message is scrubbed of
// the key: a server names part of a refused key, a proxy may echo all of it.
func (s *Spec) StatusError(resp *http.Response, apiKey string, read func(body []byte) Failure) error {
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, MaxErrorBody))
	f := read(raw)
	msg := f.Message
	if msg == "" {
		msg = strings.TrimSpace(string(raw[:min(len(raw), 300)]))
	}
	msg = aimodel.Redact(errors.New(msg), apiKey).Error()
	status := resp.StatusCode
	cause := fmt.Errorf("%s tts: HTTP %d %s: %s", s.Provider, status, f.Code, msg)
	switch {
	case status == http.StatusTooManyRequests || f.RateLimited:
		return domain.ErrRateLimited.Wrap(cause)
	case status == http.StatusUnauthorized || status == http.StatusForbidden || f.Rejected:
		return domain.ErrKeyRejected.Wrap(cause)
	case status >= 500:
		return domain.TTSUnavailable(fmt.Sprintf("%s is failing (HTTP %d); try again later or choose another engine", s.Server, status), cause)
	case status >= 400:
		field := s.field(msg)
		e := domain.ErrInvalid(s.Server+" refused the request: "+msg, map[string]string{field: msg})
		e.Err = cause
		return e
	}
	return domain.TTSUnavailable(fmt.Sprintf("%s answered HTTP %d; %s", s.Server, status, s.OddStatusHint), cause)
}

// field is the request field a refusal's message names, "text" when none.
func (s *Spec) field(msg string) string {
	lower := strings.ToLower(msg)
	for _, f := range s.Fields {
		if strings.Contains(lower, f.Word) {
			return f.Name
		}
	}
	return "text"
}

// Unreachable is the error of a request without a whole answer: the
// network, the timeout, or the caller's cancellation (which errors.Is
// still finds). The transport's error names the URL; it is dropped, and
// the key too.
func (s *Spec) Unreachable(err error, apiKey string) error {
	cause := aimodel.Redact(fmt.Errorf("%s tts: %w", s.Provider, httperr.Redact(err)), apiKey)
	switch {
	case errors.Is(err, context.Canceled):
		return domain.TTSUnavailable("the speech request was cancelled", cause)
	case errors.Is(err, context.DeadlineExceeded):
		return domain.TTSUnavailable(s.Server+" did not answer in time; try again later or choose another engine", cause)
	}
	return domain.TTSUnavailable(s.Server+" is unreachable: "+s.UnreachableHint+", or choose another engine", cause)
}
