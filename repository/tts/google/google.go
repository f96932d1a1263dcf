// Package google speaks text with Google Cloud Text-to-Speech over its
// REST API (POST {base}/v1/text:synthesize, the base64 audioContent of the
// answer decoded). Like the AI clients it takes the API key per call, so
// the key store's rotation serves every google key with one engine; the
// key travels in the X-Goog-Api-Key header, never in the URL, where
// proxies and access logs would keep it.
//
// Google takes at most 5000 bytes of text a request (a Russian letter is
// two), so a longer text is cut at sentence boundaries (repository/tts/
// ttsjoin) and the answers joined into one file. Every piece is fetched
// before the first byte is written: the audio is small (mp3 and Opus a few
// KB a second, WAV must be whole for its header anyway), and then every
// error — a throttled key on the third piece too — comes before any audio,
// so the rotation can still try the next key.
package google

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
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
	DefaultBaseURL = "https://texttospeech.googleapis.com"
	DefaultVoice   = "ru-RU-Wavenet-D"
	DefaultTimeout = time.Minute
	// MaxInputBytes is Google's limit on input.text, in UTF-8 bytes.
	MaxInputBytes = 5000
	provider      = "google"
)

// Options configure the engine; zero values take the defaults.
type Options struct {
	// BaseURL is the API root (DefaultBaseURL; a test fake).
	BaseURL string
	// DefaultVoice is the voice of a request without one; it must be one
	// of Voices.
	DefaultVoice string
	// Voices replaces the built-in list (DefaultVoices) of voices offered
	// and accepted. An entry without Lang gets it from its name.
	Voices []domain.Voice
	// HTTPClient carries every request (a fresh client when nil).
	HTTPClient *http.Client
	// Timeout bounds one request to Google (one piece of the text).
	Timeout time.Duration
	// Split cuts a text into sentences (app passes textmatch.Sentences);
	// nil, or a sentence over the limit, falls back to cutting between words.
	Split func(string) []string
}

// Engine is Google Cloud Text-to-Speech as a key-per-call speech provider.
// It is safe for concurrent use.
type Engine struct {
	base string
	http *http.Client
	tmo  time.Duration
	// spec holds the voices, the default voice and how errors name Google.
	spec remote.Spec
}

// New returns the engine for opt. A bad base URL, a voice name without a
// language code or a default voice not in the list is a configuration
// error, reported at start.
func New(opt Options) (*Engine, error) {
	e := &Engine{base: opt.BaseURL, http: opt.HTTPClient, tmo: opt.Timeout, spec: newSpec(opt)}
	if e.base == "" {
		e.base = DefaultBaseURL
	}
	if err := remote.CheckBaseURL(provider, e.base); err != nil {
		return nil, err
	}
	e.base = strings.TrimRight(e.base, "/")
	if e.http == nil {
		e.http = &http.Client{}
	}
	if e.tmo <= 0 {
		e.tmo = DefaultTimeout
	}
	voices := opt.Voices
	if len(voices) == 0 {
		voices = DefaultVoices()
	}
	for _, v := range voices {
		lang := languageCode(v.ID)
		if lang == "" {
			return nil, domain.ErrInvalid("bad google voice "+v.ID, map[string]string{"voices": "a google voice name starts with its language code, e.g. ru-RU-Wavenet-D"})
		}
		if v.Lang == "" {
			v.Lang = strings.ToLower(lang)
		}
		if v.Name == "" {
			v.Name = v.ID
		}
		e.spec.Voices = append(e.spec.Voices, v)
	}
	if err := e.spec.CheckDefaultVoice(); err != nil {
		return nil, err
	}
	return e, nil
}

// newSpec is what the shared checks and error mapping (repository/tts/
// remote) know of Google; New adds the voices.
func newSpec(opt Options) remote.Spec {
	s := remote.Spec{
		Provider:        provider,
		Server:          "Google Text-to-Speech",
		UnreachableHint: "check the server's network connection",
		OddStatusHint:   "try again later or choose another engine",
		Fields:          []remote.Field{{Word: "voice", Name: "voice"}, {Word: "language", Name: "voice"}},
		Formats:         encodings,
		DefaultVoice:    opt.DefaultVoice,
		Limit:           MaxInputBytes,
		Size:            ttsjoin.Bytes,
		Split:           opt.Split,
	}
	if s.DefaultVoice == "" {
		s.DefaultVoice = DefaultVoice
	}
	return s
}

// Provider is "google", the provider of the keys the engine uses.
func (e *Engine) Provider() string { return provider }

// Name is the engine's name in the API.
func (e *Engine) Name() string { return provider }

// Fingerprint is what, besides the voice and text, changes the audio: the
// server and the default voice (the use case's cache name holds it, so a
// changed setting is not answered with old audio).
func (e *Engine) Fingerprint() string { return "base=" + e.base + " voice=" + e.spec.DefaultVoice }

// KeyOptional is false: Google always wants a key.
func (e *Engine) KeyOptional() bool { return false }

// DefaultVoice is the voice of a request without one.
func (e *Engine) DefaultVoice() string { return e.spec.DefaultVoice }

// Voices lists the configured voices (the built-in list by default).
func (e *Engine) Voices(context.Context) ([]domain.Voice, error) {
	return append([]domain.Voice(nil), e.spec.Voices...), nil
}

// languageCode is the BCP-47 code a Google voice name starts with:
// "ru-RU-Wavenet-D" → "ru-RU", "cmn-CN-Wavenet-A" → "cmn-CN"; "" when the
// name has none.
func languageCode(name string) string {
	parts := strings.SplitN(name, "-", 3)
	if len(parts) < 3 || len(parts[0]) < 2 || len(parts[0]) > 3 || len(parts[1]) < 2 || parts[2] == "" {
		return ""
	}
	return parts[0] + "-" + parts[1]
}

// encodings maps the API's formats to Google's audioEncoding. LINEAR16
// comes back as a WAV file, OGG_OPUS as Ogg/Opus.
var encodings = map[domain.AudioFormat]string{
	domain.AudioMP3: "MP3",
	domain.AudioWAV: "LINEAR16",
	domain.AudioOGG: "OGG_OPUS",
}

// Synthesize speaks text with voice ("" for the default) in format and
// writes the audio to w, asking Google with apiKey. Input errors, a
// missing key and every failure of Google come back before anything is
// written (see the package comment).
func (e *Engine) Synthesize(ctx context.Context, apiKey, text, voice string, format domain.AudioFormat, w io.Writer) error {
	call, err := e.spec.Prepare(apiKey, text, voice, format)
	if err != nil {
		return err
	}
	audio := make([][]byte, len(call.Pieces))
	for i, p := range call.Pieces {
		if audio[i], err = e.piece(ctx, apiKey, p, call.Voice, call.Format); err != nil {
			return err
		}
	}
	if err := ttsjoin.Join(w, format, audio); err != nil {
		return e.joinError(err)
	}
	return nil
}

// joinError tells a writer's failure from an answer that is not audio.
func (e *Engine) joinError(err error) error {
	var we *ttsjoin.WriteError
	if errors.As(err, &we) {
		return fmt.Errorf("google tts: %w", err)
	}
	return domain.TTSUnavailable("Google Text-to-Speech answered something that is not audio; try again later or choose another engine", err)
}

// request is the body of text:synthesize.
type request struct {
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

// maxAnswer bounds the JSON answer of one piece: 5000 bytes of Russian are
// about five minutes of speech, under 20 MB of WAV, a third more in base64.
const maxAnswer = 64 << 20

// piece asks Google for one piece of the text and returns its audio.
func (e *Engine) piece(ctx context.Context, apiKey, text, voice, enc string) ([]byte, error) {
	var body request
	body.Input.Text = text
	body.Voice.LanguageCode, body.Voice.Name = languageCode(voice), voice
	body.AudioConfig.AudioEncoding = enc
	buf, err := json.Marshal(body)
	if err != nil {
		return nil, fmt.Errorf("google tts: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, e.tmo)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.base+"/v1/text:synthesize", bytes.NewReader(buf))
	if err != nil {
		return nil, fmt.Errorf("google tts: %w", err)
	}
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	req.Header.Set("X-Goog-Api-Key", apiKey)
	resp, err := e.http.Do(req)
	if err != nil {
		return nil, e.spec.Unreachable(err, apiKey)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, e.spec.StatusError(resp, apiKey, failure)
	}
	var answer struct {
		AudioContent string `json:"audioContent"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxAnswer)).Decode(&answer); err != nil {
		if ctx.Err() != nil {
			return nil, e.spec.Unreachable(err, apiKey)
		}
		return nil, domain.TTSUnavailable("Google Text-to-Speech sent an answer that could not be read; try again later", err)
	}
	audio, err := base64.StdEncoding.DecodeString(answer.AudioContent)
	if err != nil || len(audio) == 0 {
		return nil, domain.TTSUnavailable("Google Text-to-Speech sent no audio; try again later", err)
	}
	return audio, nil
}
