// Package openai speaks text with any OpenAI-compatible speech server
// (POST {base}/audio/speech): OpenAI itself with a key from the key store,
// or a local server at a configured base URL, which needs none. Like the
// AI clients it takes the API key per call, so the key store's rotation
// serves every openai key with one engine.
//
// The answer's body goes to the writer as it arrives, so playback starts
// before the server has finished. OpenAI takes at most 4096 characters a
// request: a longer text is cut at sentence boundaries (repository/tts/
// ttsjoin) and the pieces asked one after another, each streamed through
// as it comes — except WAV, whose joined header needs the total size, so a
// WAV of several pieces is written when the last one is in. Every error of
// the first piece (status, not-audio answer) comes before any byte is
// written; a later piece failing cuts the audio short.
package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"mediateka/domain"
	"mediateka/repository/tts/remote"
	"mediateka/repository/tts/ttsjoin"
)

// Defaults used when Options leave a field empty.
const (
	DefaultBaseURL = "https://api.openai.com/v1"
	DefaultModel   = "tts-1"
	DefaultVoice   = "alloy"
	// DefaultTimeout bounds one request, body included.
	DefaultTimeout = 2 * time.Minute
	// MaxInputChars is OpenAI's limit on the input, in characters.
	MaxInputChars = 4096
	provider      = "openai"
)

// Options configure the engine; zero values take the defaults.
type Options struct {
	// BaseURL is the API root ending in /v1 (DefaultBaseURL). Another one
	// is a local or self-hosted server, asked without a key when the key
	// store has none for openai.
	BaseURL string
	// Model is the speech model sent upstream (DefaultModel).
	Model string
	// DefaultVoice is the voice of a request without one; it must be one
	// of Voices.
	DefaultVoice string
	// Voices replaces the built-in list of OpenAI's voices (a local server
	// has its own).
	Voices []domain.Voice
	// HTTPClient carries every request (a fresh client when nil).
	HTTPClient *http.Client
	// Timeout bounds one request (one piece of the text), body included.
	Timeout time.Duration
	// Split cuts a text into sentences (app passes textmatch.Sentences);
	// nil, or a sentence over the limit, falls back to cutting between words.
	Split func(string) []string
}

// Engine is an OpenAI-compatible speech server as a key-per-call speech
// provider. It is safe for concurrent use.
type Engine struct {
	base  string
	model string
	http  *http.Client
	tmo   time.Duration
	// spec holds the voices, the default voice, whether a key is needed
	// and how errors name the server.
	spec remote.Spec
}

// New returns the engine for opt. A bad base URL or a default voice not in
// the list is a configuration error, reported at start.
func New(opt Options) (*Engine, error) {
	e := &Engine{base: strings.TrimRight(opt.BaseURL, "/"), model: opt.Model, http: opt.HTTPClient, tmo: opt.Timeout}
	if e.base == "" {
		e.base = DefaultBaseURL
	}
	if err := remote.CheckBaseURL(provider, e.base); err != nil {
		return nil, err
	}
	e.spec = newSpec(opt, e.base != DefaultBaseURL)
	if e.model == "" {
		e.model = DefaultModel
	}
	if e.http == nil {
		e.http = &http.Client{}
	}
	if e.tmo <= 0 {
		e.tmo = DefaultTimeout
	}
	for i, v := range e.spec.Voices {
		if v.ID == "" {
			return nil, domain.ErrInvalid("an openai voice without an id", map[string]string{"voices": "every voice needs an id"})
		}
		if v.Name == "" {
			e.spec.Voices[i].Name = v.ID
		}
	}
	if err := e.spec.CheckDefaultVoice(); err != nil {
		return nil, err
	}
	return e, nil
}

// newSpec is what the shared checks and error mapping (repository/tts/
// remote) know of the server: a copy of the configured voices (OpenAI's
// by default), and whether a call may come without a key (any server but
// OpenAI's own).
func newSpec(opt Options, keyOptional bool) remote.Spec {
	s := remote.Spec{
		Provider:        provider,
		Server:          "the speech server",
		UnreachableHint: "check that it runs and its base URL",
		OddStatusHint:   "check its base URL",
		Fields: []remote.Field{{Word: "voice", Name: "voice"}, {Word: "model", Name: "model"},
			{Word: "response_format", Name: "response_format"}},
		Formats:      formats,
		Voices:       append([]domain.Voice(nil), opt.Voices...),
		DefaultVoice: opt.DefaultVoice,
		Limit:        MaxInputChars,
		Size:         ttsjoin.Chars,
		Split:        opt.Split,
		KeyOptional:  keyOptional,
	}
	if s.DefaultVoice == "" {
		s.DefaultVoice = DefaultVoice
	}
	if len(s.Voices) == 0 {
		s.Voices = DefaultVoices()
	}
	return s
}

// DefaultVoices is OpenAI's own voices; each speaks any language.
func DefaultVoices() []domain.Voice {
	ids := []string{"alloy", "ash", "ballad", "coral", "echo", "fable", "nova", "onyx", "sage", "shimmer", "verse"}
	out := make([]domain.Voice, len(ids))
	for i, id := range ids {
		out[i] = domain.Voice{ID: id, Name: id}
	}
	return out
}

// Fingerprint is what, besides the voice and text, changes the audio: the
// server, the model and the default voice (the use case's cache name
// holds it, so a changed setting is not answered with old audio).
func (e *Engine) Fingerprint() string {
	return "base=" + e.base + " model=" + e.model + " voice=" + e.spec.DefaultVoice
}

// Provider is "openai", the provider of the keys the engine uses.
func (e *Engine) Provider() string { return provider }

// Name is the engine's name in the API.
func (e *Engine) Name() string { return provider }

// KeyOptional is true for a configured server other than OpenAI's, which
// may be asked without a key.
func (e *Engine) KeyOptional() bool { return e.spec.KeyOptional }

// DefaultVoice is the voice of a request without one.
func (e *Engine) DefaultVoice() string { return e.spec.DefaultVoice }

// Model is the speech model sent upstream.
func (e *Engine) Model() string { return e.model }

// Voices lists the configured voices (OpenAI's by default).
func (e *Engine) Voices(context.Context) ([]domain.Voice, error) {
	return append([]domain.Voice(nil), e.spec.Voices...), nil
}

// formats maps the API's formats to response_format: opus comes in Ogg.
var formats = map[domain.AudioFormat]string{
	domain.AudioMP3: "mp3",
	domain.AudioWAV: "wav",
	domain.AudioOGG: "opus",
}

// Synthesize speaks text with voice ("" for the default) in format and
// streams the audio to w, asking with apiKey ("" only for a server that
// needs none). See the package comment for what comes before the first
// byte.
func (e *Engine) Synthesize(ctx context.Context, apiKey, text, voice string, format domain.AudioFormat, w io.Writer) error {
	call, err := e.spec.Prepare(apiKey, text, voice, format)
	if err != nil {
		return err
	}
	j := ttsjoin.NewJoiner(w, format, len(call.Pieces))
	for i, p := range call.Pieces {
		if err := e.piece(ctx, j, apiKey, p, call.Voice, call.Format); err != nil {
			if j.Written() {
				return fmt.Errorf("openai tts: piece %d of %d, the audio is cut short: %w", i+1, len(call.Pieces), err)
			}
			return err
		}
	}
	if err := j.Close(); err != nil {
		return fmt.Errorf("openai tts: %w", err)
	}
	return nil
}

// piece asks for one piece of the text and hands the answer's body to j
// as it arrives.
func (e *Engine) piece(ctx context.Context, j *ttsjoin.Joiner, apiKey, text, voice, format string) error {
	buf, err := json.Marshal(map[string]string{"model": e.model, "input": text, "voice": voice, "response_format": format})
	if err != nil {
		return fmt.Errorf("openai tts: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, e.tmo)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.base+"/audio/speech", bytes.NewReader(buf))
	if err != nil {
		return fmt.Errorf("openai tts: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	if apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+apiKey)
	}
	resp, err := e.http.Do(req)
	if err != nil {
		return e.spec.Unreachable(err, apiKey)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return e.spec.StatusError(resp, apiKey, failure)
	}
	err = j.Add(resp.Body)
	switch {
	case err == nil:
		return nil
	case isWriteError(err):
		return err
	case isNotAudio(err) && !j.Written():
		return domain.TTSUnavailable("the speech server answered something that is not "+format+" audio; check its base URL and model", err)
	}
	return e.spec.Unreachable(err, apiKey)
}
