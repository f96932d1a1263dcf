package ttstest

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// GoogleMaxBytes is Google's limit on input.text, in bytes.
const GoogleMaxBytes = 5000

// GoogleRequest is one request the Google fake received.
type GoogleRequest struct {
	// Key is the X-Goog-Api-Key header.
	Key string
	// URI is the request's path and query as sent: a key must never be in it.
	URI string
	// Text, LanguageCode, Voice and Encoding are input.text,
	// voice.languageCode, voice.name and audioConfig.audioEncoding.
	Text, LanguageCode, Voice, Encoding string
}

// Google is a fake Google Cloud Text-to-Speech server:
// POST /v1/text:synthesize with the key in X-Goog-Api-Key (or ?key=, which
// Google takes too and the fake records), answering {"audioContent"} in
// base64 — an mp3 for MP3, a WAV with a LIST chunk for LINEAR16 (24
// samples a character), an Ogg/Opus for OGG_OPUS — and Google's error
// bodies: 400 INVALID_ARGUMENT (text over 5000 bytes, a language code that
// is not the voice's, an unknown encoding; API_KEY_INVALID from Fail(key,
// 400)), 401, 403, 429 RESOURCE_EXHAUSTED, 5xx.
type Google struct {
	server[GoogleRequest]
}

// NewGoogle starts a Google fake for the test.
func NewGoogle(t testing.TB) *Google {
	g := &Google{}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/text:synthesize", g.synthesize)
	g.url = serve(t, mux).URL
	return g
}

func (g *Google) synthesize(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Input struct {
			Text string `json:"text"`
		} `json:"input"`
		Voice struct {
			LanguageCode string `json:"languageCode"`
			Name         string `json:"name"`
		} `json:"voice"`
		AudioConfig struct {
			AudioEncoding string `json:"audioEncoding"`
		} `json:"audioConfig"`
	}
	decodeErr := json.NewDecoder(r.Body).Decode(&body)
	key := r.Header.Get("X-Goog-Api-Key")
	if key == "" {
		key = r.URL.Query().Get("key")
	}
	g.record(GoogleRequest{Key: key, URI: r.URL.RequestURI(), Text: body.Input.Text,
		LanguageCode: body.Voice.LanguageCode, Voice: body.Voice.Name, Encoding: body.AudioConfig.AudioEncoding})
	if g.hold(r) {
		return
	}
	if key == "" {
		googleError(w, http.StatusForbidden, "PERMISSION_DENIED", "The request is missing a valid API key.", "")
		return
	}
	if s := g.status(key); s != 0 {
		googleFault(w, s)
		return
	}
	var audio []byte
	switch {
	case decodeErr != nil:
		googleError(w, 400, "INVALID_ARGUMENT", "Invalid JSON payload received.", "")
		return
	case strings.TrimSpace(body.Input.Text) == "":
		googleError(w, 400, "INVALID_ARGUMENT", "Either `input.text` or `input.ssml` needs to be set.", "")
		return
	case len(body.Input.Text) > GoogleMaxBytes:
		googleError(w, 400, "INVALID_ARGUMENT", fmt.Sprintf("Either `input.text` or `input.ssml` is longer than the limit of %d bytes. "+
			"This limit is different from quotas.", GoogleMaxBytes), "")
		return
	case !strings.HasPrefix(body.Voice.Name, body.Voice.LanguageCode+"-"):
		googleError(w, 400, "INVALID_ARGUMENT", fmt.Sprintf("Requested language code '%s' doesn't match the voice '%s''s language code.",
			body.Voice.LanguageCode, body.Voice.Name), "")
		return
	}
	switch body.AudioConfig.AudioEncoding {
	case "MP3":
		audio = MP3()
	case "LINEAR16":
		audio = wavFor(body.Input.Text, false, true)
	case "OGG_OPUS":
		audio = Ogg()
	default:
		googleError(w, 400, "INVALID_ARGUMENT", "Invalid value at 'audio_config.audio_encoding'", "")
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	_ = json.NewEncoder(w).Encode(map[string]string{"audioContent": base64.StdEncoding.EncodeToString(audio)})
}

// googleFault answers status as Google does.
func googleFault(w http.ResponseWriter, status int) {
	switch {
	case status == 400:
		googleError(w, 400, "INVALID_ARGUMENT", "API key not valid. Please pass a valid API key.", "API_KEY_INVALID")
	case status == 401:
		googleError(w, 401, "UNAUTHENTICATED", "Request had invalid authentication credentials.", "")
	case status == 403:
		googleError(w, 403, "PERMISSION_DENIED", "Cloud Text-to-Speech API has not been used in project 1 before or it is disabled.", "SERVICE_DISABLED")
	case status == 429:
		googleError(w, 429, "RESOURCE_EXHAUSTED", "Quota exceeded for quota metric 'Requests' and limit 'Requests per minute'.", "RATE_LIMIT_EXCEEDED")
	case status >= 500:
		googleError(w, status, "UNAVAILABLE", "The service is currently unavailable.", "")
	default:
		googleError(w, status, "UNKNOWN", http.StatusText(status), "")
	}
}

// googleError writes Google's JSON error body.
func googleError(w http.ResponseWriter, code int, status, message, reason string) {
	e := map[string]any{"code": code, "message": message, "status": status}
	if reason != "" {
		e["details"] = []map[string]any{{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": reason, "domain": "googleapis.com"}}
	}
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(map[string]any{"error": e})
}
