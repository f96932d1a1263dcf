package tts

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"mediateka/domain"
	"mediateka/usecase/textmatch"
)

// Request is what a client asks to hear: Text, or the Field of the entry
// MediaID; Engine, Voice and Format empty for the defaults. MediaID is the
// raw query value, checked here.
type Request struct {
	Text    string
	MediaID string
	Field   string
	Engine  string
	Voice   string
	Format  string
}

// Speech is a checked request, ready to be spoken.
type Speech struct {
	Engine domain.SpeechEngine
	Text   string
	// Voice is the engine's voice: the one asked for, else the configured
	// voice for Lang, else "" (the engine's own default).
	Voice  string
	Format domain.AudioFormat
	// Lang is the text's language ("ru", "en").
	Lang string
}

// Prepare checks r and resolves its defaults. Everything a client can get
// wrong is refused here, before any audio is made, so a streaming answer
// that has begun never has to turn into an error status: blank text (400
// invalid_input), too long (400 text_too_long), control characters, an
// unknown engine, voice or format, a field off the allow-list, a bad or
// unknown media_id (404). An engine that cannot speak now is 503
// tts_unavailable.
func (s *Service) Prepare(ctx context.Context, r Request) (Speech, error) {
	text, err := s.text(ctx, r)
	if err != nil {
		return Speech{}, err
	}
	if err := checkText(text); err != nil {
		return Speech{}, err
	}
	e := s.engine(r.Engine)
	if e == nil {
		return Speech{}, domain.ErrInvalid(fmt.Sprintf("unknown speech engine %q", r.Engine),
			map[string]string{"engine": "must be one of " + strings.Join(s.engineNames(), ", ")})
	}
	format := domain.AudioFormat(strings.ToLower(r.Format))
	if format == "" {
		format = s.defaultFormat(e)
	}
	if !format.Valid() {
		return Speech{}, domain.ErrInvalid(fmt.Sprintf("unknown audio format %q", r.Format),
			map[string]string{"format": "must be mp3, wav or ogg"})
	}
	// An unknown voice is the client's mistake whether or not the engine
	// can speak now: it is refused first whenever the engine lists its
	// voices without being up (Google's and OpenAI's lists are local;
	// espeak's needs espeak-ng, so without it the 503 comes first).
	if r.Voice != "" {
		if voices, err := e.Voices(ctx); err == nil {
			if _, err := listedVoice(e, voices, r.Voice); err != nil {
				return Speech{}, err
			}
		}
	}
	if err := e.Available(ctx); err != nil {
		return Speech{}, err
	}
	if enc, ok := e.(Encoder); ok && !enc.CanEncode(format) {
		return Speech{}, domain.TTSUnavailable(string(format)+" from "+e.Name()+" needs ffmpeg: install the ffmpeg package, or ask for wav", nil)
	}
	sp := Speech{Engine: e, Text: text, Format: format, Lang: textmatch.DetectLang(text)}
	if sp.Lang == "" {
		sp.Lang = domain.DefaultLang
	}
	sp.Voice = r.Voice
	if sp.Voice == "" {
		sp.Voice = s.opt.Voices[e.Name()][sp.Lang]
		return sp, nil
	}
	voices, err := e.Voices(ctx)
	if err != nil {
		return Speech{}, err
	}
	if sp.Voice, err = listedVoice(e, voices, r.Voice); err != nil {
		return Speech{}, err
	}
	return sp, nil
}

// engineNames are the engines' names in order.
func (s *Service) engineNames() []string {
	names := make([]string, len(s.engines))
	for i, e := range s.engines {
		names[i] = e.Name()
	}
	return names
}

// listedVoice is voice as the engine lists it among voices ("RU" is "ru":
// one voice, one cache file), or invalid_input when it is not listed. An
// engine that lists none (an OpenAI-compatible server with voices of its
// own) is trusted to refuse it itself: the voice is kept as asked.
func listedVoice(e domain.SpeechEngine, voices []domain.Voice, voice string) (string, error) {
	if len(voices) == 0 {
		return voice, nil
	}
	for _, v := range voices {
		if strings.EqualFold(v.ID, voice) {
			return v.ID, nil
		}
	}
	return "", domain.ErrInvalid(fmt.Sprintf("the %s engine has no voice %q", e.Name(), voice),
		map[string]string{"voice": "unknown voice; GET /api/tts/voices lists them"})
}

// SpokenFields are the entry fields a client may have read aloud: the
// prose of the field table marked FieldSpoken.
func SpokenFields() []string { return domain.MediaFieldNames(domain.FieldSpoken) }

// text is the request's text: r.Text, or the spoken field of an entry.
func (s *Service) text(ctx context.Context, r Request) (string, error) {
	if r.MediaID == "" && r.Field == "" {
		return r.Text, nil
	}
	if r.Text != "" {
		return "", domain.ErrInvalid("give text or media_id with field, not both", map[string]string{"text": "leave out with media_id"})
	}
	id, err := strconv.ParseInt(r.MediaID, 10, 64)
	if err != nil || id <= 0 {
		return "", domain.ErrInvalid("media_id must be a positive whole number", map[string]string{"media_id": "must be a positive whole number"})
	}
	f, ok := domain.MediaFieldNamed(r.Field)
	if !ok || !f.Is(domain.FieldSpoken) {
		return "", domain.ErrInvalid(fmt.Sprintf("the field %q cannot be read aloud", r.Field),
			map[string]string{"field": "must be one of " + strings.Join(SpokenFields(), ", ")})
	}
	if s.catalog == nil {
		return "", domain.ErrMediaNotFound
	}
	e, err := s.catalog.Get(ctx, id)
	if err != nil {
		return "", err
	}
	text := spokenText(f.Ref(&e.Media))
	if strings.TrimSpace(text) == "" {
		return "", domain.ErrInvalid(fmt.Sprintf("entry %d has no %s to read", id, f.Name), map[string]string{"field": "is empty for this entry"})
	}
	return text, nil
}

// spokenText is a text or list field as one text: list items become
// sentences of their own.
func spokenText(ref any) string {
	switch v := ref.(type) {
	case *string:
		return *v
	case *[]string:
		items := make([]string, 0, len(*v))
		for _, it := range *v {
			if it = strings.TrimSpace(it); it != "" {
				items = append(items, it)
			}
		}
		return strings.Join(items, "\n")
	}
	return ""
}

// checkText refuses text no engine should be handed: blank, over
// domain.MaxSpeechChars characters, not UTF-8, or with control characters
// other than line breaks and tabs (they reach espeak-ng as commands).
func checkText(text string) error {
	if strings.TrimSpace(text) == "" {
		return domain.ErrInvalid("the text is empty", map[string]string{"text": "is blank"})
	}
	if !utf8.ValidString(text) {
		return domain.ErrInvalid("the text is not UTF-8", map[string]string{"text": "must be UTF-8"})
	}
	if utf8.RuneCountInString(text) > domain.MaxSpeechChars {
		return domain.ErrTextTooLong
	}
	for _, r := range text {
		if unicode.IsControl(r) && r != '\n' && r != '\t' && r != '\r' {
			return domain.ErrInvalid("the text has control characters", map[string]string{"text": "must not contain control characters"})
		}
	}
	return nil
}
