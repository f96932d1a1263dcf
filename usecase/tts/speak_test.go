package tts

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"mediateka/domain"
	"mediateka/repository/exectest"
	"mediateka/repository/localfs"
	"mediateka/repository/tts/espeak"
	"mediateka/repository/tts/ttstest"
)

func TestSynthesizeMakesEachSpeechOnce(t *testing.T) {
	svc, eng, _ := newTestService(t, 0)
	ctx := context.Background()
	sp, err := svc.Prepare(ctx, Request{Text: "Фильм вышел в 1999 г. Он стал классикой."})
	if err != nil {
		t.Fatal(err)
	}
	first, err := svc.Synthesize(ctx, sp)
	if err != nil {
		t.Fatal(err)
	}
	audio, err := os.ReadFile(first.Path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(audio, []byte("ID3")) && !(len(audio) > 1 && audio[0] == 0xFF && audio[1]&0xE0 == 0xE0) {
		t.Fatalf("not mp3: % x", audio[:min(len(audio), 8)])
	}
	if d := probe(t, first.Path); d < 1 {
		t.Fatalf("duration %.2f s", d)
	}
	again, err := svc.Synthesize(ctx, sp)
	if err != nil || again != first {
		t.Fatalf("again = %+v, %v; want %+v", again, err, first)
	}
	if n := eng.calls.Load(); n != 1 {
		t.Fatalf("the engine ran %d times for one speech asked twice", n)
	}
	other, err := svc.Prepare(ctx, Request{Text: sp.Text, Voice: "en-us"})
	if err != nil {
		t.Fatal(err)
	}
	f, err := svc.Synthesize(ctx, other)
	if err != nil || f.Name == first.Name {
		t.Fatalf("another voice must be another file: %+v, %v", f, err)
	}
}

func TestConcurrentSynthesesOfOneTextNeverServeHalfAFile(t *testing.T) {
	svc, _, _ := newTestService(t, 0)
	ctx := context.Background()
	sp, err := svc.Prepare(ctx, Request{Text: "Одновременно. Несколько запросов. Один и тот же текст.", Format: "wav"})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	sizes := make([]int, 6)
	for i := range sizes {
		wg.Go(func() {
			f, err := svc.Synthesize(ctx, sp)
			if err != nil {
				t.Error(err)
				return
			}
			b, err := os.ReadFile(f.Path)
			if err != nil {
				t.Error(err)
				return
			}
			sizes[i] = len(b)
		})
	}
	wg.Wait()
	for _, n := range sizes[1:] {
		if n != sizes[0] || n < 1000 {
			t.Fatalf("sizes read while others wrote: %v", sizes)
		}
	}
}

func TestStreamAudioIsOneWAVOfEverySentence(t *testing.T) {
	svc, _, _ := newTestService(t, 0)
	ctx := context.Background()
	text := "Первое предложение. Второе, т. е. следующее! А третье?\nЧетвёртое на новой строке..."
	sp, err := svc.Prepare(ctx, Request{Text: text, Format: "wav"})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := svc.StreamAudio(ctx, sp, &out); err != nil {
		t.Fatal(err)
	}
	b := out.Bytes()
	if string(b[:4]) != "RIFF" || bytes.Count(b, []byte("RIFF")) != 1 || bytes.Count(b, []byte("WAVEfmt")) != 1 {
		t.Fatalf("want exactly one WAV header, have %d RIFF", bytes.Count(b, []byte("RIFF")))
	}
	if got := binary.LittleEndian.Uint32(b[4:8]); got != 0xFFFFFFFF {
		t.Fatalf("RIFF size %#x, want unknown (0xFFFFFFFF)", got)
	}
	// The stream lasts as long as its sentences spoken one by one.
	var sum float64
	for _, s := range []string{"Первое предложение.", "Второе, т. е. следующее!", "А третье?", "Четвёртое на новой строке..."} {
		one, err := svc.Prepare(ctx, Request{Text: s, Format: "wav"})
		if err != nil {
			t.Fatal(err)
		}
		f, err := svc.Synthesize(ctx, one)
		if err != nil {
			t.Fatal(err)
		}
		sum += probe(t, f.Path)
	}
	// ffprobe cannot read the length of a live WAV from its header, so the
	// samples are counted: 16-bit mono at the header's rate.
	rate := binary.LittleEndian.Uint32(b[24:28])
	got := float64(len(b)-44) / 2 / float64(rate)
	if math.Abs(got-sum) > 0.05*sum {
		t.Fatalf("stream %.2f s, sentences %.2f s", got, sum)
	}
}

func TestStreamAudioMP3AndOggPlay(t *testing.T) {
	svc, _, _ := newTestService(t, 0)
	ctx := context.Background()
	for _, format := range []string{"mp3", "ogg"} {
		sp, err := svc.Prepare(ctx, Request{Text: "One sentence. Another sentence! A third one?", Format: format})
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		if err := svc.StreamAudio(ctx, sp, &out); err != nil {
			t.Fatal(err)
		}
		if d := probe(t, write(t, out.Bytes(), format)); d < 1.5 {
			t.Fatalf("%s: %.2f s for three sentences", format, d)
		}
	}
}

func TestStreamTextGivesEverySentenceItsFile(t *testing.T) {
	svc, _, _ := newTestService(t, 0)
	ctx := context.Background()
	sp, err := svc.Prepare(ctx, Request{Text: "Mr. Smith came home. He was tired… Then he slept!"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	err = svc.StreamText(ctx, sp, func(p Piece) error {
		if p.Index != len(got) {
			t.Errorf("index %d after %d pieces", p.Index, len(got))
		}
		if f, err := svc.CachedFile(p.File.Name); err != nil || f.Path == "" {
			t.Errorf("piece %d's file: %v", p.Index, err)
		}
		if !strings.HasPrefix(p.File.URL(), "/api/tts/file/") {
			t.Errorf("url %s", p.File.URL())
		}
		got = append(got, p.Text)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"Mr. Smith came home.", "He was tired…", "Then he slept!"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("pieces %q, want %q", got, want)
	}
}

func TestSpeakFitsLongAnswers(t *testing.T) {
	svc, _, _ := newTestService(t, 0)
	long := strings.Repeat("Это длинный ответ ассистента. ", 200) // 6000 characters
	f, err := svc.Speak(context.Background(), long, domain.AudioOGG)
	if err != nil {
		t.Fatal(err)
	}
	if f.Format != domain.AudioOGG || !strings.HasSuffix(f.Name, ".ogg") {
		t.Fatalf("file %+v", f)
	}
	cut := fitSpeech(long)
	if n := utf8.RuneCountInString(cut); n > domain.MaxSpeechChars || n < domain.MaxSpeechChars-40 || !strings.HasSuffix(cut, "ассистента.") {
		t.Fatalf("cut to %d characters ending %q", n, cut[len(cut)-30:])
	}
	if one := strings.Repeat("я", 6000); utf8.RuneCountInString(fitSpeech(one)) != domain.MaxSpeechChars {
		t.Fatal("a single over-long sentence is cut at the limit")
	}
}

// TestTheCacheNameFollowsTheEngineSettings: audio made before a setting
// changed (espeak's rate, a remote model) is not served after it, and a
// voice asked in another case is the listed voice, one file.
func TestTheCacheNameFollowsTheEngineSettings(t *testing.T) {
	exectest.Require(t, "espeak-ng", "espeak-ng")
	ctx := context.Background()
	dir := t.TempDir()
	nameAt := func(opt espeak.Options, voice string) string {
		t.Helper()
		cache, err := localfs.NewCache(dir, 0, IsFileName)
		if err != nil {
			t.Fatal(err)
		}
		svc := New([]domain.SpeechEngine{espeak.New(opt)}, nil, cache, Options{Default: "espeak"})
		sp, err := svc.Prepare(ctx, Request{Text: "Привет", Voice: voice, Format: "wav"})
		if err != nil {
			t.Fatal(err)
		}
		f, err := svc.Synthesize(ctx, sp)
		if err != nil {
			t.Fatal(err)
		}
		return f.Name
	}
	plain := nameAt(espeak.Options{}, "ru")
	if slow := nameAt(espeak.Options{Rate: 90}, "ru"); slow == plain {
		t.Error("a new tts.espeak.rate is answered with the audio made at the old one")
	}
	if high := nameAt(espeak.Options{Pitch: 90}, "ru"); high == plain {
		t.Error("a new tts.espeak.pitch is answered with the audio made at the old one")
	}
	if upper := nameAt(espeak.Options{}, "RU"); upper != plain {
		t.Errorf("voice RU is %s, ru %s: one voice, two files", upper, plain)
	}

	r := &remote{name: "openai", voices: []domain.Voice{{ID: "alloy"}}, fingerprint: "model=tts-1",
		audio: func(string, domain.AudioFormat) []byte { return []byte("RIFF") }}
	svc := newRemoteService(t, r)
	made := func(voice string) string {
		sp, err := svc.Prepare(ctx, Request{Text: "Hello", Voice: voice, Format: "wav"})
		if err != nil {
			t.Fatal(err)
		}
		f, err := svc.Synthesize(ctx, sp)
		if err != nil {
			t.Fatal(err)
		}
		return f.Name
	}
	first := made("alloy")
	r.fingerprint = "model=gpt-4o-mini-tts"
	if made("ALLOY") == first || r.calls.Load() != 2 {
		t.Errorf("another model: %d syntheses, want 2 (a file apart)", r.calls.Load())
	}
}

// TestStreamAudioJoinsRemoteMP3AsOneFile: a remote engine's mp3 carries an
// ID3 tag and a LAME Info frame per sentence; joined as they come, a
// player would read the first Info frame's count and stop after the first
// sentence. The stream keeps one tag and no Info frame.
func TestStreamAudioJoinsRemoteMP3AsOneFile(t *testing.T) {
	exectest.Require(t, "ffmpeg", "ffmpeg", "ffprobe")
	tone := ttstest.MP3()
	// 7 bytes a write, as a slow connection may: the head of each
	// sentence arrives in pieces.
	r := &remote{name: "openai", chunk: 7, audio: func(string, domain.AudioFormat) []byte { return ttstest.MP3() }}
	svc := newRemoteService(t, r)
	ctx := context.Background()
	sp, err := svc.Prepare(ctx, Request{Text: "One sentence. Another sentence! A third one?", Format: "mp3"})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := svc.StreamAudio(ctx, sp, &out); err != nil {
		t.Fatal(err)
	}
	b := out.Bytes()
	if r.calls.Load() != 3 || !bytes.HasPrefix(b, tone[:10]) {
		t.Fatalf("%d syntheses; the stream starts % x", r.calls.Load(), b[:10])
	}
	if n := bytes.Count(b, []byte("ID3")); n != 1 {
		t.Errorf("%d ID3 tags, want the first sentence's only", n)
	}
	if bytes.Contains(b, []byte("Info")) || bytes.Contains(b, []byte("Xing")) {
		t.Error("an Info/Xing frame left in the joined stream")
	}
	if d := probe(t, write(t, b, "mp3")); d < 1.1 {
		t.Fatalf("%.2f s for three sentences of 0.4 s", d)
	}
}

// TestWithoutFFmpegTheDefaultIsWAV: on a machine without ffmpeg espeak
// speaks WAV by default, lists only wav, and an explicit mp3 or ogg is
// refused before any audio is made, with what to do.
func TestWithoutFFmpegTheDefaultIsWAV(t *testing.T) {
	exectest.Require(t, "espeak-ng", "espeak-ng")
	ctx := context.Background()
	cache, err := localfs.NewCache(t.TempDir(), 0, IsFileName)
	if err != nil {
		t.Fatal(err)
	}
	noFFmpeg := espeak.New(espeak.Options{FFmpeg: filepath.Join(t.TempDir(), "ffmpeg")})
	svc := New([]domain.SpeechEngine{noFFmpeg}, nil, cache, Options{Default: "espeak"})
	sp, err := svc.Prepare(ctx, Request{Text: "Привет, мир."})
	if err != nil {
		t.Fatal(err)
	}
	if sp.Format != domain.AudioWAV {
		t.Errorf("default format without ffmpeg: %s, want wav", sp.Format)
	}
	f, err := svc.Synthesize(ctx, sp)
	if err != nil {
		t.Fatal(err)
	}
	if head, _ := os.ReadFile(f.Path); !bytes.HasPrefix(head, []byte("RIFF")) {
		t.Error("the default audio is not WAV")
	}
	info := svc.Engines(ctx)[0]
	if info.DefaultFormat != domain.AudioWAV || len(info.Formats) != 1 || info.Formats[0] != domain.AudioWAV {
		t.Errorf("voices list: default %s, formats %v; want wav only", info.DefaultFormat, info.Formats)
	}
	for _, format := range []string{"mp3", "ogg"} {
		_, err := svc.Prepare(ctx, Request{Text: "Привет.", Format: format})
		if !errors.Is(err, domain.ErrTTSUnavailable) || !strings.Contains(err.Error(), "ffmpeg") {
			t.Errorf("%s without ffmpeg: %v", format, err)
		}
	}

	// With ffmpeg the same request is mp3.
	withFFmpeg := New([]domain.SpeechEngine{espeak.New(espeak.Options{})}, nil, cache, Options{Default: "espeak"})
	exectest.Require(t, "ffmpeg", "ffmpeg")
	if sp, err := withFFmpeg.Prepare(ctx, Request{Text: "Привет, мир."}); err != nil || sp.Format != domain.AudioMP3 {
		t.Errorf("default format with ffmpeg: %s, %v; want mp3", sp.Format, err)
	}
}

// TestRateAndPitchReachEspeak: tts.espeak.rate is words per minute, so the
// same text at half the rate lasts about twice as long; the pitch changes
// the audio itself.
func TestRateAndPitchReachEspeak(t *testing.T) {
	exectest.Require(t, "espeak-ng", "espeak-ng")
	ctx := context.Background()
	text := "Фильм вышел в девяносто девятом году и стал классикой жанра."
	speak := func(opt espeak.Options) []byte {
		t.Helper()
		cache, err := localfs.NewCache(t.TempDir(), 0, IsFileName)
		if err != nil {
			t.Fatal(err)
		}
		svc := New([]domain.SpeechEngine{espeak.New(opt)}, nil, cache, Options{Default: "espeak"})
		sp, err := svc.Prepare(ctx, Request{Text: text, Voice: "ru", Format: "wav"})
		if err != nil {
			t.Fatal(err)
		}
		f, err := svc.Synthesize(ctx, sp)
		if err != nil {
			t.Fatal(err)
		}
		audio, err := os.ReadFile(f.Path)
		if err != nil {
			t.Fatal(err)
		}
		return audio
	}
	fast, slow := speak(espeak.Options{Rate: 240}), speak(espeak.Options{Rate: 120})
	if ratio := float64(len(slow)) / float64(len(fast)); ratio < 1.6 || ratio > 2.4 {
		t.Errorf("half the rate: %d bytes against %d (×%.2f), want about twice as long", len(slow), len(fast), ratio)
	}
	if low, high := speak(espeak.Options{Rate: 240, Pitch: 10}), speak(espeak.Options{Rate: 240, Pitch: 90}); bytes.Equal(low, high) {
		t.Error("pitch 10 and 90 make the same audio")
	}
}
