package ttstest

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

// OpenAIMaxChars is OpenAI's limit on the speech input, in characters.
const OpenAIMaxChars = 4096

// OpenAIRequest is one request the OpenAI fake received.
type OpenAIRequest struct {
	// Key is the bearer token of the Authorization header, "" without one.
	Key string
	// URI is the request's path and query as sent.
	URI string
	// Model, Input, Voice and Format are the JSON body's model, input,
	// voice and response_format.
	Model, Input, Voice, Format string
}

// OpenAI is a fake OpenAI-compatible speech server: POST /v1/audio/speech
// with `Authorization: Bearer <key>`, answering the audio as a chunked
// stream (ChunkSize bytes, flushed one by one) — the tone mp3 for mp3, a
// streamed WAV (sizes 0xFFFFFFFF, 24 samples a character) for wav, Ogg/Opus
// for opus — and OpenAI's error bodies: 400 (input over 4096 characters,
// unknown format), 401 invalid_api_key (echoing the key whole, as a careless
// proxy might), 403, 429 insufficient_quota, 5xx. Its URL ends in /v1.
type OpenAI struct {
	server[OpenAIRequest]
	// keyless: the server needs no key (a local one).
	keyless bool

	mu      sync.Mutex // guards chunk and release
	chunk   int
	release chan struct{}
}

// NewOpenAI starts an OpenAI fake for the test; it wants a key.
func NewOpenAI(t testing.TB) *OpenAI { return newOpenAI(t, false) }

// NewLocalOpenAI starts an OpenAI-compatible fake that needs no key, as a
// local server.
func NewLocalOpenAI(t testing.TB) *OpenAI { return newOpenAI(t, true) }

func newOpenAI(t testing.TB, keyless bool) *OpenAI {
	o := &OpenAI{keyless: keyless, chunk: 256}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/audio/speech", o.speech)
	o.url = serve(t, mux).URL + "/v1"
	return o
}

// SetChunkSize sets how many bytes of audio go in each flushed chunk.
func (o *OpenAI) SetChunkSize(n int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.chunk = n
}

// HoldAfterFirstChunk makes the next answers stop after their first
// flushed chunk until release is called (or the client leaves): a test
// calls release from its writer on the first write, so an engine that
// waited for the whole body before writing never gets it.
func (o *OpenAI) HoldAfterFirstChunk() (release func()) {
	ch := make(chan struct{})
	o.mu.Lock()
	o.release = ch
	o.mu.Unlock()
	var once sync.Once
	return func() { once.Do(func() { close(ch) }) }
}

func (o *OpenAI) speech(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Model  string `json:"model"`
		Input  string `json:"input"`
		Voice  string `json:"voice"`
		Format string `json:"response_format"`
	}
	decodeErr := json.NewDecoder(r.Body).Decode(&body)
	key, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	o.record(OpenAIRequest{Key: key, URI: r.URL.RequestURI(), Model: body.Model, Input: body.Input,
		Voice: body.Voice, Format: body.Format})
	o.mu.Lock()
	chunk, release := o.chunk, o.release
	o.mu.Unlock()
	if o.hold(r) {
		return
	}
	if key == "" && !o.keyless {
		openAIError(w, 401, "You didn't provide an API key.", "invalid_request_error", "")
		return
	}
	if s := o.status(key); s != 0 {
		openAIFault(w, s, key)
		return
	}
	var audio []byte
	ctype := ""
	switch {
	case decodeErr != nil || body.Input == "":
		openAIError(w, 400, "[{'type': 'missing', 'loc': ('body', 'input')}]", "invalid_request_error", "")
		return
	case utf8.RuneCountInString(body.Input) > OpenAIMaxChars:
		openAIError(w, 400, "[{'type': 'string_too_long', 'loc': ('body', 'input'), 'msg': 'String should have at most 4096 characters'}]",
			"invalid_request_error", "string_above_max_length")
		return
	}
	switch body.Format {
	case "mp3", "":
		audio, ctype = MP3(), "audio/mpeg"
	case "wav":
		audio, ctype = wavFor(body.Input, true, false), "audio/wav"
	case "opus":
		audio, ctype = Ogg(), "audio/ogg"
	default:
		openAIError(w, 400, "Invalid response_format: "+body.Format, "invalid_request_error", "")
		return
	}
	w.Header().Set("Content-Type", ctype)
	o.stream(w, r, audio, chunk, release)
}

// stream writes audio in flushed chunks, waiting after the first one when
// held.
func (o *OpenAI) stream(w http.ResponseWriter, r *http.Request, audio []byte, chunk int, release chan struct{}) {
	flusher, _ := w.(http.Flusher)
	for i := 0; i < len(audio); i += chunk {
		if _, err := w.Write(audio[i:min(i+chunk, len(audio))]); err != nil {
			return
		}
		flusher.Flush()
		if i == 0 && release != nil {
			select {
			case <-release:
			case <-r.Context().Done():
				return
			}
		}
	}
}

// openAIFault answers status as OpenAI does.
func openAIFault(w http.ResponseWriter, status int, key string) {
	switch {
	case status == 401:
		openAIError(w, 401, "Incorrect API key provided: "+key+". You can find your API key at https://platform.openai.com/account/api-keys.",
			"invalid_request_error", "invalid_api_key")
	case status == 403:
		openAIError(w, 403, "You are not allowed to sample from this model", "invalid_request_error", "")
	case status == 429:
		openAIError(w, 429, "You exceeded your current quota, please check your plan and billing details.", "insufficient_quota", "insufficient_quota")
	case status >= 500:
		openAIError(w, status, "The server had an error while processing your request. Sorry about that!", "server_error", "")
	default:
		openAIError(w, status, http.StatusText(status), "invalid_request_error", "")
	}
}

// openAIError writes OpenAI's JSON error body.
func openAIError(w http.ResponseWriter, status int, message, typ, code string) {
	e := map[string]any{"message": message, "type": typ, "param": nil, "code": nil}
	if code != "" {
		e["code"] = code
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"error": e})
}
