package tts

import (
	"context"
	"errors"
	"strings"
	"testing"

	"mediateka/domain"
)

func TestPrepareRefusesWhatNoEngineShouldGet(t *testing.T) {
	svc, eng, _ := newTestService(t, 0)
	cases := []struct {
		name string
		req  Request
		code string
		kind domain.Kind
	}{
		{"blank", Request{Text: ""}, "invalid_input", domain.KindInvalid},
		{"spaces and line breaks", Request{Text: "  \n\t "}, "invalid_input", domain.KindInvalid},
		{"5001 characters", Request{Text: strings.Repeat("я", 5001)}, "text_too_long", domain.KindInvalid},
		{"a control character", Request{Text: "привет\x01мир"}, "invalid_input", domain.KindInvalid},
		{"an escape sequence", Request{Text: "hi \x1b[31m red"}, "invalid_input", domain.KindInvalid},
		{"not UTF-8", Request{Text: "abc\xff"}, "invalid_input", domain.KindInvalid},
		{"unknown engine", Request{Text: "hi", Engine: "festival"}, "invalid_input", domain.KindInvalid},
		{"unknown format", Request{Text: "hi", Format: "flac"}, "invalid_input", domain.KindInvalid},
		{"unknown voice", Request{Text: "hi", Voice: "klingon"}, "invalid_input", domain.KindInvalid},
		{"text and media_id", Request{Text: "hi", MediaID: "7", Field: "plot"}, "invalid_input", domain.KindInvalid},
		{"media_id not a number", Request{MediaID: "abc", Field: "plot"}, "invalid_input", domain.KindInvalid},
		{"media_id negative", Request{MediaID: "-1", Field: "plot"}, "invalid_input", domain.KindInvalid},
		{"media_id a fraction", Request{MediaID: "1.5", Field: "plot"}, "invalid_input", domain.KindInvalid},
		{"media_id without field", Request{MediaID: "7"}, "invalid_input", domain.KindInvalid},
		{"a field off the list", Request{MediaID: "7", Field: "path"}, "invalid_input", domain.KindInvalid},
		{"a title is not prose", Request{MediaID: "7", Field: "title"}, "invalid_input", domain.KindInvalid},
		{"SQL in the field", Request{MediaID: "7", Field: "plot; DROP TABLE media"}, "invalid_input", domain.KindInvalid},
		{"unknown entry", Request{MediaID: "999", Field: "plot"}, "media_not_found", domain.KindNotFound},
		{"an entry without a plot", Request{MediaID: "8", Field: "plot"}, "invalid_input", domain.KindInvalid},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := svc.Prepare(context.Background(), tc.req)
			var de *domain.Error
			if !errors.As(err, &de) {
				t.Fatalf("Prepare(%+v) = %v, want %s", tc.req, err, tc.code)
			}
			if de.Code != tc.code || de.Kind != tc.kind {
				t.Fatalf("Prepare(%+v) = %s (kind %v), want %s (kind %v)", tc.req, de.Code, de.Kind, tc.code, tc.kind)
			}
		})
	}
	if n := eng.calls.Load(); n != 0 {
		t.Fatalf("refused requests ran the engine %d times", n)
	}
}

func TestPrepareResolvesTheDefaults(t *testing.T) {
	svc, _, _ := newTestService(t, 0)
	ctx := context.Background()
	cases := []struct {
		name       string
		req        Request
		voice      string
		lang, text string
		format     domain.AudioFormat
	}{
		{"Russian text takes the Russian voice", Request{Text: "Привет, мир"}, "ru", "ru", "Привет, мир", domain.AudioMP3},
		{"English text takes the English voice", Request{Text: "Hello world"}, "en-us", "en", "Hello world", domain.AudioMP3},
		{"digits only take the default language", Request{Text: "1 2 3"}, "en-us", "en", "1 2 3", domain.AudioMP3},
		{"a voice asked for is kept", Request{Text: "Привет", Voice: "en-us", Format: "WAV"}, "en-us", "ru", "Привет", domain.AudioWAV},
		{"the plot of an entry", Request{MediaID: "7", Field: "plot", Format: "ogg"}, "ru", "ru", "Хакер Нео узнаёт правду. Мир — это симуляция.", domain.AudioOGG},
		{"a list field, one item a line", Request{MediaID: "7", Field: "facts"}, "ru", "ru", "Снят в 1999 г.\nБюджет 63 млн.", domain.AudioMP3},
		{"exactly 5000 characters", Request{Text: strings.Repeat("я", 5000)}, "ru", "ru", strings.Repeat("я", 5000), domain.AudioMP3},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			sp, err := svc.Prepare(ctx, tc.req)
			if err != nil {
				t.Fatal(err)
			}
			if sp.Voice != tc.voice || sp.Lang != tc.lang || sp.Text != tc.text || sp.Format != tc.format || sp.Engine.Name() != "espeak" {
				t.Fatalf("Prepare(%+v) = voice %q lang %q format %q text %q, want %q %q %q %q",
					tc.req, sp.Voice, sp.Lang, sp.Format, sp.Text, tc.voice, tc.lang, tc.format, tc.text)
			}
		})
	}
}

func TestSpokenFieldsAreTheProseOfTheFieldTable(t *testing.T) {
	got := strings.Join(SpokenFields(), ",")
	if got != "facts,plot,atmosphere,why_watch,final_verdict" {
		t.Fatalf("spoken fields = %s", got)
	}
}

func TestCachedFileTakesOnlyItsOwnNames(t *testing.T) {
	svc, _, _ := newTestService(t, 0)
	sp, err := svc.Prepare(context.Background(), Request{Text: "Проверка"})
	if err != nil {
		t.Fatal(err)
	}
	f, err := svc.Synthesize(context.Background(), sp)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := svc.CachedFile(f.Name); err != nil || got.Path != f.Path || got.Format != domain.AudioMP3 {
		t.Fatalf("CachedFile(%s) = %+v, %v", f.Name, got, err)
	}
	hex := strings.TrimSuffix(f.Name, ".mp3")
	for _, name := range []string{"../" + f.Name, strings.ToUpper(hex) + ".mp3", hex[1:] + ".mp3", hex + ".flac",
		hex + ".mp3/", "/" + f.Name, hex + ".MP3", hex + ".mp3\x00", ""} {
		if _, err := svc.CachedFile(name); domain.KindOf(err) != domain.KindInvalid {
			t.Errorf("CachedFile(%q) = %v, want invalid", name, err)
		}
	}
	absent := strings.Repeat("0", 64) + ".wav"
	if _, err := svc.CachedFile(absent); domain.KindOf(err) != domain.KindNotFound {
		t.Errorf("CachedFile(absent) = %v, want not found", err)
	}
}

// TestPrepareRefusesAnUnknownVoiceBeforeTheEngineIsUp: a voice the engine
// does not list is the client's mistake (400) even while the engine cannot
// speak (no key), when the list is known without it.
func TestPrepareRefusesAnUnknownVoiceBeforeTheEngineIsUp(t *testing.T) {
	r := &remote{name: "google", unavailable: domain.TTSUnavailable("add a google key", nil),
		voices: []domain.Voice{{ID: "ru-RU-Wavenet-D", Lang: "ru"}}}
	svc := newRemoteService(t, r)
	_, err := svc.Prepare(context.Background(), Request{Text: "Привет", Voice: "klingon"})
	var de *domain.Error
	if !errors.As(err, &de) || de.Kind != domain.KindInvalid || de.Fields["voice"] == "" {
		t.Fatalf("unknown voice, engine down: %v, want invalid_input fields.voice", err)
	}
	_, err = svc.Prepare(context.Background(), Request{Text: "Привет", Voice: "ru-RU-Wavenet-D"})
	if !errors.Is(err, domain.ErrTTSUnavailable) {
		t.Fatalf("a listed voice, engine down: %v, want tts_unavailable", err)
	}
}
