package openai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"mediateka/domain"
	"mediateka/repository/aimodel"
	"mediateka/repository/httperr"
	"mediateka/repository/tts/ttsjoin"
)

// maxErrorBody bounds what is read of an error answer.
const maxErrorBody = 8 << 10

// statusError maps an error answer to a typed error: 429, or the codes
// insufficient_quota and rate_limit_exceeded → rate_limited; 401, 403 or
// invalid_api_key → key_rejected; 5xx → tts_unavailable; another 4xx (an
// unknown voice or model on a local server, input too long) →
// invalid_input. The message comes from the body with the key scrubbed
// out: OpenAI names part of a refused key, a proxy may echo all of it.
func statusError(resp *http.Response, apiKey string) error {
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	var body struct {
		Error struct {
			Message string `json:"message"`
			Type    string `json:"type"`
			Code    any    `json:"code"`
		} `json:"error"`
	}
	_ = json.Unmarshal(raw, &body)
	msg := body.Error.Message
	if msg == "" {
		msg = strings.TrimSpace(string(raw[:min(len(raw), 300)]))
	}
	msg = aimodel.Redact(errors.New(msg), apiKey).Error()
	code := fmt.Sprint(body.Error.Code)
	cause := fmt.Errorf("openai tts: HTTP %d %s: %s", resp.StatusCode, code, msg)
	status := resp.StatusCode
	switch {
	case status == http.StatusTooManyRequests || code == "insufficient_quota" || code == "rate_limit_exceeded" ||
		body.Error.Type == "insufficient_quota":
		return domain.ErrRateLimited.Wrap(cause)
	case status == http.StatusUnauthorized || status == http.StatusForbidden || code == "invalid_api_key":
		return domain.ErrKeyRejected.Wrap(cause)
	case status >= 500:
		return domain.TTSUnavailable(fmt.Sprintf("the speech server is failing (HTTP %d); try again later or choose another engine", status), cause)
	case status >= 400:
		field := "text"
		for _, f := range []string{"voice", "model", "response_format"} {
			if strings.Contains(strings.ToLower(msg), f) {
				field = f
				break
			}
		}
		e := domain.ErrInvalid("the speech server refused the request: "+msg, map[string]string{field: msg})
		e.Err = cause
		return e
	}
	return domain.TTSUnavailable(fmt.Sprintf("the speech server answered HTTP %d; check its base URL", status), cause)
}

// unreachable is the error of a request without a whole answer: the
// network, the timeout, or the caller's cancellation (which errors.Is still
// finds). The transport's error names the URL; it is dropped, and the key
// too.
func unreachable(err error, apiKey string) error {
	cause := aimodel.Redact(fmt.Errorf("openai tts: %w", httperr.Redact(err)), apiKey)
	switch {
	case errors.Is(err, context.Canceled):
		return domain.TTSUnavailable("the speech request was cancelled", cause)
	case errors.Is(err, context.DeadlineExceeded):
		return domain.TTSUnavailable("the speech server did not answer in time; try again later or choose another engine", cause)
	}
	return domain.TTSUnavailable("the speech server is unreachable: check that it runs and its base URL, or choose another engine", cause)
}

func isWriteError(err error) bool {
	var we *ttsjoin.WriteError
	return errors.As(err, &we)
}

func isNotAudio(err error) bool { return errors.Is(err, ttsjoin.ErrNotAudio) }
