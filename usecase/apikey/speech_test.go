package apikey_test

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/repository/tts/google"
	"mediateka/repository/tts/openai"
	"mediateka/repository/tts/ttstest"
	"mediateka/usecase/apikey"
)

func googleSpeech(t *testing.T, svc *apikey.Service) (*apikey.Speech, *ttstest.Google) {
	t.Helper()
	fake := ttstest.NewGoogle(t)
	g, err := google.New(google.Options{BaseURL: fake.URL()})
	require.NoError(t, err)
	return svc.Speech(g), fake
}

// A key Google throttles is marked exhausted and the text is spoken with
// the next key; the audio is written once, whole.
func TestSpeechRotatesKeysOn429(t *testing.T) {
	svc := newService(t, newClock(start()))
	addKeys(t, svc, "google", "g1", "g2")
	sp, fake := googleSpeech(t, svc)
	fake.Fail(secretOf("g1"), 429)

	var port domain.SpeechEngine = sp
	require.NoError(t, port.Available(context.Background()))
	var out bytes.Buffer
	require.NoError(t, port.Synthesize(context.Background(), "Привет, мир.", "ru-RU-Wavenet-D", domain.AudioMP3, &out))
	assert.Equal(t, ttstest.MP3(), out.Bytes(), "one answer, not two glued together")
	var keys []string
	for _, r := range fake.Requests() {
		keys = append(keys, r.Key)
		assert.NotContains(t, r.URI, secretOf("g1"))
		assert.NotContains(t, r.URI, secretOf("g2"))
	}
	assert.Equal(t, []string{secretOf("g1"), secretOf("g2")}, keys)
	assert.Equal(t, domain.KeyExhausted, status(t, svc, "g1").Status)
	assert.Equal(t, domain.KeyActive, status(t, svc, "g2").Status)
}

// No key, every key refused, or Google down: tts_unavailable with a
// message saying what to do, and the secret nowhere in it.
func TestSpeechWithoutAUsableKeyIsUnavailable(t *testing.T) {
	ctx := context.Background()
	svc := newService(t, newClock(start()))
	sp, fake := googleSpeech(t, svc)

	err := sp.Available(ctx)
	require.ErrorIs(t, err, domain.ErrTTSUnavailable)
	assert.Contains(t, err.Error(), "provider google")
	err = sp.Synthesize(ctx, "text", "", domain.AudioMP3, &bytes.Buffer{})
	require.ErrorIs(t, err, domain.ErrTTSUnavailable)
	assert.Empty(t, fake.Requests(), "no key, no request")

	addKeys(t, svc, "google", "g1")
	fake.Fail(secretOf("g1"), 401)
	err = sp.Synthesize(ctx, "text", "", domain.AudioMP3, &bytes.Buffer{})
	require.ErrorIs(t, err, domain.ErrTTSUnavailable)
	assert.Equal(t, domain.KeyRejected, status(t, svc, "g1").Status)
	assert.NotContains(t, err.Error(), secretOf("g1"))

	addKeys(t, svc, "google", "g2")
	fake.FailAll(500)
	var out bytes.Buffer
	err = sp.Synthesize(ctx, "text", "", domain.AudioMP3, &out)
	require.ErrorIs(t, err, domain.ErrTTSUnavailable)
	assert.Zero(t, out.Len())
	assert.Equal(t, domain.KeyActive, status(t, svc, "g2").Status, "a server error is not the key's fault")
}

// Once audio has gone out, a failure is not retried with another key: the
// listener would hear the first part twice.
func TestSpeechNeverRepeatsAudioAlreadyWritten(t *testing.T) {
	svc := newService(t, newClock(start()))
	addKeys(t, svc, "openai", "o1", "o2")
	fake := ttstest.NewOpenAI(t)
	o, err := openai.New(openai.Options{BaseURL: fake.URL()})
	require.NoError(t, err)
	sp := svc.Speech(o)
	long := ttstest.RussianText(6000) // two pieces for OpenAI's 4096-character limit
	fake.FailFrom(2, 429)             // the second piece is throttled
	var out bytes.Buffer
	err = sp.Synthesize(context.Background(), long, "alloy", domain.AudioMP3, &out)
	require.Error(t, err)
	assert.NotZero(t, out.Len(), "the first piece went out")
	assert.Len(t, fake.Requests(), 2, "no third request with o2 after audio was written")
	var de *domain.Error
	require.True(t, errors.As(err, &de))
}

// A local OpenAI-compatible server needs no key: available without one.
func TestSpeechOnALocalServerNeedsNoKey(t *testing.T) {
	svc := newService(t, newClock(start()))
	fake := ttstest.NewLocalOpenAI(t)
	o, err := openai.New(openai.Options{BaseURL: fake.URL()})
	require.NoError(t, err)
	sp := svc.Speech(o)
	require.NoError(t, sp.Available(context.Background()))
	var out bytes.Buffer
	require.NoError(t, sp.Synthesize(context.Background(), "Hello there.", "alloy", domain.AudioMP3, &out))
	assert.NotZero(t, out.Len())
	require.Len(t, fake.Requests(), 1)
	assert.Empty(t, fake.Requests()[0].Key)
}
