package openai_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/repository/tts/openai"
	"mediateka/repository/tts/ttstest"
	"mediateka/usecase/apikey"
	"mediateka/usecase/textmatch"
)

// key looks like an OpenAI key, so a leak is easy to see.
const key = "sk-proj-TEST0123456789abcdefghijklmnop"

// The engine is checked against the key rotation's port.
var _ apikey.SpeechProvider = (*openai.Engine)(nil)

func newEngine(t *testing.T, base string, opt openai.Options) *openai.Engine {
	t.Helper()
	opt.BaseURL = base
	if opt.Split == nil {
		opt.Split = textmatch.Sentences
	}
	e, err := openai.New(opt)
	require.NoError(t, err)
	return e
}

func TestRequestShapeAndAudioOfEachFormat(t *testing.T) {
	fake := ttstest.NewOpenAI(t)
	e := newEngine(t, fake.URL(), openai.Options{})
	assert.Equal(t, "openai", e.Provider())
	assert.Equal(t, "openai", e.Name())
	assert.Equal(t, "alloy", e.DefaultVoice())
	assert.Equal(t, "tts-1", e.Model())
	for _, c := range []struct {
		format      domain.AudioFormat
		voice, sent string
		rf, magic   string
	}{
		{domain.AudioMP3, "", "alloy", "mp3", "ID3"},
		{domain.AudioWAV, "Nova", "nova", "wav", "RIFF"},
		{domain.AudioOGG, "onyx", "onyx", "opus", "OggS"},
	} {
		var out bytes.Buffer
		require.NoError(t, e.Synthesize(context.Background(), key, "Hello there.", c.voice, c.format, &out))
		assert.True(t, bytes.HasPrefix(out.Bytes(), []byte(c.magic)), "%s starts with %s", c.format, c.magic)
		reqs := fake.Requests()
		r := reqs[len(reqs)-1]
		assert.Equal(t, key, r.Key, "Authorization: Bearer <key>")
		assert.Equal(t, "/v1/audio/speech", r.URI)
		assert.NotContains(t, r.URI, key)
		assert.Equal(t, openai.DefaultModel, r.Model)
		assert.Equal(t, "Hello there.", r.Input)
		assert.Equal(t, c.sent, r.Voice)
		assert.Equal(t, c.rf, r.Format)
	}
	var out bytes.Buffer
	require.NoError(t, e.Synthesize(context.Background(), key, "Hi.", "", domain.AudioMP3, &out))
	assert.Equal(t, ttstest.MP3(), out.Bytes(), "one piece passes through whole")
}

// TestBodyIsStreamedThrough: the fake sends its first chunk, then waits
// until the writer has seen it; an engine that buffered the body would
// never write, and the request would time out.
func TestBodyIsStreamedThrough(t *testing.T) {
	fake := ttstest.NewOpenAI(t)
	fake.SetChunkSize(100)
	release := fake.HoldAfterFirstChunk()
	defer release()
	// The timeout only ends a buffering engine's wait, which would fail the test.
	e := newEngine(t, fake.URL(), openai.Options{Timeout: 10 * time.Second})
	w := &firstWrite{release: release}
	require.NoError(t, e.Synthesize(context.Background(), key, "Hello.", "", domain.AudioMP3, w))
	require.NotNil(t, w.first, "the writer got the audio")
	assert.True(t, bytes.HasPrefix(w.first, []byte("ID3")))
	assert.LessOrEqual(t, len(w.first), 100, "the first write held only the first chunk")
	assert.Equal(t, ttstest.MP3(), w.all.Bytes())
}

// firstWrite keeps its first write and lets the fake go on.
type firstWrite struct {
	release func()
	first   []byte
	all     bytes.Buffer
}

func (f *firstWrite) Write(p []byte) (int, error) {
	if f.first == nil {
		f.first = append([]byte(nil), p...)
		f.release()
	}
	return f.all.Write(p)
}

// TestLongRussianTextIsSplitUnderTheCharLimit speaks a 5000-character text:
// two requests of at most 4096 characters at sentence ends; the streamed
// WAV answers (sizes 0xFFFFFFFF) joined under one header with true sizes.
func TestLongRussianTextIsSplitUnderTheCharLimit(t *testing.T) {
	fake := ttstest.NewOpenAI(t)
	e := newEngine(t, fake.URL(), openai.Options{})
	text := ttstest.RussianText(domain.MaxSpeechChars)
	var out bytes.Buffer
	require.NoError(t, e.Synthesize(context.Background(), key, text, "", domain.AudioWAV, &out))
	reqs := fake.Requests()
	require.Len(t, reqs, 2)
	chars := 0
	var inputs []string
	for i, r := range reqs {
		n := utf8.RuneCountInString(r.Input)
		assert.LessOrEqual(t, n, openai.MaxInputChars, "request %d", i)
		assert.Regexp(t, `[.!?…]$`, r.Input, "request %d ends a sentence", i)
		chars += n
		inputs = append(inputs, r.Input)
	}
	assert.Equal(t, strings.Join(textmatch.Sentences(text), " "), strings.Join(inputs, " "))
	b := out.Bytes()
	pcm := 2 * ttstest.SamplesPerChar * chars
	require.Equal(t, 44+pcm, len(b))
	assert.Equal(t, uint32(len(b)-8), binary.LittleEndian.Uint32(b[4:]), "RIFF size, not 0xFFFFFFFF")
	assert.Equal(t, uint32(pcm), binary.LittleEndian.Uint32(b[40:]), "data size, not 0xFFFFFFFF")
	assert.InDelta(t, float64(pcm/2)/ttstest.SampleRate, ttstest.Duration(t, b, "wav"), 0.001)

	for f, ext := range map[domain.AudioFormat]string{domain.AudioMP3: "mp3", domain.AudioOGG: "ogg"} {
		out.Reset()
		require.NoError(t, e.Synthesize(context.Background(), key, text, "", f, &out))
		one := map[string][]byte{"mp3": ttstest.MP3(), "ogg": ttstest.Ogg()}[ext]
		assert.InDelta(t, 2*ttstest.Decode(t, one, ext), ttstest.Decode(t, out.Bytes(), ext), 0.15, "%s: both pieces play", f)
	}
}

func TestErrorsAreTypedAndNeverShowTheKey(t *testing.T) {
	for _, c := range []struct {
		status int
		want   *domain.Error
		says   string
	}{
		{401, domain.ErrKeyRejected, "Incorrect API key provided: [redacted]"},
		{403, domain.ErrKeyRejected, "not allowed"},
		{429, domain.ErrRateLimited, "exceeded your current quota"},
		{500, domain.ErrTTSUnavailable, "HTTP 500"},
		{502, domain.ErrTTSUnavailable, "try again later"},
	} {
		fake := ttstest.NewOpenAI(t)
		e := newEngine(t, fake.URL(), openai.Options{})
		fake.Fail(key, c.status)
		var out bytes.Buffer
		err := e.Synthesize(context.Background(), key, "Hello.", "", domain.AudioMP3, &out)
		require.ErrorIs(t, err, c.want, "HTTP %d", c.status)
		assert.NotContains(t, err.Error(), key, "HTTP %d: the fake echoes the key, the error must not", c.status)
		assert.Contains(t, err.Error(), c.says, "HTTP %d", c.status)
		assert.Zero(t, out.Len(), "HTTP %d: nothing written", c.status)
	}
}

// TestFailureOnASecondPieceCutsTheAudio: mp3 streams, so a later piece's
// failure comes after bytes were written, and says so.
func TestFailureOnASecondPieceCutsTheAudio(t *testing.T) {
	fake := ttstest.NewOpenAI(t)
	e := newEngine(t, fake.URL(), openai.Options{})
	fake.FailFrom(2, http.StatusTooManyRequests)
	var out bytes.Buffer
	err := e.Synthesize(context.Background(), key, ttstest.RussianText(domain.MaxSpeechChars), "", domain.AudioMP3, &out)
	require.ErrorIs(t, err, domain.ErrRateLimited)
	assert.Contains(t, err.Error(), "cut short")
	one := ttstest.MP3()
	assert.True(t, bytes.HasPrefix(out.Bytes(), one[:10]), "the first piece went out, its ID3 tag first")
	assert.True(t, bytes.HasSuffix(one, out.Bytes()[len(out.Bytes())-1000:]), "… to its end")
	assert.Less(t, out.Len(), len(one), "… without its Info frame")
}

func TestKeylessLocalServer(t *testing.T) {
	local := ttstest.NewLocalOpenAI(t)
	e := newEngine(t, local.URL(), openai.Options{Model: "kokoro", DefaultVoice: "af_bella",
		Voices: []domain.Voice{{ID: "af_bella", Lang: "en-us"}, {ID: "ru_voice", Lang: "ru"}}})
	assert.True(t, e.KeyOptional(), "a configured server may need no key")
	var out bytes.Buffer
	require.NoError(t, e.Synthesize(context.Background(), "", "Hello.", "", domain.AudioOGG, &out))
	r := local.Requests()[0]
	assert.Empty(t, r.Key, "no Authorization header without a key")
	assert.Equal(t, "kokoro", r.Model)
	assert.Equal(t, "af_bella", r.Voice)
	voices, err := e.Voices(context.Background())
	require.NoError(t, err)
	assert.Equal(t, []domain.Voice{{ID: "af_bella", Name: "af_bella", Lang: "en-us"}, {ID: "ru_voice", Name: "ru_voice", Lang: "ru"}}, voices)

	def, err := openai.New(openai.Options{})
	require.NoError(t, err)
	assert.False(t, def.KeyOptional(), "OpenAI itself wants a key")
	err = def.Synthesize(context.Background(), "", "Hello.", "", domain.AudioMP3, &out)
	assert.ErrorIs(t, err, domain.ErrTTSUnavailable)
	assert.Contains(t, err.Error(), "add one with provider openai")
	voices, _ = def.Voices(context.Background())
	assert.Len(t, voices, len(openai.DefaultVoices()))
	for _, v := range voices {
		assert.Empty(t, v.Lang, "%s speaks any language", v.ID)
	}
}

func TestBadInputBeforeAnyRequest(t *testing.T) {
	fake := ttstest.NewOpenAI(t)
	e := newEngine(t, fake.URL(), openai.Options{})
	for name, c := range map[string]struct {
		text, voice string
		format      domain.AudioFormat
	}{
		"unknown voice":  {"Hello.", "robot", domain.AudioMP3},
		"unknown format": {"Hello.", "", "aac"},
		"blank text":     {"  ", "", domain.AudioMP3},
	} {
		var out bytes.Buffer
		err := e.Synthesize(context.Background(), key, c.text, c.voice, c.format, &out)
		var de *domain.Error
		require.ErrorAs(t, err, &de, name)
		assert.Equal(t, domain.KindInvalid, de.Kind, name)
		assert.NotEmpty(t, de.Fields, name)
		assert.Zero(t, out.Len(), name)
	}
	assert.Empty(t, fake.Requests())
}

// TestServerRefusalIsInvalidInput: a local server without the configured
// voice answers 400 naming it; that is the request's fault, with a field.
func TestServerRefusalIsInvalidInput(t *testing.T) {
	srv := stub(t, http.StatusBadRequest, "application/json", `{"error":{"message":"Voice 'ghost' not found","type":"invalid_request_error","code":null}}`)
	e := newEngine(t, srv, openai.Options{DefaultVoice: "ghost", Voices: []domain.Voice{{ID: "ghost"}}})
	err := e.Synthesize(context.Background(), "", "Hello.", "", domain.AudioMP3, &bytes.Buffer{})
	var de *domain.Error
	require.ErrorAs(t, err, &de)
	assert.Equal(t, domain.KindInvalid, de.Kind)
	assert.Contains(t, de.Fields["voice"], "not found")
}

// TestNotAudioIsRefusedBeforeWriting: a proxy's HTML page with status 200.
func TestNotAudioIsRefusedBeforeWriting(t *testing.T) {
	srv := stub(t, http.StatusOK, "text/html", "<html><body>Welcome to nginx!</body></html>")
	e := newEngine(t, srv, openai.Options{})
	var out bytes.Buffer
	err := e.Synthesize(context.Background(), "", "Hello.", "", domain.AudioMP3, &out)
	assert.ErrorIs(t, err, domain.ErrTTSUnavailable)
	assert.Contains(t, err.Error(), "not mp3 audio")
	assert.Zero(t, out.Len())
}

func TestUnreachableServerIsUnavailable(t *testing.T) {
	e := newEngine(t, "http://127.0.0.1:1/v1", openai.Options{})
	err := e.Synthesize(context.Background(), key, "Hello.", "", domain.AudioMP3, &bytes.Buffer{})
	require.ErrorIs(t, err, domain.ErrTTSUnavailable)
	assert.Contains(t, err.Error(), "unreachable")
	assert.NotContains(t, err.Error(), key)
	assert.NotContains(t, err.Error(), "127.0.0.1:1/v1")
}

// TestCancelBeforeTheAnswerStopsTheRequest: the fake sees its client go.
func TestCancelBeforeTheAnswerStopsTheRequest(t *testing.T) {
	fake := ttstest.NewOpenAI(t)
	e := newEngine(t, fake.URL(), openai.Options{})
	entered, gone := fake.Block()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- e.Synthesize(ctx, key, "Hello.", "", domain.AudioMP3, io.Discard) }()
	<-entered
	cancel()
	err := <-done
	assert.ErrorIs(t, err, context.Canceled)
	assert.ErrorIs(t, err, domain.ErrTTSUnavailable)
	<-gone
}

// TestCancelMidStream: the caller leaves after the first chunk while the
// fake holds the rest; Synthesize ends with the cancellation, the audio
// cut short.
func TestCancelMidStream(t *testing.T) {
	fake := ttstest.NewOpenAI(t)
	fake.SetChunkSize(100)
	release := fake.HoldAfterFirstChunk()
	defer release()
	e := newEngine(t, fake.URL(), openai.Options{Timeout: 10 * time.Second}) // ends a buffering engine's wait
	ctx, cancel := context.WithCancel(context.Background())
	w := &cancelOnWrite{cancel: cancel}
	err := e.Synthesize(ctx, key, "Hello.", "", domain.AudioMP3, w)
	assert.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, 100, w.n, "only the first chunk arrived")
	assert.NotContains(t, err.Error(), key)
}

type cancelOnWrite struct {
	cancel func()
	n      int
}

func (c *cancelOnWrite) Write(p []byte) (int, error) { c.n += len(p); c.cancel(); return len(p), nil }

// TestWriterFailureEndsTheCall: a client gone is the writer's error.
func TestWriterFailureEndsTheCall(t *testing.T) {
	fake := ttstest.NewOpenAI(t)
	e := newEngine(t, fake.URL(), openai.Options{})
	gone := errors.New("client gone")
	err := e.Synthesize(context.Background(), key, "Hello.", "", domain.AudioMP3, failWriter{gone})
	assert.ErrorIs(t, err, gone)
}

type failWriter struct{ err error }

func (f failWriter) Write([]byte) (int, error) { return 0, f.err }

func TestBadConfiguration(t *testing.T) {
	for name, opt := range map[string]openai.Options{
		"not http":           {BaseURL: "unix:///run/tts.sock"},
		"credentials in URL": {BaseURL: "http://me:pw@127.0.0.1:8880/v1"},
		"default not listed": {DefaultVoice: "ghost"},
		"voice without id":   {Voices: []domain.Voice{{Name: "Nameless"}}},
	} {
		_, err := openai.New(opt)
		var de *domain.Error
		require.ErrorAs(t, err, &de, name)
		assert.Equal(t, domain.KindInvalid, de.Kind, name)
	}
}

// stub serves body with status and content type to every request.
func stub(t *testing.T, status int, ctype, body string) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", ctype)
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1"
}
