package gemini

import (
	"errors"

	"google.golang.org/genai"

	"mediateka/domain"
	"mediateka/repository/aimodel"
)

// Classify picks the typed error for a failed genai call. genai reports an
// HTTP error answer as a genai.APIError value (code, status, details); the
// rules on top of the HTTP status are Gemini's own:
//   - RESOURCE_EXHAUSTED is the quota answer, also inside a stream;
//   - UNAUTHENTICATED and PERMISSION_DENIED refuse the caller;
//   - a bad key is really answered 400 INVALID_ARGUMENT with an ErrorInfo
//     detail of reason API_KEY_INVALID, which must not read as "down".
//
// Anything else, transport errors included, is domain.ErrAIUnavailable.
func Classify(err error) *domain.Error {
	var apiErr genai.APIError
	if !errors.As(err, &apiErr) {
		return domain.ErrAIUnavailable
	}
	switch {
	case apiErr.Status == "RESOURCE_EXHAUSTED":
		return domain.ErrRateLimited
	case apiErr.Status == "UNAUTHENTICATED" || apiErr.Status == "PERMISSION_DENIED":
		return domain.ErrKeyRejected
	case hasReason(apiErr.Details, "API_KEY_INVALID"):
		return domain.ErrKeyRejected
	default:
		return aimodel.StatusError(apiErr.Code)
	}
}

// hasReason reports whether an error detail (google.rpc.ErrorInfo) names
// reason.
func hasReason(details []map[string]any, reason string) bool {
	for _, d := range details {
		if r, _ := d["reason"].(string); r == reason {
			return true
		}
	}
	return false
}
