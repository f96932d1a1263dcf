package openai

import (
	"errors"
	"fmt"

	goopenai "github.com/sashabaranov/go-openai"

	"mediateka/domain"
	"mediateka/repository/aimodel"
)

// Classify picks the typed error for a failed go-openai call. go-openai
// reports a JSON error answer as *APIError (with the HTTP status, or none
// when the error arrived inside a stream) and any other error answer as
// *RequestError. Beyond the HTTP status, OpenAI's error codes decide:
// insufficient_quota and rate_limit_exceeded are quota answers,
// invalid_api_key a refused key. Anything else, transport errors included,
// is domain.ErrAIUnavailable.
func Classify(err error) *domain.Error {
	var apiErr *goopenai.APIError
	if errors.As(err, &apiErr) {
		switch code := fmt.Sprint(apiErr.Code); {
		case code == "insufficient_quota" || code == "rate_limit_exceeded" || apiErr.Type == "insufficient_quota":
			return domain.ErrRateLimited
		case code == "invalid_api_key":
			return domain.ErrKeyRejected
		default:
			return aimodel.StatusError(apiErr.HTTPStatusCode)
		}
	}
	var reqErr *goopenai.RequestError
	if errors.As(err, &reqErr) {
		return aimodel.StatusError(reqErr.HTTPStatusCode)
	}
	return domain.ErrAIUnavailable
}
