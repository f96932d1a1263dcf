package apikey

import (
	"context"
	"errors"
	"io"
	"slices"

	"mediateka/domain"
)

// SpeechProvider is a remote speech engine that takes the API key per call:
// the google and openai engines of repository/tts. Its errors are typed as
// Provider's (ErrRateLimited, ErrKeyRejected move the rotation on), so the
// one key rotation serves speech too.
type SpeechProvider interface {
	// Provider names the keys it uses: "google" or "openai".
	Provider() string
	// Name is the engine as the API names it.
	Name() string
	Voices(ctx context.Context) ([]domain.Voice, error)
	DefaultVoice() string
	// Fingerprint is what, besides voice and text, changes its audio
	// (server, model): part of the speech cache's names.
	Fingerprint() string
	// KeyOptional is true when the engine may be called without a key (an
	// OpenAI-compatible server on the local network).
	KeyOptional() bool
	// Synthesize is domain.SpeechEngine's Synthesize asked with apiKey.
	Synthesize(ctx context.Context, apiKey, text, voice string, format domain.AudioFormat, w io.Writer) error
}

// Speech is a domain.SpeechEngine that asks a SpeechProvider with the
// provider's keys in rotation. A key is only swapped while no audio has
// been written: a listener who has heard the first sentence would hear it
// twice otherwise.
type Speech struct {
	svc *Service
	p   SpeechProvider
}

// Speech wraps p into a rotating speech engine.
func (s *Service) Speech(p SpeechProvider) *Speech { return &Speech{svc: s, p: p} }

// Name is the engine's name.
func (e *Speech) Name() string { return e.p.Name() }

// DefaultVoice is the engine's voice for a request without one.
func (e *Speech) DefaultVoice() string { return e.p.DefaultVoice() }

// Fingerprint is the provider's: what besides voice and text changes the
// audio.
func (e *Speech) Fingerprint() string { return e.p.Fingerprint() }

// Voices lists the provider's voices.
func (e *Speech) Voices(ctx context.Context) ([]domain.Voice, error) { return e.p.Voices(ctx) }

// Available is nil when the provider has an active key (or needs none),
// else tts_unavailable saying which key to add. It reads the store only,
// so asking it costs no quota.
func (e *Speech) Available(ctx context.Context) error {
	if e.p.KeyOptional() {
		return nil
	}
	keys, err := e.svc.List(ctx)
	if err != nil {
		return err
	}
	provider := e.p.Provider()
	if slices.ContainsFunc(keys, func(k domain.APIKey) bool { return k.Provider == provider && k.Status == domain.KeyActive }) {
		return nil
	}
	return domain.TTSUnavailable("no active API key of "+provider+" for the "+e.p.Name()+
		" speech engine: add one in the keys of the admin panel (provider "+provider+"), or choose another engine", nil)
}

// Synthesize speaks text with the keys in rotation. "No usable key", a
// throttled or a refused key all come back as tts_unavailable rather than
// the chat's codes, because the person asked for speech and API.md §10
// promises that one code for an engine that cannot speak now.
func (e *Speech) Synthesize(ctx context.Context, text, voice string, format domain.AudioFormat, w io.Writer) error {
	cw := &countingWriter{w: w}
	err := e.svc.rotate(ctx, e.p.Provider(), e.p.KeyOptional(), func(key string) error {
		return e.p.Synthesize(ctx, key, text, voice, format, cw)
	}, func() bool { return cw.n == 0 })
	var de *domain.Error
	if errors.As(err, &de) && (de.Code == domain.ErrAIUnavailable.Code || errors.Is(err, domain.ErrRateLimited) || errors.Is(err, domain.ErrKeyRejected)) {
		return domain.TTSUnavailable(de.Message+" (speech engine "+e.p.Name()+")", err)
	}
	return err
}

// countingWriter tells whether any audio has gone out.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

var _ domain.SpeechEngine = (*Speech)(nil)
