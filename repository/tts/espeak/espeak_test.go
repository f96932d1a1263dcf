package espeak

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"mediateka/domain"
	"mediateka/repository/exectest"
)

const (
	russian = "Привет! Это проверка синтеза речи. Фильм вышел в 1999 г. и стал классикой."
	english = "Hello! This is a speech synthesis test. Mr. Anderson wakes up."
)

// speak runs a synthesis into a buffer and fails the test on an error.
func speak(t *testing.T, e *Engine, text, voice string, format domain.AudioFormat) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := e.Synthesize(context.Background(), text, voice, format, &buf); err != nil {
		t.Fatalf("Synthesize(%s, %s): %v", voice, format, err)
	}
	return buf.Bytes()
}

// duration is what ffprobe tells of the audio's length, in seconds.
func duration(t *testing.T, audio []byte, ext string) float64 {
	t.Helper()
	path := filepath.Join(t.TempDir(), "speech."+ext)
	if err := os.WriteFile(path, audio, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path).Output()
	if err != nil {
		t.Fatalf("ffprobe: %v", err)
	}
	d, err := strconv.ParseFloat(strings.TrimSpace(string(out)), 64)
	if err != nil {
		t.Fatalf("ffprobe duration %q: %v", out, err)
	}
	return d
}

func TestWAVInRussianAndEnglish(t *testing.T) {
	exectest.Require(t, "espeak-ng", "espeak-ng")
	exectest.Require(t, "ffmpeg", "ffprobe")
	e := New(Options{})
	for _, c := range []struct{ voice, text string }{{"", russian}, {"ru", russian}, {"en-us", english}} {
		audio := speak(t, e, c.text, c.voice, domain.AudioWAV)
		if len(audio) < 44 || string(audio[:4]) != "RIFF" || string(audio[8:12]) != "WAVE" {
			t.Fatalf("voice %q: not a WAV: % x", c.voice, audio[:min(len(audio), 16)])
		}
		if d := duration(t, audio, "wav"); d < 1 {
			t.Errorf("voice %q: %.2f s of speech for a whole sentence", c.voice, d)
		}
	}
}

func TestMP3AndOggThroughFFmpeg(t *testing.T) {
	exectest.Require(t, "espeak-ng", "espeak-ng")
	exectest.Require(t, "ffmpeg", "ffmpeg", "ffprobe")
	e := New(Options{Rate: 200, Pitch: 40})
	mp3 := speak(t, e, russian, "ru", domain.AudioMP3)
	if !bytes.HasPrefix(mp3, []byte("ID3")) && !(len(mp3) > 1 && mp3[0] == 0xFF && mp3[1]&0xE0 == 0xE0) {
		t.Errorf("not an mp3: % x", mp3[:min(len(mp3), 16)])
	}
	ogg := speak(t, e, english, "en-us", domain.AudioOGG)
	if !bytes.HasPrefix(ogg, []byte("OggS")) || !bytes.Contains(ogg[:min(len(ogg), 200)], []byte("OpusHead")) {
		t.Errorf("not Ogg/Opus: % x", ogg[:min(len(ogg), 40)])
	}
	for ext, audio := range map[string][]byte{"mp3": mp3, "ogg": ogg} {
		if d := duration(t, audio, ext); d < 1 {
			t.Errorf("%s: %.2f s of speech for a whole sentence", ext, d)
		}
	}
}

func TestVoicesComeFromEspeak(t *testing.T) {
	exectest.Require(t, "espeak-ng", "espeak-ng")
	voices, err := New(Options{}).Voices(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	found := map[string]string{}
	for _, v := range voices {
		found[v.ID] = v.Name
	}
	if found["ru"] != "Russian" || found["en-us"] != "English (America)" {
		t.Errorf("ru %q, en-us %q among %d voices", found["ru"], found["en-us"], len(voices))
	}
}

func TestBadInputIsInvalidAndWritesNothing(t *testing.T) {
	exectest.Require(t, "espeak-ng", "espeak-ng")
	e := New(Options{})
	for _, c := range []struct {
		voice  string
		format domain.AudioFormat
	}{{"klingon", domain.AudioWAV}, {"--stdout", domain.AudioWAV}, {"ru", "flac"}} {
		var buf bytes.Buffer
		err := e.Synthesize(context.Background(), russian, c.voice, c.format, &buf)
		if !domain.IsKind(err, domain.KindInvalid) || buf.Len() != 0 {
			t.Errorf("voice %q format %q: %v, %d bytes written; want an Invalid error and nothing", c.voice, c.format, err, buf.Len())
		}
	}
}

func TestMissingProgramsAreUnavailable(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "espeak-ng")
	e := New(Options{Bin: missing})
	if err := e.Available(context.Background()); !errors.Is(err, domain.ErrTTSUnavailable) || !strings.Contains(err.Error(), "apt-get install espeak-ng") {
		t.Errorf("Available without espeak-ng: %v", err)
	}
	var buf bytes.Buffer
	if err := e.Synthesize(context.Background(), english, "en-us", domain.AudioWAV, &buf); !errors.Is(err, domain.ErrTTSUnavailable) || buf.Len() != 0 {
		t.Errorf("Synthesize without espeak-ng: %v, %d bytes", err, buf.Len())
	}

	exectest.Require(t, "espeak-ng", "espeak-ng")
	e = New(Options{FFmpeg: filepath.Join(t.TempDir(), "ffmpeg")})
	for _, f := range []domain.AudioFormat{domain.AudioMP3, domain.AudioOGG} {
		err := e.Synthesize(context.Background(), english, "en-us", f, &buf)
		if !errors.Is(err, domain.ErrTTSUnavailable) || !strings.Contains(err.Error(), "ffmpeg") || buf.Len() != 0 {
			t.Errorf("%s without ffmpeg: %v, %d bytes", f, err, buf.Len())
		}
	}
	if e.CanEncode(domain.AudioMP3) || !e.CanEncode(domain.AudioWAV) {
		t.Error("without ffmpeg only wav can be made")
	}
	speak(t, e, english, "en-us", domain.AudioWAV) // wav needs no ffmpeg
}

// When ffmpeg fails, its own words are the error, not the cancellation of
// espeak-ng that its failure caused.
func TestAFailingEncoderIsTheErrorTold(t *testing.T) {
	exectest.Require(t, "espeak-ng", "espeak-ng")
	fake := filepath.Join(t.TempDir(), "ffmpeg")
	script := "#!/bin/sh\ncat >/dev/null & echo \"Unknown encoder 'libmp3lame'\" >&2; exit 1\n"
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	e := New(Options{FFmpeg: fake})
	err := e.Synthesize(context.Background(), russian, "", domain.AudioMP3, &bytes.Buffer{})
	if err == nil || errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "Unknown encoder") {
		t.Fatalf("want ffmpeg's own failure, got %v", err)
	}
}
