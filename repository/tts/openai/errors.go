package openai

import (
	"encoding/json"
	"errors"
	"fmt"

	"mediateka/repository/tts/remote"
	"mediateka/repository/tts/ttsjoin"
)

// failure reads an OpenAI error body for remote.Spec.StatusError: the code
// (or type) insufficient_quota, or the code rate_limit_exceeded, is a
// throttled key; the code invalid_api_key a refused one. A local server's
// 400 (an unknown voice or model, input too long) is the request's fault.
func failure(raw []byte) remote.Failure {
	var body struct {
		Error struct {
			Message string `json:"message"`
			Type    string `json:"type"`
			Code    any    `json:"code"`
		} `json:"error"`
	}
	_ = json.Unmarshal(raw, &body)
	code := fmt.Sprint(body.Error.Code)
	return remote.Failure{Code: code, Message: body.Error.Message,
		RateLimited: code == "insufficient_quota" || code == "rate_limit_exceeded" || body.Error.Type == "insufficient_quota",
		Rejected:    code == "invalid_api_key"}
}

func isWriteError(err error) bool {
	var we *ttsjoin.WriteError
	return errors.As(err, &we)
}

func isNotAudio(err error) bool { return errors.Is(err, ttsjoin.ErrNotAudio) }
