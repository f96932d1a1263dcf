package ttstest_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/repository/tts/ttstest"
)

func post(t *testing.T, url string, header map[string]string, body any) (*http.Response, []byte) {
	t.Helper()
	buf, err := json.Marshal(body)
	require.NoError(t, err)
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(buf))
	require.NoError(t, err)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp, out
}

func googleBody(text, lang, voice, enc string) map[string]any {
	return map[string]any{"input": map[string]string{"text": text}, "voice": map[string]string{"languageCode": lang, "name": voice},
		"audioConfig": map[string]string{"audioEncoding": enc}}
}

// TestGoogleFakeRecordsAKeyInTheURL: the fake takes ?key= as Google does
// and records the URI, so an engine's "no key in the URL" test can fail.
func TestGoogleFakeRecordsAKeyInTheURL(t *testing.T) {
	g := ttstest.NewGoogle(t)
	resp, body := post(t, g.URL()+"/v1/text:synthesize?key=K123", nil, googleBody("Привет.", "ru-RU", "ru-RU-Wavenet-D", "LINEAR16"))
	require.Equal(t, 200, resp.StatusCode, string(body))
	var answer struct{ AudioContent string }
	require.NoError(t, json.Unmarshal(body, &answer))
	wav, err := base64.StdEncoding.DecodeString(answer.AudioContent)
	require.NoError(t, err)
	assert.Equal(t, "RIFF", string(wav[:4]))
	assert.InDelta(t, 7*ttstest.SamplesPerChar/float64(ttstest.SampleRate), ttstest.Duration(t, wav, "wav"), 0.001)
	r := g.Requests()[0]
	assert.Equal(t, "K123", r.Key)
	assert.Contains(t, r.URI, "key=K123")
}

func TestGoogleFakeRefusesWhatGoogleRefuses(t *testing.T) {
	g := ttstest.NewGoogle(t)
	h := map[string]string{"X-Goog-Api-Key": "K"}
	for name, c := range map[string]struct {
		body   map[string]any
		status int
		says   string
	}{
		"over 5000 bytes": {googleBody(strings.Repeat("ж", 2501), "ru-RU", "ru-RU-Wavenet-D", "MP3"), 400, "5000 bytes"},
		"language code":   {googleBody("Hi.", "en-US", "ru-RU-Wavenet-D", "MP3"), 400, "doesn't match"},
		"encoding":        {googleBody("Hi.", "en-US", "en-US-Wavenet-A", "FLAC"), 400, "audio_encoding"},
	} {
		resp, body := post(t, g.URL()+"/v1/text:synthesize", h, c.body)
		assert.Equal(t, c.status, resp.StatusCode, name)
		assert.Contains(t, string(body), c.says, name)
	}
	g.Fail("K", 429)
	resp, body := post(t, g.URL()+"/v1/text:synthesize", h, googleBody("Hi.", "en-US", "en-US-Wavenet-A", "MP3"))
	assert.Equal(t, 429, resp.StatusCode)
	assert.Contains(t, string(body), "RESOURCE_EXHAUSTED")
	resp, _ = post(t, g.URL()+"/v1/text:synthesize", nil, googleBody("Hi.", "en-US", "en-US-Wavenet-A", "MP3"))
	assert.Equal(t, 403, resp.StatusCode, "no key")
}

func TestOpenAIFakeStreamsInChunks(t *testing.T) {
	o := ttstest.NewOpenAI(t)
	o.SetChunkSize(64)
	resp, body := post(t, o.URL()+"/audio/speech", map[string]string{"Authorization": "Bearer K"},
		map[string]string{"model": "tts-1", "input": "Hello.", "voice": "alloy", "response_format": "wav"})
	require.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, []string{"chunked"}, resp.TransferEncoding, "streamed, no Content-Length")
	assert.Equal(t, "RIFF\xff\xff\xff\xffWAVE", string(body[:12]), "a streamed WAV's sizes")
	assert.Equal(t, "K", o.Requests()[0].Key)

	o.Fail("K", 401)
	resp, body = post(t, o.URL()+"/audio/speech", map[string]string{"Authorization": "Bearer K"},
		map[string]string{"model": "tts-1", "input": "Hello.", "voice": "alloy"})
	assert.Equal(t, 401, resp.StatusCode)
	assert.Contains(t, string(body), "invalid_api_key")
	resp, _ = post(t, o.URL()+"/audio/speech", nil, map[string]string{"model": "tts-1", "input": "Hello.", "voice": "alloy"})
	assert.Equal(t, 401, resp.StatusCode, "no key")
	resp, body = post(t, o.URL()+"/audio/speech", map[string]string{"Authorization": "Bearer L"},
		map[string]string{"model": "tts-1", "input": strings.Repeat("a", 4097), "voice": "alloy"})
	assert.Equal(t, 400, resp.StatusCode)
	assert.Contains(t, string(body), "4096")
}

func TestEmbeddedAudioIsReal(t *testing.T) {
	assert.InDelta(t, 0.4, ttstest.Decode(t, ttstest.MP3(), "mp3"), 0.01)
	assert.InDelta(t, 0.4, ttstest.Decode(t, ttstest.Ogg(), "ogg"), 0.01)
	assert.True(t, bytes.HasPrefix(ttstest.Ogg(), []byte("OggS")))
}
