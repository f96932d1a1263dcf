package app

import (
	"context"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"

	"mediateka/config"
	"mediateka/domain"
	"mediateka/repository/localfs"
	"mediateka/repository/tts/espeak"
	"mediateka/repository/tts/google"
	"mediateka/repository/tts/openai"
	"mediateka/usecase/apikey"
	"mediateka/usecase/textmatch"
	"mediateka/usecase/tts"
)

// newSpeech builds text-to-speech: every engine (espeak-ng on the machine;
// Google and an OpenAI-compatible server through the key store's
// rotation), the audio cache in tts.cache_dir, and the catalogue for
// media_id + field. Engines that cannot speak now are still listed, so
// /api/tts/voices says why; nothing here is long-lived (a synthesis ends
// with its request, its processes with it).
func newSpeech(cfg config.Config, keys *apikey.Service, lib libraryParts, log *slog.Logger) (*tts.Service, error) {
	t := cfg.TTS
	cache, err := localfs.NewCache(t.CacheDir, int64(t.CacheMaxMB)<<20, tts.IsFileName)
	if err != nil {
		return nil, fmt.Errorf("tts cache: %w", err)
	}
	es := espeak.New(espeak.Options{DefaultVoice: t.Espeak.Voices[domain.DefaultLang], Rate: t.Espeak.Rate,
		Pitch: t.Espeak.Pitch, MaxProcesses: t.MaxProcesses})
	if es.Available(context.Background()) != nil && t.Engine == "espeak" {
		log.Warn("espeak-ng is not installed: speech answers 503 until it is (apt-get install espeak-ng) or another tts.engine is chosen")
	}
	g, err := google.New(google.Options{BaseURL: t.Google.BaseURL, DefaultVoice: t.Google.Voices[domain.DefaultLang],
		Voices: withConfigured(google.DefaultVoices(), t.Google.Voices), Split: textmatch.Sentences})
	if err != nil {
		return nil, fmt.Errorf("tts.google: %w", err)
	}
	o, err := openai.New(openai.Options{BaseURL: t.OpenAI.BaseURL, Model: t.OpenAI.Model, DefaultVoice: t.OpenAI.Voices[domain.DefaultLang],
		Voices: withConfigured(openai.DefaultVoices(), t.OpenAI.Voices), Split: textmatch.Sentences})
	if err != nil {
		return nil, fmt.Errorf("tts.openai: %w", err)
	}
	engines := []domain.SpeechEngine{es, keys.Speech(g), keys.Speech(o)}
	voices := map[string]map[string]string{"espeak": t.Espeak.Voices, "google": t.Google.Voices, "openai": t.OpenAI.Voices}
	return tts.New(engines, lib.catalog, cache, tts.Options{Default: t.Engine, Format: domain.AudioFormat(t.Format), Voices: voices}), nil
}

// withConfigured is an engine's built-in voices plus those the
// configuration names per language that the list lacks: a local
// OpenAI-compatible server has voices of its own, and a Google voice newer
// than the built-in list is still usable once configured.
func withConfigured(builtin []domain.Voice, byLang map[string]string) []domain.Voice {
	out := slices.Clone(builtin)
	for _, lang := range slices.Sorted(maps.Keys(byLang)) {
		if id := byLang[lang]; id != "" && !slices.ContainsFunc(out, func(v domain.Voice) bool { return strings.EqualFold(v.ID, id) }) {
			out = append(out, domain.Voice{ID: id, Name: id, Lang: lang})
		}
	}
	return out
}
