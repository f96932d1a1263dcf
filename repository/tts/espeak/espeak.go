// Package espeak speaks text with espeak-ng, the offline speech engine of
// Debian: WAV straight from `espeak-ng --stdout`, mp3 and Ogg/Opus through
// ffmpeg in a pipe. It is the default engine of the TTS port
// (domain.SpeechEngine) because it needs no key and no network.
package espeak

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strings"
	"sync"

	"mediateka/domain"
	"mediateka/repository/procgroup"
)

// Options configure the engine; zero values take the defaults.
type Options struct {
	// Bin is the espeak-ng program ("espeak-ng" on the PATH).
	Bin string
	// FFmpeg is the ffmpeg program for mp3 and ogg ("ffmpeg" on the PATH).
	FFmpeg string
	// DefaultVoice is the voice for a request without one ("ru").
	DefaultVoice string
	// Rate is the speed in words a minute (espeak-ng's own 175 when 0).
	Rate int
	// Pitch is 0–99 (espeak-ng's own 50 when 0).
	Pitch int
	// MaxProcesses bounds the syntheses running at once (2 when 0); more
	// wait for a slot while their context lives.
	MaxProcesses int
}

// Engine is espeak-ng behind the speech port. It is safe for concurrent use.
type Engine struct {
	opt   Options
	slots chan struct{}

	mu     sync.Mutex
	voices []domain.Voice // read once, the first time they are asked for
}

// New returns the engine. It never fails: a missing espeak-ng shows in
// Available and in every Synthesize as tts_unavailable, so installing it
// later needs no restart.
func New(opt Options) *Engine {
	if opt.Bin == "" {
		opt.Bin = "espeak-ng"
	}
	if opt.FFmpeg == "" {
		opt.FFmpeg = "ffmpeg"
	}
	if opt.DefaultVoice == "" {
		opt.DefaultVoice = "ru"
	}
	if opt.MaxProcesses <= 0 {
		opt.MaxProcesses = 2
	}
	return &Engine{opt: opt, slots: make(chan struct{}, opt.MaxProcesses)}
}

// Name implements domain.SpeechEngine.
func (e *Engine) Name() string { return "espeak" }

// Available implements domain.SpeechEngine: nil when espeak-ng is installed.
func (e *Engine) Available(context.Context) error {
	_, err := e.espeakPath()
	return err
}

// Fingerprint is what, besides the voice and text, changes the audio
// espeak-ng makes: the default voice, rate and pitch. The use case puts it
// into the cache name, so a changed setting is not answered with the old
// audio.
func (e *Engine) Fingerprint() string {
	return fmt.Sprintf("voice=%s rate=%d pitch=%d", e.opt.DefaultVoice, e.opt.Rate, e.opt.Pitch)
}

// CanEncode reports whether format can be made here: wav always, mp3 and
// ogg only with ffmpeg installed. The API's default format follows it.
func (e *Engine) CanEncode(format domain.AudioFormat) bool {
	if format == domain.AudioWAV {
		return true
	}
	_, err := exec.LookPath(e.opt.FFmpeg)
	return format.Valid() && err == nil
}

// espeakPath finds espeak-ng, or says how to install it.
func (e *Engine) espeakPath() (string, error) {
	path, err := exec.LookPath(e.opt.Bin)
	if err != nil {
		return "", domain.TTSUnavailable("espeak-ng is not installed: apt-get install espeak-ng, or choose another engine", err)
	}
	return path, nil
}

// Voices implements domain.SpeechEngine with the list of `espeak-ng
// --voices`, read once.
func (e *Engine) Voices(ctx context.Context) ([]domain.Voice, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.voices != nil {
		return e.voices, nil
	}
	path, err := e.espeakPath()
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, path, "--voices")
	procgroup.Own(cmd)
	out, err := cmd.Output()
	if err != nil {
		return nil, domain.TTSUnavailable("espeak-ng could not list its voices: reinstall espeak-ng", err)
	}
	e.voices = parseVoices(out)
	return e.voices, nil
}

// parseVoices reads the table of `espeak-ng --voices`:
//
//	Pty Language       Age/Gender VoiceName          File                 Other Languages
//	 5  ru              --/M      Russian            zle/ru
func parseVoices(out []byte) []domain.Voice {
	voices := []domain.Voice{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 4 || f[0] == "Pty" {
			continue
		}
		v := domain.Voice{ID: f[1], Lang: f[1], Name: strings.ReplaceAll(f[3], "_", " ")}
		switch {
		case strings.HasSuffix(f[2], "/M"):
			v.Gender = "male"
		case strings.HasSuffix(f[2], "/F"):
			v.Gender = "female"
		}
		voices = append(voices, v)
	}
	return voices
}

// voice resolves the requested voice ("" for the default) to an espeak-ng
// voice id, or rejects one espeak-ng does not have.
func (e *Engine) voice(ctx context.Context, want string) (string, error) {
	if want == "" {
		want = e.opt.DefaultVoice
	}
	voices, err := e.Voices(ctx)
	if err != nil {
		return "", err
	}
	for _, v := range voices {
		if strings.EqualFold(v.ID, want) {
			return v.ID, nil
		}
	}
	return "", domain.ErrInvalid(fmt.Sprintf("espeak has no voice %q", want), map[string]string{"voice": "unknown voice"})
}
