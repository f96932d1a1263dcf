package tts

import (
	"context"
	"fmt"
	"io"
	"unicode/utf8"

	"mediateka/domain"
	"mediateka/usecase/textmatch"
)

// Synthesize speaks sp whole into the cache and returns the file; the same
// speech asked again is served from the cache without the engine.
func (s *Service) Synthesize(ctx context.Context, sp Speech) (File, error) {
	return s.cached(ctx, sp, sp.Text)
}

// Cached is sp's file and whether the cache has it; without it, the file
// is the name it will have (its Path empty).
func (s *Service) Cached(sp Speech) (File, bool) {
	name := fileName(sp, sp.Text)
	p, ok := s.cache.Path(name)
	return File{Name: name, Path: p, Format: sp.Format}, ok
}

// SynthesizeTo speaks sp into the cache and, as it is made, to w: a
// listener hears it at once, and when w fails (the listener left) the
// synthesis stops and nothing is cached. It returns the cached file.
func (s *Service) SynthesizeTo(ctx context.Context, sp Speech, w io.Writer) (File, error) {
	name := fileName(sp, sp.Text)
	p, err := s.cache.Put(name, func(file io.Writer) error {
		return sp.Engine.Synthesize(ctx, sp.Text, sp.Voice, sp.Format, io.MultiWriter(file, w))
	})
	if err != nil {
		return File{}, err
	}
	return File{Name: name, Path: p, Format: sp.Format}, nil
}

// cached returns text spoken as sp says, from the cache or made into it.
// Two requests making the same file at once both run the engine and the
// second rename wins; each writes its own temporary file, so neither
// reader sees half of one.
func (s *Service) cached(ctx context.Context, sp Speech, text string) (File, error) {
	name := fileName(sp, text)
	f := File{Name: name, Format: sp.Format}
	if p, ok := s.cache.Path(name); ok {
		f.Path = p
		return f, nil
	}
	p, err := s.cache.Put(name, func(w io.Writer) error {
		return sp.Engine.Synthesize(ctx, text, sp.Voice, sp.Format, w)
	})
	if err != nil {
		return File{}, err
	}
	f.Path = p
	return f, nil
}

// StreamAudio writes sp as one audio stream, one sentence after another,
// each written as the engine makes it: the first sentence can play while
// the others are still being made. A WAV stream keeps the first
// sentence's header (its sizes set to "unknown", as for any live WAV) and
// drops the others'; an mp3 stream keeps the first sentence's ID3 tag
// and drops the others' and every Xing/Info frame (mp3Joiner). Ogg is the
// exception: sentences made apart would be chained Ogg streams, which
// Chromium and ffprobe read only the first of, so an ogg stream is the
// whole text in one synthesis, written as the engine makes it (espeak-ng
// and an OpenAI-compatible server both speak as they go).
func (s *Service) StreamAudio(ctx context.Context, sp Speech, w io.Writer) error {
	if sp.Format == domain.AudioOGG {
		return sp.Engine.Synthesize(ctx, sp.Text, sp.Voice, sp.Format, w)
	}
	out := w
	var wav *wavJoiner
	var mp3 *mp3Joiner
	switch sp.Format {
	case domain.AudioWAV:
		wav = &wavJoiner{w: w}
		out = wav
	case domain.AudioMP3:
		mp3 = &mp3Joiner{w: w}
		out = mp3
	}
	for i, sentence := range textmatch.Sentences(sp.Text) {
		if wav != nil {
			wav.next()
		}
		if mp3 != nil {
			mp3.next()
		}
		if err := sp.Engine.Synthesize(ctx, sentence, sp.Voice, sp.Format, out); err != nil {
			return fmt.Errorf("speak sentence %d: %w", i+1, err)
		}
		if mp3 != nil {
			if err := mp3.end(); err != nil {
				return fmt.Errorf("speak sentence %d: %w", i+1, err)
			}
		}
	}
	return nil
}

// Piece is one sentence of stream-text: its text and its audio file.
type Piece struct {
	Index int
	Text  string
	File  File
}

// StreamText speaks sp one sentence at a time into the cache and hands
// each to emit as soon as its audio is ready; an error from emit (the
// client left) stops it.
func (s *Service) StreamText(ctx context.Context, sp Speech, emit func(Piece) error) error {
	for i, sentence := range textmatch.Sentences(sp.Text) {
		f, err := s.cached(ctx, sp, sentence)
		if err != nil {
			return fmt.Errorf("speak sentence %d: %w", i+1, err)
		}
		if err := emit(Piece{Index: i, Text: sentence, File: f}); err != nil {
			return err
		}
	}
	return nil
}

// Speak is an answer of the assistant spoken by the default engine in
// format ("" for the default) with the voice of its language, for the
// chat's "speak" and the bot's voice messages. An answer longer than
// domain.MaxSpeechChars is spoken up to the last whole sentence that fits.
func (s *Service) Speak(ctx context.Context, text string, format domain.AudioFormat) (File, error) {
	sp, err := s.Prepare(ctx, Request{Text: fitSpeech(text), Format: string(format)})
	if err != nil {
		return File{}, err
	}
	return s.Synthesize(ctx, sp)
}

// fitSpeech cuts text to the whole sentences that fit domain.MaxSpeechChars
// (to the limit itself when the first sentence alone is longer).
func fitSpeech(text string) string {
	if utf8.RuneCountInString(text) <= domain.MaxSpeechChars {
		return text
	}
	var out []rune
	for _, sentence := range textmatch.Sentences(text) {
		r := []rune(sentence)
		if len(out)+1+len(r) > domain.MaxSpeechChars {
			break
		}
		if len(out) > 0 {
			out = append(out, '\n')
		}
		out = append(out, r...)
	}
	if len(out) == 0 {
		out = []rune(text)[:domain.MaxSpeechChars]
	}
	return string(out)
}
