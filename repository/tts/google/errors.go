package google

import (
	"encoding/json"
	"strings"

	"mediateka/domain"
	"mediateka/repository/tts/remote"
)

// failure reads Google's error body for remote.Spec.StatusError: status
// RESOURCE_EXHAUSTED is a throttled key; UNAUTHENTICATED,
// PERMISSION_DENIED or the reason API_KEY_INVALID (Google's 400 for a
// malformed key) a refused one.
func failure(raw []byte) remote.Failure {
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
	status := body.Error.Status
	keyInvalid := false
	for _, d := range body.Error.Details {
		keyInvalid = keyInvalid || d.Reason == "API_KEY_INVALID"
	}
	return remote.Failure{Code: status, Message: body.Error.Message, RateLimited: status == "RESOURCE_EXHAUSTED",
		Rejected: keyInvalid || status == "UNAUTHENTICATED" || status == "PERMISSION_DENIED"}
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
