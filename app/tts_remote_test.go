package app

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/repository/tts/ttstest"
)

// The speech routes over the remote engines, against local fakes that
// speak the real wire formats.

// longEnglish is a text over OpenAI's 4096-character limit: the openai
// engine sends it in two pieces.
func longEnglish() string {
	sentence := "A long story about an old town, its streets, bridges and the people who lived there. "
	return strings.Repeat(sentence, 4900/len(sentence))
}

// rawGet sends GET u with token and returns the answer and what reading
// the whole body gave: its bytes and its error, which a cut-short answer
// must have.
func rawGet(t *testing.T, u, token string) (*http.Response, []byte, error) {
	t.Helper()
	req, err := http.NewRequest("GET", u, nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return resp, body, err
}

// TestTTSCutShortAudioIsAnError: audio whose synthesis fails after its
// first byte (a remote piece refused) must reach the client as a broken
// answer, not one that looks whole, and must not be kept by the browser.
// Once made whole, the file may be kept.
func TestTTSCutShortAudioIsAnError(t *testing.T) {
	t.Parallel()
	fake := ttstest.NewLocalOpenAI(t)
	sa := newSpeechApp(t, map[string]string{"MEDIATEKA_TTS__OPENAI__BASE_URL": fake.URL()})
	fake.FailFrom(2, 500) // the first piece comes, the second fails
	path := "/api/tts/synthesize?" + q("text", longEnglish(), "engine", "openai", "format", "mp3")
	resp, body, err := rawGet(t, sa.base+path, sa.user)
	require.Equal(t, 200, resp.StatusCode, "the first piece started the answer")
	assert.Equal(t, "no-store", resp.Header.Get("Cache-Control"), "an answer being made is not to be kept")
	require.Error(t, err, "the answer was cut short after %d bytes but ended as if whole", len(body))
	assert.NotEmpty(t, body, "the first piece arrived")
	require.Len(t, fake.Requests(), 2)

	fake.FailFrom(0, 0)
	resp, body, err = rawGet(t, sa.base+path, sa.user)
	require.NoError(t, err)
	require.Equal(t, 200, resp.StatusCode)
	assert.Len(t, fake.Requests(), 4, "nothing of the failed answer was cached")
	assert.Equal(t, "no-store", resp.Header.Get("Cache-Control"))
	assertAudioHeader(t, "mp3", body)
	resp, again, err := rawGet(t, sa.base+path, sa.user)
	require.NoError(t, err)
	assert.Len(t, fake.Requests(), 4, "served from the cache")
	assert.Equal(t, "private, max-age=86400, immutable", resp.Header.Get("Cache-Control"))
	assert.Equal(t, body, again)

	// stream-audio: a sentence after the first fails.
	fake.FailFrom(len(fake.Requests())+2, 500)
	_, _, err = rawGet(t, sa.base+"/api/tts/stream-audio?"+q("text", "One sentence. Another one.", "engine", "openai", "format", "mp3"), sa.user)
	assert.Error(t, err, "a stream cut short after its first sentence ends as if whole")
}

// TestTTSStreamTextRefusesWithAStatusWhenTheEngineCannotSpeak: an engine
// that fails before the first sentence is made is an error status, as
// API.md §10 promises, not a 200 whose only event is an error.
func TestTTSStreamTextRefusesWithAStatusWhenTheEngineCannotSpeak(t *testing.T) {
	t.Parallel()
	fake := ttstest.NewLocalOpenAI(t)
	sa := newSpeechApp(t, map[string]string{"MEDIATEKA_TTS__OPENAI__BASE_URL": fake.URL()})
	fake.FailAll(500)
	resp, body := sa.get(t, "/api/tts/stream-text?"+q("text", "One sentence. Another one.", "engine", "openai"), sa.user)
	require.Equal(t, 503, resp.StatusCode, "%s", body)
	assert.Contains(t, resp.Header.Get("Content-Type"), "application/json")
	assert.Contains(t, string(body), `"code":"tts_unavailable"`)

	fake.FailAll(0)
	events := sa.streamText(t, "/api/tts/stream-text?"+q("text", "One sentence. Another one.", "engine", "openai"))
	require.Len(t, events, 3, "%v", events)
	assert.Equal(t, true, events[2]["done"])
}

// TestTTSStreamTextEndsOnShutdownAsTheChatDoes: a stream-text open when
// the server shuts down ends with the chat's "unavailable" event, and the
// shutdown is not logged as the server's fault.
func TestTTSStreamTextEndsOnShutdownAsTheChatDoes(t *testing.T) {
	t.Parallel()
	requireSpeechPrograms(t)
	ta := newTestApp(t, map[string]string{"MEDIATEKA_TTS__ESPEAK__RATE": "80"})
	_, user := ta.tokens(t)
	addr, stop := runOnLoopback(t, ta)
	// Sentences that differ, so none is a cache hit of another.
	var long strings.Builder
	for i := 1; utf8.RuneCountInString(long.String()) < 4900; i++ {
		fmt.Fprintf(&long, "Рассказ %d о старом городе, его улицах и людях. ", i)
	}
	req, err := http.NewRequest("GET", "http://"+addr+"/api/tts/stream-text?"+q("text", long.String(), "format", "mp3"), nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+user)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, 200, resp.StatusCode)
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() && !strings.Contains(sc.Text(), `"audio_url"`) {
	}
	require.NoError(t, stop())
	rest := readChatEvents(t, sc)
	require.NotEmpty(t, rest)
	last := rest[len(rest)-1]
	require.Contains(t, last, "error", "the text was spoken whole before the shutdown: %d events", len(rest))
	assert.Equal(t, map[string]any{"code": "unavailable", "message": "the server is shutting down"}, last["error"])
	assert.NotContains(t, ta.stderr.String(), `"level":"ERROR"`)
	assert.NotContains(t, ta.stderr.String(), `level=ERROR`)
}

// TestTTSChatSpeakFailsIntoAudioError: the default engine unable to speak
// (google, no key) costs the answer its audio, not the answer: the chat
// answers with audio_error tts_unavailable, plain and streamed, and the
// log says why under the request's id.
func TestTTSChatSpeakFailsIntoAudioError(t *testing.T) {
	t.Parallel()
	sa := newSpeechApp(t, map[string]string{"MEDIATEKA_TTS__ENGINE": "google"})
	resp, body := sa.do(t, "POST", "/api/chat", sa.user, map[string]any{"message": "привет", "speak": true})
	require.Equal(t, 200, resp.StatusCode, "%v", body)
	assert.NotEmpty(t, body["response"], "the answer still comes")
	assert.NotContains(t, body, "audio_url")
	audioErr, _ := body["audio_error"].(map[string]any)
	require.NotNil(t, audioErr, "%v", body)
	assert.Equal(t, "tts_unavailable", audioErr["code"])
	assert.Contains(t, audioErr["message"], "google")
	rid := resp.Header.Get("X-Request-ID")
	require.NotEmpty(t, rid)
	require.Eventually(t, func() bool {
		for _, line := range strings.Split(sa.stderr.String(), "\n") {
			if strings.Contains(line, "speaking a chat answer failed") && strings.Contains(line, rid) {
				return true
			}
		}
		return false
	}, 5*time.Second, 10*time.Millisecond, "the failure is logged under request %s:\n%s", rid, sa.stderr.String())

	events := sse(t, strings.TrimPrefix(sa.base, "http://"), sa.user, map[string]any{"message": "привет", "speak": true})
	require.NotEmpty(t, events)
	done := events[len(events)-1]
	require.Equal(t, true, done["done"], "%v", events)
	assert.NotContains(t, done, "audio_url")
	require.IsType(t, map[string]any{}, done["audio_error"], "%v", done)
	assert.Equal(t, "tts_unavailable", done["audio_error"].(map[string]any)["code"])
}

// TestTTSRemoteEnginesAnswer503WithWhatToDo: the google engine without a
// key, and an OpenAI server refusing (401), throttling (429) or failing
// (500) the only key, are 503 tts_unavailable through every audio route,
// with no key in the answer; an unknown voice is still the client's 400.
func TestTTSRemoteEnginesAnswer503WithWhatToDo(t *testing.T) {
	t.Parallel()
	fake := ttstest.NewOpenAI(t)
	sa := newSpeechApp(t, map[string]string{"MEDIATEKA_TTS__OPENAI__BASE_URL": fake.URL()})
	text := "Проверка связи."
	for _, route := range []string{"synthesize", "stream-audio", "stream-text"} {
		resp, body := sa.get(t, "/api/tts/"+route+"?"+q("text", text, "engine", "google"), sa.user)
		assert.Equal(t, 503, resp.StatusCode, "google without a key, %s: %s", route, body)
		assert.Contains(t, string(body), `"code":"tts_unavailable"`)
		assert.Contains(t, string(body), "no active API key of google")
	}
	resp, body := sa.get(t, "/api/tts/synthesize?"+q("text", text, "engine", "google", "voice", "klingon"), sa.user)
	assert.Equal(t, 400, resp.StatusCode, "an unknown voice is 400 even without a key: %s", body)
	assert.Contains(t, string(body), `"voice"`)

	const secret = "sk-test-SECRET-key-0123456789"
	for i, status := range []int{401, 429, 500} {
		name := fmt.Sprintf("k%d", i)
		resp, got := sa.do(t, "POST", "/api/keys", sa.admin, map[string]any{"key_name": name, "api_key": secret + name, "provider": "openai"})
		require.Equal(t, 201, resp.StatusCode, "%v", got)
		fake.Fail(secret+name, status)
		text := fmt.Sprintf("Hello number %d.", i) // not cached
		resp, body := sa.get(t, "/api/tts/synthesize?"+q("text", text, "engine", "openai"), sa.user)
		assert.Equal(t, 503, resp.StatusCode, "openai answering %d: %s", status, body)
		assert.Contains(t, string(body), `"code":"tts_unavailable"`, "openai answering %d", status)
		assert.NotContains(t, string(body), secret, "the key in the answer")
		sent := false
		for _, r := range fake.Requests() {
			sent = sent || r.Key == secret+name
		}
		assert.True(t, sent, "the key went in its header")
		resp, _ = sa.do(t, "DELETE", "/api/keys/"+name, sa.admin, nil)
		require.Equal(t, 204, resp.StatusCode)
	}
	assert.NotContains(t, sa.stderr.String(), secret, "a key in the log")
}
