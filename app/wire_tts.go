package app

import (
	"context"
	"fmt"
	"log/slog"

	"mediateka/config"
	"mediateka/domain"
	"mediateka/repository/localfs"
	"mediateka/repository/tts/espeak"
	"mediateka/usecase/apikey"
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
	cache, err := localfs.NewCache(t.CacheDir, int64(t.CacheMaxMB)<<20)
	if err != nil {
		return nil, fmt.Errorf("tts cache: %w", err)
	}
	es := espeak.New(espeak.Options{DefaultVoice: t.Espeak.Voices[domain.DefaultLang], Rate: t.Espeak.Rate,
		Pitch: t.Espeak.Pitch, MaxProcesses: t.MaxProcesses})
	if es.Available(context.Background()) != nil && t.Engine == "espeak" {
		log.Warn("espeak-ng is not installed: speech answers 503 until it is (apt-get install espeak-ng) or another tts.engine is chosen")
	}
	engines := []domain.SpeechEngine{es}
	voices := map[string]map[string]string{"espeak": t.Espeak.Voices, "google": t.Google.Voices, "openai": t.OpenAI.Voices}
	_ = keys
	return tts.New(engines, lib.catalog, cache, tts.Options{Default: t.Engine, Format: domain.AudioFormat(t.Format), Voices: voices}), nil
}
