package google_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/repository/tts/google"
	"mediateka/repository/tts/ttstest"
	"mediateka/usecase/apikey"
	"mediateka/usecase/textmatch"
)

// key looks like a Google API key, so a leak is easy to see.
const key = "AIzaSyD-test-KEY-0123456789abcdefghij"

// The engine is checked against the key rotation's port.
var _ apikey.SpeechProvider = (*google.Engine)(nil)

func newEngine(t *testing.T, fake *ttstest.Google, opt google.Options) *google.Engine {
	t.Helper()
	opt.BaseURL = fake.URL()
	if opt.Split == nil {
		opt.Split = textmatch.Sentences
	}
	e, err := google.New(opt)
	require.NoError(t, err)
	return e
}

func TestRequestShapeAndAudioOfEachFormat(t *testing.T) {
	fake := ttstest.NewGoogle(t)
	e := newEngine(t, fake, google.Options{})
	assert.Equal(t, "google", e.Provider())
	assert.Equal(t, "google", e.Name())
	assert.False(t, e.KeyOptional())
	assert.Equal(t, "ru-RU-Wavenet-D", e.DefaultVoice())
	for _, c := range []struct {
		format         domain.AudioFormat
		voice, name    string
		lang, encoding string
		magic          string
	}{
		{domain.AudioMP3, "", "ru-RU-Wavenet-D", "ru-RU", "MP3", "ID3"},
		{domain.AudioWAV, "en-us-wavenet-c", "en-US-Wavenet-C", "en-US", "LINEAR16", "RIFF"},
		{domain.AudioOGG, "en-GB-Wavenet-B", "en-GB-Wavenet-B", "en-GB", "OGG_OPUS", "OggS"},
	} {
		var out bytes.Buffer
		require.NoError(t, e.Synthesize(context.Background(), key, "Привет, мир.", c.voice, c.format, &out))
		assert.True(t, bytes.HasPrefix(out.Bytes(), []byte(c.magic)), "%s starts with %s: % x", c.format, c.magic, out.Bytes()[:8])
		reqs := fake.Requests()
		r := reqs[len(reqs)-1]
		assert.Equal(t, key, r.Key, "the key goes in X-Goog-Api-Key")
		assert.Equal(t, "/v1/text:synthesize", r.URI, "nothing in the URL but the method")
		assert.NotContains(t, r.URI, key)
		assert.Equal(t, "Привет, мир.", r.Text)
		assert.Equal(t, c.name, r.Voice, "the listed name is sent, whatever its case in the request")
		assert.Equal(t, c.lang, r.LanguageCode, "the language code comes from the voice name")
		assert.Equal(t, c.encoding, r.Encoding)
	}
	var out bytes.Buffer
	require.NoError(t, e.Synthesize(context.Background(), key, "Привет.", "", domain.AudioWAV, &out))
	assert.InDelta(t, 7*ttstest.SamplesPerChar/float64(ttstest.SampleRate), ttstest.Duration(t, out.Bytes(), "wav"), 0.001)
}

// TestLongRussianTextIsSplitUnderTheByteLimit speaks a 5000-character
// Russian text (about 9 KB, past Google's 5000 bytes): every request holds
// whole sentences under the limit, and the WAV answers are joined into one
// file whose header tells the total length.
func TestLongRussianTextIsSplitUnderTheByteLimit(t *testing.T) {
	fake := ttstest.NewGoogle(t)
	e := newEngine(t, fake, google.Options{})
	text := ttstest.RussianText(domain.MaxSpeechChars)
	var out bytes.Buffer
	require.NoError(t, e.Synthesize(context.Background(), key, text, "ru-RU-Wavenet-A", domain.AudioWAV, &out))
	reqs := fake.Requests()
	require.Len(t, reqs, 2, "about 9 KB in pieces of at most 5000 bytes")
	chars := 0
	var texts []string
	for i, r := range reqs {
		assert.LessOrEqual(t, len(r.Text), google.MaxInputBytes, "request %d", i)
		assert.True(t, strings.HasSuffix(r.Text, ".") || strings.HasSuffix(r.Text, "!") || strings.HasSuffix(r.Text, "?") ||
			strings.HasSuffix(r.Text, "…"), "request %d ends a sentence", i)
		assert.Equal(t, "ru-RU", r.LanguageCode)
		chars += utf8.RuneCountInString(r.Text)
		texts = append(texts, r.Text)
	}
	assert.Equal(t, strings.Join(textmatch.Sentences(text), " "), strings.Join(texts, " "))
	b := out.Bytes()
	pcm := 2 * ttstest.SamplesPerChar * chars
	require.Equal(t, 44+pcm, len(b), "one header, the LIST chunks of the answers gone")
	assert.Equal(t, uint32(len(b)-8), binary.LittleEndian.Uint32(b[4:]))
	assert.Equal(t, uint32(pcm), binary.LittleEndian.Uint32(b[40:]))
	assert.InDelta(t, float64(pcm/2)/ttstest.SampleRate, ttstest.Duration(t, b, "wav"), 0.001)

	for _, f := range []domain.AudioFormat{domain.AudioMP3, domain.AudioOGG} {
		out.Reset()
		require.NoError(t, e.Synthesize(context.Background(), key, text, "", f, &out))
		ext := map[domain.AudioFormat]string{domain.AudioMP3: "mp3", domain.AudioOGG: "ogg"}[f]
		assert.InDelta(t, 2*ttstest.Decode(t, ttsPiece(t, e, f), ext), ttstest.Decode(t, out.Bytes(), ext), 0.15, "%s: two pieces played", f)
	}
}

// ttsPiece is the engine's audio for a one-piece text.
func ttsPiece(t *testing.T, e *google.Engine, f domain.AudioFormat) []byte {
	var out bytes.Buffer
	require.NoError(t, e.Synthesize(context.Background(), key, "Раз.", "", f, &out))
	return out.Bytes()
}

func TestErrorsAreTypedAndNeverShowTheKey(t *testing.T) {
	for _, c := range []struct {
		status int
		want   *domain.Error
		says   string
	}{
		{400, domain.ErrKeyRejected, "API key not valid"}, // API_KEY_INVALID
		{401, domain.ErrKeyRejected, "invalid authentication credentials"},
		{403, domain.ErrKeyRejected, "API has not been used"},
		{429, domain.ErrRateLimited, "Quota exceeded"},
		{500, domain.ErrTTSUnavailable, "try again later"},
		{503, domain.ErrTTSUnavailable, "currently unavailable"},
	} {
		fake := ttstest.NewGoogle(t)
		e := newEngine(t, fake, google.Options{})
		fake.Fail(key, c.status)
		var out bytes.Buffer
		err := e.Synthesize(context.Background(), key, "Привет.", "", domain.AudioMP3, &out)
		require.ErrorIs(t, err, c.want, "HTTP %d", c.status)
		assert.NotContains(t, err.Error(), key, "HTTP %d", c.status)
		assert.Contains(t, err.Error(), c.says, "HTTP %d: Google's message is kept", c.status)
		assert.Zero(t, out.Len(), "HTTP %d: nothing written", c.status)
		var de *domain.Error
		require.ErrorAs(t, err, &de)
		assert.Equal(t, domain.KindUnavailable, de.Kind)
	}
}

// TestAFailureOnALaterPieceWritesNothing: every piece is fetched before
// the first byte, so a key throttled half-way can still be swapped.
func TestAFailureOnALaterPieceWritesNothing(t *testing.T) {
	fake := ttstest.NewGoogle(t)
	var calls int
	e := newEngine(t, fake, google.Options{Split: func(s string) []string {
		calls++
		return textmatch.Sentences(s)
	}})
	fake.FailFrom(2, http.StatusTooManyRequests)
	var out bytes.Buffer
	err := e.Synthesize(context.Background(), key, ttstest.RussianText(domain.MaxSpeechChars), "", domain.AudioMP3, &out)
	require.ErrorIs(t, err, domain.ErrRateLimited)
	assert.Len(t, fake.Requests(), 2)
	assert.Zero(t, out.Len(), "nothing written")
	assert.Equal(t, 1, calls, "the splitter of the options is used")
}

func TestBadInputBeforeAnyRequest(t *testing.T) {
	fake := ttstest.NewGoogle(t)
	e := newEngine(t, fake, google.Options{})
	for name, call := range map[string]func(w *bytes.Buffer) error{
		"unknown voice": func(w *bytes.Buffer) error {
			return e.Synthesize(context.Background(), key, "Привет.", "ru-RU-Nonexistent-Z", domain.AudioMP3, w)
		},
		"unknown format": func(w *bytes.Buffer) error {
			return e.Synthesize(context.Background(), key, "Привет.", "", "flac", w)
		},
		"blank text": func(w *bytes.Buffer) error {
			return e.Synthesize(context.Background(), key, " \n ", "", domain.AudioMP3, w)
		},
	} {
		var out bytes.Buffer
		err := call(&out)
		var de *domain.Error
		require.ErrorAs(t, err, &de, name)
		assert.Equal(t, domain.KindInvalid, de.Kind, name)
		assert.NotEmpty(t, de.Fields, name)
		assert.Zero(t, out.Len(), name)
	}
	var out bytes.Buffer
	err := e.Synthesize(context.Background(), "", "Привет.", "", domain.AudioMP3, &out)
	assert.ErrorIs(t, err, domain.ErrTTSUnavailable, "no key")
	assert.Contains(t, err.Error(), "add one with provider google")
	assert.Empty(t, fake.Requests(), "nothing was asked")
}

func TestUnreachableServerIsUnavailable(t *testing.T) {
	e, err := google.New(google.Options{BaseURL: "http://127.0.0.1:1"})
	require.NoError(t, err)
	var out bytes.Buffer
	err = e.Synthesize(context.Background(), key, "Привет.", "", domain.AudioMP3, &out)
	require.ErrorIs(t, err, domain.ErrTTSUnavailable)
	assert.Contains(t, err.Error(), "unreachable")
	assert.Contains(t, err.Error(), "connection refused")
	assert.NotContains(t, err.Error(), key)
	assert.NotContains(t, err.Error(), "127.0.0.1:1/v1", "the URL is dropped from the transport's error")
}

// TestCancelStopsTheRequest: a cancelled context ends the request itself
// (the fake sees its client go), not just the caller's wait.
func TestCancelStopsTheRequest(t *testing.T) {
	fake := ttstest.NewGoogle(t)
	e := newEngine(t, fake, google.Options{})
	entered, gone := fake.Block()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	var out bytes.Buffer
	go func() { done <- e.Synthesize(ctx, key, "Привет.", "", domain.AudioMP3, &out) }()
	<-entered
	cancel()
	err := <-done
	assert.ErrorIs(t, err, context.Canceled)
	assert.ErrorIs(t, err, domain.ErrTTSUnavailable)
	assert.NotContains(t, err.Error(), key)
	<-gone
	assert.Zero(t, out.Len())
}

func TestVoicesAndConfiguration(t *testing.T) {
	fake := ttstest.NewGoogle(t)
	e := newEngine(t, fake, google.Options{})
	voices, err := e.Voices(context.Background())
	require.NoError(t, err)
	langs := map[string]bool{}
	for _, v := range voices {
		langs[v.Lang] = true
		assert.NotEmpty(t, v.Gender, v.ID)
	}
	assert.True(t, langs["ru-ru"] && langs["en-us"], "Russian and English voices: %v", langs)

	e = newEngine(t, fake, google.Options{DefaultVoice: "de-DE-Wavenet-B", Voices: []domain.Voice{{ID: "de-DE-Wavenet-B"}, {ID: "cmn-CN-Wavenet-A"}}})
	voices, _ = e.Voices(context.Background())
	assert.Equal(t, []domain.Voice{{ID: "de-DE-Wavenet-B", Name: "de-DE-Wavenet-B", Lang: "de-de"},
		{ID: "cmn-CN-Wavenet-A", Name: "cmn-CN-Wavenet-A", Lang: "cmn-cn"}}, voices)
	assert.Equal(t, "de-DE-Wavenet-B", e.DefaultVoice())
	var out bytes.Buffer
	require.NoError(t, e.Synthesize(context.Background(), key, "你好。", "cmn-CN-Wavenet-A", domain.AudioMP3, &out))
	assert.Equal(t, "cmn-CN", fake.Requests()[0].LanguageCode)
	err = e.Synthesize(context.Background(), key, "Hallo.", "ru-RU-Wavenet-D", domain.AudioMP3, &out)
	assert.Error(t, err, "a voice outside the configured list")

	for name, opt := range map[string]google.Options{
		"ftp base URL":           {BaseURL: "ftp://example.org"},
		"credentials in the URL": {BaseURL: "https://user:pw@example.org"},
		"voice without language": {Voices: []domain.Voice{{ID: "Wavenet"}}},
		"default not listed":     {DefaultVoice: "ru-RU-Wavenet-D", Voices: []domain.Voice{{ID: "en-US-Wavenet-A"}}},
	} {
		_, err := google.New(opt)
		var de *domain.Error
		require.ErrorAs(t, err, &de, name)
		assert.Equal(t, domain.KindInvalid, de.Kind, name)
	}
}

// TestNotAudioAnswerIsUnavailable: a 200 whose audio is not of the asked
// format (a misbehaving proxy) is refused before writing.
func TestNotAudioAnswerIsUnavailable(t *testing.T) {
	srv := newStub(t, http.StatusOK, `{"audioContent":"PGh0bWw+PC9odG1sPg=="}`)
	e, err := google.New(google.Options{BaseURL: srv})
	require.NoError(t, err)
	var out bytes.Buffer
	err = e.Synthesize(context.Background(), key, "Привет.", "", domain.AudioMP3, &out)
	assert.ErrorIs(t, err, domain.ErrTTSUnavailable)
	assert.Zero(t, out.Len())
}

// TestRefusedVoiceIsInvalidInput: a 400 about the voice (one configured
// here that Google does not have) is the client's input, with the field.
func TestRefusedVoiceIsInvalidInput(t *testing.T) {
	srv := newStub(t, http.StatusBadRequest, `{"error":{"code":400,"message":"Voice 'ru-RU-Wavenet-Q' does not exist. Is it misspelled?","status":"INVALID_ARGUMENT"}}`)
	e, err := google.New(google.Options{BaseURL: srv, Voices: []domain.Voice{{ID: "ru-RU-Wavenet-Q"}}, DefaultVoice: "ru-RU-Wavenet-Q"})
	require.NoError(t, err)
	err = e.Synthesize(context.Background(), key, "Привет.", "", domain.AudioMP3, &bytes.Buffer{})
	var de *domain.Error
	require.ErrorAs(t, err, &de)
	assert.Equal(t, domain.KindInvalid, de.Kind)
	assert.Contains(t, de.Fields["voice"], "does not exist")
	assert.Contains(t, de.Message, "does not exist")
}

// newStub serves body with status to every request.
func newStub(t *testing.T, status int, body string) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}
