package domain

import (
	"context"
	"io"
)

// AudioFormat is the container of synthesized speech a client asks for.
type AudioFormat string

// The formats of API.md §10.
const (
	AudioMP3 AudioFormat = "mp3"
	AudioWAV AudioFormat = "wav"
	AudioOGG AudioFormat = "ogg" // Opus in Ogg: what Telegram plays as a voice message
)

// ContentType is the MIME type served with f, "" for an unknown format.
func (f AudioFormat) ContentType() string {
	switch f {
	case AudioMP3:
		return "audio/mpeg"
	case AudioWAV:
		return "audio/wav"
	case AudioOGG:
		return "audio/ogg"
	}
	return ""
}

// Valid reports whether f is one of the formats of API.md §10.
func (f AudioFormat) Valid() bool { return f.ContentType() != "" }

// Voice is one voice an engine speaks with. ID is what Synthesize takes
// ("ru", "en-us", "ru-RU-Wavenet-D", "alloy"); Lang is its language tag
// ("ru", "en-us"), so a use case can pick a voice for the text's language.
type Voice struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Lang   string `json:"lang"`
	Gender string `json:"gender,omitempty"`
}

// MaxSpeechChars is the longest text, in Unicode characters, any TTS
// endpoint accepts (API.md §10).
const MaxSpeechChars = 5000

// SpeechEngine turns text into speech: espeak-ng on the machine, Google
// Cloud Text-to-Speech, or an OpenAI-compatible server.
//
// Synthesize writes to an io.Writer rather than returning an
// io.ReadCloser because the stream endpoints want audio the moment it
// is produced and the process gone the moment the request is: with a
// writer the engine's process (and its ffmpeg) lives exactly as long as
// the call, ctx's end kills it, and no caller can leak one by forgetting
// a Close. The same call fills a cache file or a chunked response.
type SpeechEngine interface {
	// Name is the engine as the API names it: "espeak", "google", "openai".
	Name() string
	// Available is nil when the engine can speak now, else a
	// KindUnavailable tts_unavailable error whose message says what to do
	// (install espeak-ng, add a google key, start the server).
	Available(ctx context.Context) error
	// Voices lists the voices the engine speaks with.
	Voices(ctx context.Context) ([]Voice, error)
	// Synthesize speaks text with voice ("" for the engine's default) in
	// format and writes the audio to w as it is produced. Input errors
	// (unknown voice or format: KindInvalid) and unavailability
	// (KindUnavailable, tts_unavailable — also for a format the machine
	// cannot make) come back before anything is written, so a handler
	// can still answer with a status. An error after the first write
	// means the audio was cut short. ctx's end stops the synthesis and
	// kills any process it started.
	Synthesize(ctx context.Context, text, voice string, format AudioFormat, w io.Writer) error
}

// ErrTTSUnavailable is the answer when a speech engine is not installed,
// not configured or unreachable; engines return TTSUnavailable with a
// message saying what to do, which errors.Is matches to this.
var ErrTTSUnavailable = NewError(KindUnavailable, "tts_unavailable", "the speech engine is unavailable")

// ErrTextTooLong is the answer to a text over MaxSpeechChars characters.
var ErrTextTooLong = NewError(KindInvalid, "text_too_long", "the text is longer than 5000 characters")

// TTSUnavailable builds a tts_unavailable error whose message tells the
// administrator what to do, keeping cause for the logs.
func TTSUnavailable(message string, cause error) *Error {
	return ErrUnavailable(ErrTTSUnavailable.Code, message, cause)
}
