package tts

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"mediateka/domain"
	"mediateka/repository/exectest"
	"mediateka/repository/localfs"
	"mediateka/repository/tts/espeak"
	"mediateka/usecase/catalog"
)

// counting is the real espeak engine, counting the syntheses it runs.
type counting struct {
	*espeak.Engine
	calls atomic.Int32
}

func (c *counting) Synthesize(ctx context.Context, text, voice string, format domain.AudioFormat, w io.Writer) error {
	c.calls.Add(1)
	return c.Engine.Synthesize(ctx, text, voice, format, w)
}

// entries is a catalogue of a few entries in memory: the spoken-field
// rules are the use case's, the store has its own tests.
type entries map[int64]domain.Media

func (e entries) Get(_ context.Context, id int64) (catalog.Entry, error) {
	m, ok := e[id]
	if !ok {
		return catalog.Entry{}, domain.ErrMediaNotFound
	}
	return catalog.Entry{Media: m}, nil
}

// newTestService is the use case over real espeak-ng (and ffmpeg for mp3
// and ogg) with a cache in a temporary folder.
func newTestService(t *testing.T, maxBytes int64) (*Service, *counting, string) {
	t.Helper()
	exectest.Require(t, "espeak-ng", "espeak-ng")
	exectest.Require(t, "ffmpeg", "ffmpeg", "ffprobe")
	dir := t.TempDir()
	cache, err := localfs.NewCache(dir, maxBytes, IsFileName)
	if err != nil {
		t.Fatal(err)
	}
	eng := &counting{Engine: espeak.New(espeak.Options{})}
	cat := entries{
		7: {ID: 7, Title: "Матрица", Plot: "Хакер Нео узнаёт правду. Мир — это симуляция.", Facts: []string{"Снят в 1999 г.", " ", "Бюджет 63 млн."}},
		8: {ID: 8, Title: "Пустой"},
	}
	svc := New([]domain.SpeechEngine{eng}, cat, cache, Options{Default: "espeak",
		Voices: map[string]map[string]string{"espeak": {"ru": "ru", "en": "en-us"}}})
	return svc, eng, dir
}

// probe is ffprobe's duration of the audio at path, in seconds.
func probe(t *testing.T, path string) float64 {
	t.Helper()
	out, err := exec.Command("ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path).Output()
	if err != nil {
		t.Fatalf("ffprobe %s: %v", path, err)
	}
	d, err := strconv.ParseFloat(strings.TrimSpace(string(out)), 64)
	if err != nil {
		t.Fatalf("ffprobe duration %q: %v", out, err)
	}
	return d
}

// write keeps audio in a file for ffprobe.
func write(t *testing.T, audio []byte, ext string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "audio."+ext)
	if err := os.WriteFile(p, audio, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// remote stands in for a remote engine (Google, an OpenAI-compatible
// server) behind its port: its voices are a local list, as theirs are,
// whether or not it can speak now; it answers audio the test gives.
type remote struct {
	name        string
	unavailable error
	voices      []domain.Voice
	// audio is the answer to one synthesis of text.
	audio func(text string, format domain.AudioFormat) []byte
	// chunk, when not 0, is how many bytes each write carries.
	chunk int
	// fingerprint stands for its settings (server, model).
	fingerprint string
	calls       atomic.Int32
}

func (r *remote) Fingerprint() string { return r.fingerprint }

func (r *remote) Name() string                                   { return r.name }
func (r *remote) Available(context.Context) error                { return r.unavailable }
func (r *remote) Voices(context.Context) ([]domain.Voice, error) { return r.voices, nil }
func (r *remote) Synthesize(_ context.Context, text, _ string, format domain.AudioFormat, w io.Writer) error {
	r.calls.Add(1)
	if r.unavailable != nil {
		return r.unavailable
	}
	b := r.audio(text, format)
	for len(b) > 0 {
		n := len(b)
		if r.chunk > 0 {
			n = min(n, r.chunk)
		}
		if _, err := w.Write(b[:n]); err != nil {
			return err
		}
		b = b[n:]
	}
	return nil
}

// newRemoteService is the use case over r alone, with a cache in a
// temporary folder.
func newRemoteService(t *testing.T, r *remote) *Service {
	t.Helper()
	cache, err := localfs.NewCache(t.TempDir(), 0, IsFileName)
	if err != nil {
		t.Fatal(err)
	}
	return New([]domain.SpeechEngine{r}, nil, cache, Options{Default: r.name})
}
