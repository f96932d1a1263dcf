// Package tts speaks text aloud (API.md §10): it picks the engine, the
// voice for the text's language and the format, reads an entry's spoken
// fields from the catalogue, keeps synthesized audio in a size-capped disk
// cache, and streams long texts sentence by sentence so a listener hears
// the first sentence while the rest is still being made.
package tts

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"regexp"
	"slices"

	"mediateka/domain"
	"mediateka/usecase/catalog"
)

// Catalog reads the entry whose field is spoken.
type Catalog interface {
	// Get is an entry; media_not_found when there is none.
	Get(ctx context.Context, id int64) (catalog.Entry, error)
}

// Cache keeps synthesized audio by name.
type Cache interface {
	// Path is where name lies when it is cached (a hit renews it).
	Path(name string) (string, bool)
	// Put writes name through fill under a temporary name and renames it
	// into place when fill succeeds, so no reader sees half a file; a
	// failing fill leaves nothing behind. It returns the file's path.
	Put(name string, fill func(w io.Writer) error) (string, error)
}

// Encoder is implemented by an engine whose formats depend on the machine
// (espeak needs ffmpeg for mp3 and ogg); an engine without it makes every
// format.
type Encoder interface {
	CanEncode(format domain.AudioFormat) bool
}

// Options configure the service.
type Options struct {
	// Default is the engine of a request that names none ("espeak").
	Default string
	// Format is the format of a request that names none; "" is mp3 when
	// the engine can make it, else wav (API.md §10).
	Format domain.AudioFormat
	// Voices are the voice per engine and language ("ru", "en") used when
	// a request names no voice; a language without one takes the
	// engine's own default.
	Voices map[string]map[string]string
}

// Service is the speech use case. It is safe for concurrent use.
type Service struct {
	engines []domain.SpeechEngine
	catalog Catalog
	cache   Cache
	opt     Options
}

// New returns the service over engines (the first is the default when
// opt.Default names none of them). catalog may be nil: media_id is then
// refused as not found.
func New(engines []domain.SpeechEngine, cat Catalog, cache Cache, opt Options) *Service {
	if i := slices.IndexFunc(engines, func(e domain.SpeechEngine) bool { return e.Name() == opt.Default }); i > 0 {
		engines = slices.Clone(engines)
		engines[0], engines[i] = engines[i], engines[0]
	}
	return &Service{engines: engines, catalog: cat, cache: cache, opt: opt}
}

// engine is the engine called name ("" is the default), or nil.
func (s *Service) engine(name string) domain.SpeechEngine {
	if name == "" && len(s.engines) > 0 {
		return s.engines[0]
	}
	for _, e := range s.engines {
		if e.Name() == name {
			return e
		}
	}
	return nil
}

// defaultFormat is the format for engine when a request names none.
func (s *Service) defaultFormat(e domain.SpeechEngine) domain.AudioFormat {
	if s.opt.Format != "" {
		return s.opt.Format
	}
	if enc, ok := e.(Encoder); ok && !enc.CanEncode(domain.AudioMP3) {
		return domain.AudioWAV
	}
	return domain.AudioMP3
}

// EngineInfo is one engine as GET /api/tts/voices shows it.
type EngineInfo struct {
	Name    string
	Default bool
	// Unavailable is nil when the engine can speak now, else why not.
	Unavailable error
	Voices      []domain.Voice
	// DefaultVoices are the configured voice per language.
	DefaultVoices map[string]string
	// Formats are the formats the engine makes here.
	Formats []domain.AudioFormat
	// DefaultFormat is the format of a request that names none.
	DefaultFormat domain.AudioFormat
}

// Engines lists every engine with its availability and voices. An engine
// that cannot list its voices shows none and why.
func (s *Service) Engines(ctx context.Context) []EngineInfo {
	out := make([]EngineInfo, 0, len(s.engines))
	for i, e := range s.engines {
		info := EngineInfo{Name: e.Name(), Default: i == 0, Voices: []domain.Voice{},
			DefaultVoices: s.opt.Voices[e.Name()], DefaultFormat: s.defaultFormat(e)}
		info.Unavailable = e.Available(ctx)
		if info.Unavailable == nil {
			if v, err := e.Voices(ctx); err == nil {
				info.Voices = v
			} else {
				info.Unavailable = err
			}
		}
		for _, f := range []domain.AudioFormat{domain.AudioMP3, domain.AudioWAV, domain.AudioOGG} {
			if enc, ok := e.(Encoder); !ok || enc.CanEncode(f) {
				info.Formats = append(info.Formats, f)
			}
		}
		out = append(out, info)
	}
	return out
}

// Fingerprinter is implemented by an engine whose audio depends on more
// than voice, format and text (espeak's rate and pitch, a remote model or
// server): the fingerprint joins the cache name, so a changed setting is
// made anew rather than answered with the old audio.
type Fingerprinter interface {
	Fingerprint() string
}

// fileName is the cache name of text spoken as sp says: SHA-256 of the
// engine, its fingerprint, the voice, the format and the text, so the same
// request is made once, and a name reveals nothing of the text.
func fileName(sp Speech, text string) string {
	fp := ""
	if f, ok := sp.Engine.(Fingerprinter); ok {
		fp = f.Fingerprint()
	}
	h := sha256.New()
	for _, part := range []string{sp.Engine.Name(), fp, sp.Voice, string(sp.Format), text} {
		io.WriteString(h, part)
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil)) + "." + string(sp.Format)
}

// fileNameRe is the only shape of name GET /api/tts/file serves, and the
// only one the cache may count or evict (IsFileName).
var fileNameRe = regexp.MustCompile(`^[0-9a-f]{64}\.(mp3|wav|ogg)$`)

// IsFileName reports whether name is the shape of a cached audio file: the
// name filter of the cache, so a cache folder shared by mistake with other
// files never loses them to eviction.
func IsFileName(name string) bool { return fileNameRe.MatchString(name) }

// File is a cached audio file.
type File struct {
	Name   string
	Path   string
	Format domain.AudioFormat
}

// URL is where a client fetches the file.
func (f File) URL() string { return "/api/tts/file/" + f.Name }

// CachedFile is the cached file name for GET /api/tts/file/{name}: a name
// of another shape is invalid (400), one not in the cache not found.
func (s *Service) CachedFile(name string) (File, error) {
	m := fileNameRe.FindStringSubmatch(name)
	if m == nil {
		return File{}, domain.ErrInvalid("not an audio file name",
			map[string]string{"filename": "must be 64 lowercase hex digits and .mp3, .wav or .ogg"})
	}
	p, ok := s.cache.Path(name)
	if !ok {
		return File{}, domain.ErrNotFound("audio file " + name)
	}
	return File{Name: name, Path: p, Format: domain.AudioFormat(m[1])}, nil
}
