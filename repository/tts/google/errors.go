package google

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
)

// maxErrorBody bounds what is read of an error answer.
const maxErrorBody = 8 << 10

// statusError maps an error answer of Google to a typed error: 429 or
// RESOURCE_EXHAUSTED → rate_limited; 401, 403, UNAUTHENTICATED,
// PERMISSION_DENIED or API_KEY_INVALID (Google's 400 for a malformed key)
// → key_rejected; 5xx → tts_unavailable; another 4xx → invalid_input. The
// message comes from the body with the key scrubbed out.
func statusError(resp *http.Response, apiKey string) error {
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	var body struct {
		Error struct {
			Message string `json:"message"`
			Status  string `json:"status"`
			Details []struct {
				Reason string `json:"reason"`
			} `json:"details"`
		} `json:"error"`
	}
	_ = json.Unmarshal(raw, &body)
	msg := body.Error.Message
	if msg == "" {
		msg = strings.TrimSpace(string(raw[:min(len(raw), 300)]))
	}
	msg = aimodel.Redact(errors.New(msg), apiKey).Error()
	cause := fmt.Errorf("google tts: HTTP %d %s: %s", resp.StatusCode, body.Error.Status, msg)
	keyInvalid := false
	for _, d := range body.Error.Details {
		keyInvalid = keyInvalid || d.Reason == "API_KEY_INVALID"
	}
	code, status := resp.StatusCode, body.Error.Status
	switch {
	case code == http.StatusTooManyRequests || status == "RESOURCE_EXHAUSTED":
		return domain.ErrRateLimited.Wrap(cause)
	case code == http.StatusUnauthorized || code == http.StatusForbidden || keyInvalid ||
		status == "UNAUTHENTICATED" || status == "PERMISSION_DENIED":
		return domain.ErrKeyRejected.Wrap(cause)
	case code >= 500:
		return domain.TTSUnavailable(fmt.Sprintf("Google Text-to-Speech is failing (HTTP %d); try again later or choose another engine", code), cause)
	case code >= 400:
		field := "text"
		if strings.Contains(strings.ToLower(msg), "voice") || strings.Contains(strings.ToLower(msg), "language") {
			field = "voice"
		}
		e := domain.ErrInvalid("Google Text-to-Speech refused the request: "+msg, map[string]string{field: msg})
		e.Err = cause
		return e
	}
	return domain.TTSUnavailable(fmt.Sprintf("Google Text-to-Speech answered HTTP %d; try again later or choose another engine", code), cause)
}

// unreachable is the error of a request that got no answer: the network,
// the timeout, or the caller's cancellation (which errors.Is still finds).
// The transport's error names the URL; it is dropped, and the key too.
func unreachable(err error, apiKey string) error {
	cause := aimodel.Redact(fmt.Errorf("google tts: %w", httperr.Redact(err)), apiKey)
	switch {
	case errors.Is(err, context.Canceled):
		return domain.TTSUnavailable("the speech request was cancelled", cause)
	case errors.Is(err, context.DeadlineExceeded):
		return domain.TTSUnavailable("Google Text-to-Speech did not answer in time; try again later or choose another engine", cause)
	}
	return domain.TTSUnavailable("Google Text-to-Speech is unreachable: check the server's network connection, or choose another engine", cause)
}

// DefaultVoices is the built-in list of voices offered: the WaveNet voices
// of Russian and of American and British English.
func DefaultVoices() []domain.Voice {
	v := func(id, gender string) domain.Voice {
		return domain.Voice{ID: id, Name: id, Lang: strings.ToLower(languageCode(id)), Gender: gender}
	}
	return []domain.Voice{
		v("ru-RU-Wavenet-A", "female"), v("ru-RU-Wavenet-B", "male"), v("ru-RU-Wavenet-C", "female"),
		v("ru-RU-Wavenet-D", "male"), v("ru-RU-Wavenet-E", "female"),
		v("en-US-Wavenet-A", "male"), v("en-US-Wavenet-C", "female"), v("en-US-Wavenet-D", "male"),
		v("en-US-Wavenet-F", "female"),
		v("en-GB-Wavenet-A", "female"), v("en-GB-Wavenet-B", "male"),
	}
}
