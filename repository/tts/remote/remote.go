// Package remote is what the remote speech engines (google, openai) share
// besides cutting and joining long texts (ttsjoin): the checks a Synthesize
// call passes before anything is asked upstream, and the mapping of an
// error answer or a missing one to the typed errors the key rotation acts
// on (rate_limited and key_rejected move it to the next key).
//
// Both engines must refuse the same inputs with the same errors and type a
// throttled or refused key alike, or the rotation would treat them
// differently; one copy keeps them from drifting. What differs stays in
// each engine: which fields of its server's error body mean throttled or
// refused (Failure), and how its messages name the server (Spec).
package remote

import (
	"fmt"
	"net/url"
	"strings"

	"mediateka/domain"
	"mediateka/repository/tts/ttsjoin"
)

// Spec is what an engine tells this package about itself; New fills it
// once and Synthesize uses it for every call.
type Spec struct {
	// Provider names the engine's keys ("google"): the preamble's messages
	// name it, and every cause starts with "<provider> tts:".
	Provider string
	// Server names the server to the user: "Google Text-to-Speech".
	Server string
	// UnreachableHint is what to check when no answer came ("check the
	// server's network connection").
	UnreachableHint string
	// OddStatusHint is what to do about a status that is neither success
	// nor an error.
	OddStatusHint string
	// Fields name the request field a refused request (another 4xx) is
	// about: the first whose word its message holds, "text" when none.
	Fields []Field

	// Formats maps the API's formats to the server's names for them.
	Formats map[domain.AudioFormat]string
	// Voices are the voices offered and accepted; DefaultVoice, one of
	// them, is the voice of a request without one.
	Voices       []domain.Voice
	DefaultVoice string
	// Limit is the server's limit on one request's text, as Size measures
	// it (ttsjoin.Bytes, ttsjoin.Chars).
	Limit int
	Size  func(string) int
	// Split cuts a text into sentences (see ttsjoin.Split).
	Split func(string) []string
	// KeyOptional lets a call without a key through (a local server).
	KeyOptional bool
}

// Field is a word of a refusal's message and the request field it names.
type Field struct{ Word, Name string }

// Call is a Synthesize call that passed Prepare: the server's name of the
// format, the listed voice, and the text cut under the limit.
type Call struct {
	Format string
	Voice  string
	Pieces []string
}

// Prepare checks a call before anything is asked, in this order: the
// format, the voice ("" for the default, matched case aside), the text
// (blank is refused) and the key. Every refusal is typed and names the
// field; a missing key says how to add one.
func (s *Spec) Prepare(apiKey, text, voice string, format domain.AudioFormat) (Call, error) {
	f, ok := s.Formats[format]
	if !ok {
		return Call{}, domain.ErrInvalid("unknown audio format", map[string]string{"format": "must be mp3, wav or ogg"})
	}
	if voice == "" {
		voice = s.DefaultVoice
	}
	id, ok := s.FindVoice(voice)
	if !ok {
		return Call{}, domain.ErrInvalid(fmt.Sprintf("%s has no voice %q", s.Provider, voice), map[string]string{"voice": "unknown voice"})
	}
	pieces := ttsjoin.Split(text, s.Limit, s.Size, s.Split)
	if len(pieces) == 0 {
		return Call{}, domain.ErrInvalid("there is no text to speak", map[string]string{"text": "must not be blank"})
	}
	if apiKey == "" && !s.KeyOptional {
		return Call{}, domain.TTSUnavailable(fmt.Sprintf("no API key of %[1]s is configured: add one with provider %[1]s, or choose another engine", s.Provider), nil)
	}
	return Call{Format: f, Voice: id, Pieces: pieces}, nil
}

// FindVoice returns the listed voice id matching want, case aside: the
// server is sent the listed spelling.
func (s *Spec) FindVoice(want string) (string, bool) {
	for _, v := range s.Voices {
		if strings.EqualFold(v.ID, want) {
			return v.ID, true
		}
	}
	return "", false
}

// CheckDefaultVoice refuses a default voice that is not listed, so a bad
// setting is reported at start, and takes the listed spelling of it.
func (s *Spec) CheckDefaultVoice() error {
	id, ok := s.FindVoice(s.DefaultVoice)
	if !ok {
		return domain.ErrInvalid(fmt.Sprintf("the %s default voice is not among its voices", s.Provider),
			map[string]string{"voice": fmt.Sprintf("must be one of the %s voices", s.Provider)})
	}
	s.DefaultVoice = id
	return nil
}

// CheckBaseURL refuses a base URL that is not http(s) with a host, or that
// holds credentials, which would then be sent and logged with every request.
func CheckBaseURL(provider, base string) error {
	if u, err := url.Parse(base); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		return domain.ErrInvalid("bad "+provider+" tts base URL", map[string]string{"base_url": "must be an http(s) URL without credentials"})
	}
	return nil
}
