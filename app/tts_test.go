package app

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/repository/exectest"
)

// The speech tests run the real espeak-ng, ffmpeg and ffprobe over a real
// listener: audio is checked the way a player reads it.

const (
	ttsRussian = "Привет! Это проверка синтеза речи на русском языке."
	ttsEnglish = "Hello! This is a test of English speech synthesis."
)

// ttsFileRe is the only shape of cached file name (API.md §10).
var ttsFileRe = regexp.MustCompile(`^[0-9a-f]{64}\.(mp3|wav|ogg)$`)

// requireSpeechPrograms stops a test that cannot run the real programs:
// a skip on a developer's machine, a failure under CI=true.
func requireSpeechPrograms(t testing.TB) {
	t.Helper()
	exectest.Require(t, "espeak-ng", "espeak-ng")
	exectest.Require(t, "ffmpeg", "ffmpeg", "ffprobe")
}

// speechApp is a running server with a user's and the admin's tokens.
type speechApp struct {
	*testApp
	base        string // http://127.0.0.1:port
	user, admin string
}

// newSpeechApp runs a fresh app with env on loopback.
func newSpeechApp(t *testing.T, env map[string]string) *speechApp {
	t.Helper()
	requireSpeechPrograms(t)
	ta := newTestApp(t, env)
	admin, user := ta.tokens(t)
	addr, stop := runOnLoopback(t, ta)
	t.Cleanup(func() { _ = stop() })
	return &speechApp{testApp: ta, base: "http://" + addr, user: user, admin: admin}
}

// get sends GET path (with the user's bearer token unless token is "-":
// none, or another token) and reads the whole answer.
func (sa *speechApp) get(t *testing.T, path, token string) (*http.Response, []byte) {
	t.Helper()
	return httpGetAll(t, sa.base+path, token)
}

// httpGetAll sends GET u with token as bearer ("" none) over a new
// keep-alive-free request and reads the whole body.
func httpGetAll(t testing.TB, u, token string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest("GET", u, nil)
	require.NoError(t, err)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp, body
}

// q builds a query string from key, value pairs.
func q(kv ...string) string {
	v := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		v.Set(kv[i], kv[i+1])
	}
	return v.Encode()
}

// assertAudioHeader checks the magic bytes a player looks for in format.
func assertAudioHeader(t *testing.T, format string, b []byte) {
	t.Helper()
	require.Greater(t, len(b), 64, "%s: %d bytes", format, len(b))
	switch format {
	case "wav":
		assert.Equal(t, "RIFF", string(b[:4]))
		assert.Equal(t, "WAVE", string(b[8:12]))
	case "mp3":
		id3 := string(b[:3]) == "ID3"
		sync := b[0] == 0xFF && b[1]&0xE0 == 0xE0
		assert.True(t, id3 || sync, "mp3 starts with an ID3 tag or a frame sync: % x", b[:4])
	case "ogg":
		assert.Equal(t, "OggS", string(b[:4]))
		assert.Equal(t, "OpusHead", string(b[28:36]), "the first Ogg page carries the Opus header")
	default:
		t.Fatalf("unknown format %s", format)
	}
}

// writeTemp writes b into a temporary file named for format.
func writeTemp(t testing.TB, b []byte, format string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "audio."+format)
	require.NoError(t, os.WriteFile(p, b, 0o600))
	return p
}

// probeDuration is the duration ffprobe reads from the container.
func probeDuration(t testing.TB, b []byte, format string) float64 {
	t.Helper()
	out, err := exec.Command("ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0",
		writeTemp(t, b, format)).Output()
	require.NoError(t, err)
	d, err := strconv.ParseFloat(strings.TrimSpace(string(out)), 64)
	require.NoError(t, err, "ffprobe duration %q", out)
	return d
}

// decodedDuration is how long the audio lasts when ffmpeg decodes all of
// it, as a player does (8 kHz mono 16-bit: 16000 bytes a second).
func decodedDuration(t testing.TB, b []byte, format string) float64 {
	t.Helper()
	out, err := exec.Command("ffmpeg", "-nostdin", "-v", "error", "-i", writeTemp(t, b, format),
		"-f", "s16le", "-ac", "1", "-ar", "8000", "pipe:1").Output()
	require.NoError(t, err)
	return float64(len(out)) / 16000
}

// contentTypes are the Content-Type of each format.
var contentTypes = map[string]string{"mp3": "audio/mpeg", "wav": "audio/wav", "ogg": "audio/ogg"}

// inode is the inode number of the file at p.
func inode(t testing.TB, p string) uint64 {
	t.Helper()
	info, err := os.Stat(p)
	require.NoError(t, err)
	return info.Sys().(*syscall.Stat_t).Ino
}

func TestTTSSynthesizeRussianAndEnglishInEveryFormat(t *testing.T) {
	t.Parallel()
	sa := newSpeechApp(t, nil)
	for _, lang := range []struct{ name, text, voice string }{{"ru", ttsRussian, "ru"}, {"en", ttsEnglish, "en-us"}} {
		for _, format := range []string{"mp3", "wav", "ogg"} {
			t.Run(lang.name+"/"+format, func(t *testing.T) {
				path := "/api/tts/synthesize?" + q("text", lang.text, "format", format)
				resp, audio := sa.get(t, path, sa.user)
				require.Equal(t, 200, resp.StatusCode, "%s", audio)
				assert.Equal(t, contentTypes[format], resp.Header.Get("Content-Type"))
				assertAudioHeader(t, format, audio)
				assert.Greater(t, probeDuration(t, audio, format), 0.5, "a sentence and a half lasts more than half a second")
				assert.Greater(t, decodedDuration(t, audio, format), 0.5)

				name := resp.Header.Get("X-TTS-File")
				require.Regexp(t, ttsFileRe, name)
				assert.True(t, strings.HasSuffix(name, "."+format), name)
				cached := filepath.Join(sa.cfg.TTS.CacheDir, name)
				onDisk, err := os.ReadFile(cached)
				require.NoError(t, err, "the answer is the cached file")
				assert.Equal(t, audio, onDisk)
				made := inode(t, cached)

				// Asked again: the same file from the cache, not made anew
				// (a new synthesis would rename a new file into place).
				resp, again := sa.get(t, path, sa.user)
				require.Equal(t, 200, resp.StatusCode)
				assert.Equal(t, name, resp.Header.Get("X-TTS-File"))
				assert.Equal(t, audio, again)
				assert.Equal(t, made, inode(t, cached), "served from the cache, not synthesized again")

				resp, file := sa.get(t, "/api/tts/file/"+name, sa.user)
				require.Equal(t, 200, resp.StatusCode, "%s", file)
				assert.Equal(t, contentTypes[format], resp.Header.Get("Content-Type"))
				assert.Equal(t, audio, file)

				// The voice was chosen by the text's language: naming the
				// configured voice for it is the same request.
				resp, _ = sa.get(t, path+"&voice="+lang.voice, sa.user)
				require.Equal(t, 200, resp.StatusCode)
				assert.Equal(t, name, resp.Header.Get("X-TTS-File"), "%s text is spoken with %s", lang.name, lang.voice)
			})
		}
	}
	t.Run("default format is mp3 with ffmpeg", func(t *testing.T) {
		resp, audio := sa.get(t, "/api/tts/synthesize?"+q("text", ttsRussian), sa.user)
		require.Equal(t, 200, resp.StatusCode, "%s", audio)
		assert.Equal(t, "audio/mpeg", resp.Header.Get("Content-Type"))
		assert.True(t, strings.HasSuffix(resp.Header.Get("X-TTS-File"), ".mp3"))
		assertAudioHeader(t, "mp3", audio)
	})
	t.Run("another voice is another file", func(t *testing.T) {
		r1, _ := sa.get(t, "/api/tts/synthesize?"+q("text", ttsEnglish, "format", "wav", "voice", "en-us"), sa.user)
		r2, _ := sa.get(t, "/api/tts/synthesize?"+q("text", ttsEnglish, "format", "wav", "voice", "en-gb"), sa.user)
		require.Equal(t, 200, r1.StatusCode)
		require.Equal(t, 200, r2.StatusCode)
		assert.NotEqual(t, r1.Header.Get("X-TTS-File"), r2.Header.Get("X-TTS-File"))
	})
}

func TestTTSTextLengthLimitInTheQueryString(t *testing.T) {
	t.Parallel()
	sa := newSpeechApp(t, nil)
	ru := []rune(strings.Repeat("Съешь ещё этих мягких французских булок, да выпей же чаю. ", 100))
	emoji := strings.Repeat("😀", 5000)
	require.Equal(t, 20000, len(emoji), "four bytes each")
	for _, tc := range []struct {
		name string
		text string
		want int
	}{
		{"5000 Russian characters", string(ru[:5000]), 200},
		{"5001 Russian characters", string(ru[:5001]), 400},
		{"5000 emoji", emoji, 200},
		{"5001 emoji", emoji + "😀", 400},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := "/api/tts/synthesize?" + q("format", "wav", "text", tc.text)
			resp, body := sa.get(t, path, sa.user)
			if tc.want == 200 {
				require.Equal(t, 200, resp.StatusCode, "a %d-byte URL: %s", len(path), body)
				assertAudioHeader(t, "wav", body)
				return
			}
			assertAPIError(t, resp, body, 400, "text_too_long")
		})
	}
	require.Equal(t, 5001, utf8.RuneCountInString(string(ru[:5001])))
}

func TestTTSStreamAudioIsOneStreamSentenceBySentence(t *testing.T) {
	t.Parallel()
	sa := newSpeechApp(t, nil)
	text := "Первое предложение короткое. Второе предложение немного длиннее первого! " +
		"А третье спрашивает: всё ли слышно? Четвёртое заканчивает рассказ."
	for _, format := range []string{"wav", "mp3", "ogg"} {
		t.Run(format, func(t *testing.T) {
			// The sentences as the server splits them, each as its own file.
			events := sa.streamText(t, "/api/tts/stream-text?"+q("text", text, "format", format))
			require.Len(t, events, 5, "%v", events)
			var probed, decoded float64
			for _, ev := range events[:4] {
				resp, one := sa.get(t, ev["audio_url"].(string), sa.user)
				require.Equal(t, 200, resp.StatusCode)
				if format != "ogg" {
					probed += probeDuration(t, one, format)
				}
				decoded += decodedDuration(t, one, format)
			}

			resp, audio := sa.get(t, "/api/tts/stream-audio?"+q("text", text, "format", format), sa.user)
			require.Equal(t, 200, resp.StatusCode, "%s", audio)
			assert.Equal(t, []string{"chunked"}, resp.TransferEncoding)
			assert.EqualValues(t, -1, resp.ContentLength)
			assert.Equal(t, contentTypes[format], resp.Header.Get("Content-Type"))
			assertAudioHeader(t, format, audio)
			switch format {
			case "wav":
				assert.Equal(t, 1, bytes.Count(audio, []byte("RIFF")), "one WAV header, at the start")
				assert.Equal(t, 1, bytes.Count(audio, []byte("WAVE")))
				assert.Equal(t, 1, bytes.Count(audio, []byte("data")), "one data chunk")
				assert.InDelta(t, probed, probeDuration(t, audio, format), 0.02, "the stream lasts as long as its sentences")
			case "mp3":
				assert.InDelta(t, probed, probeDuration(t, audio, format), 0.1*4)
			}
			// Encoder padding adds a little per sentence in mp3 and Opus.
			assert.InDelta(t, decoded, decodedDuration(t, audio, format), 0.1*4, "a player hears every sentence")
		})
	}
}

// streamText reads a stream-text answer's events.
func (sa *speechApp) streamText(t *testing.T, path string) []map[string]any {
	t.Helper()
	req, err := http.NewRequest("GET", sa.base+path, nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+sa.user)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("stream-text: %d %s", resp.StatusCode, b)
	}
	assert.Equal(t, "text/event-stream; charset=utf-8", resp.Header.Get("Content-Type"))
	return readChatEvents(t, bufio.NewScanner(resp.Body))
}

func TestTTSStreamTextSplitsSentences(t *testing.T) {
	t.Parallel()
	sa := newSpeechApp(t, nil)
	want := []string{
		"Фильм сняли в 1999 г.",
		"Это классика, т. е. его стоит посмотреть всем.",
		"Всё начинается так…",
		"Потом Mr. Smith приезжает в г. Москва и встречает героя.",
		"Финал никого не оставит равнодушным!",
	}
	events := sa.streamText(t, "/api/tts/stream-text?"+q("text", strings.Join(want, " ")))
	require.Len(t, events, len(want)+1, "%v", events)
	assert.Equal(t, map[string]any{"done": true}, events[len(want)])
	for i, ev := range events[:len(want)] {
		assert.EqualValues(t, i, ev["index"])
		assert.Equal(t, want[i], ev["text"])
		u, _ := ev["audio_url"].(string)
		require.True(t, strings.HasPrefix(u, "/api/tts/file/"), "%v", ev)
		assert.Regexp(t, ttsFileRe, strings.TrimPrefix(u, "/api/tts/file/"))
		resp, audio := sa.get(t, u, sa.user)
		require.Equal(t, 200, resp.StatusCode, "%s", audio)
		assert.Equal(t, "audio/mpeg", resp.Header.Get("Content-Type"), "the default format")
		assertAudioHeader(t, "mp3", audio)
		// A sentence's file is the synthesis of that sentence.
		resp, _ = sa.get(t, "/api/tts/synthesize?"+q("text", want[i]), sa.user)
		assert.Equal(t, strings.TrimPrefix(u, "/api/tts/file/"), resp.Header.Get("X-TTS-File"))
	}
}

// speechChildren lists the espeak-ng and ffmpeg processes whose parent
// chain leads to this test process, from /proc, leaving out those in
// skip (there before the test began).
func speechChildren(t *testing.T, skip map[int]bool) map[int]string {
	t.Helper()
	stats, err := filepath.Glob("/proc/[0-9]*/stat")
	require.NoError(t, err)
	parent, comm := map[int]int{}, map[int]string{}
	for _, p := range stats {
		b, err := os.ReadFile(p)
		if err != nil {
			continue // ended meanwhile
		}
		// pid (comm) state ppid …: comm may hold spaces, so cut at the last ')'.
		s := string(b)
		open, shut := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || shut < open {
			continue
		}
		rest := strings.Fields(s[shut+1:])
		pid, err1 := strconv.Atoi(strings.TrimSpace(s[:open]))
		ppid, err2 := strconv.Atoi(rest[1])
		if err1 != nil || err2 != nil {
			continue
		}
		parent[pid], comm[pid] = ppid, s[open+1:shut]
	}
	me := os.Getpid()
	found := map[int]string{}
	for pid, name := range comm {
		if (name != "espeak-ng" && name != "ffmpeg") || skip[pid] {
			continue
		}
		for p, hops := parent[pid], 0; p > 1 && hops < 64; p, hops = parent[p], hops+1 {
			if p == me {
				found[pid] = name
				break
			}
		}
	}
	return found
}

// countOf counts the processes named name.
func countOf(procs map[int]string, name string) int {
	n := 0
	for _, v := range procs {
		if v == name {
			n++
		}
	}
	return n
}

// TestTTSStreamAudioStartsEarlyAndDiesWithItsClient is not parallel: it
// counts this process's espeak-ng and ffmpeg children, and parallel
// tests of this package start their own.
func TestTTSStreamAudioStartsEarlyAndDiesWithItsClient(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc here")
	}
	// A slow voice: minutes of audio, far more than socket buffers hold.
	sa := newSpeechApp(t, map[string]string{"MEDIATEKA_TTS__ESPEAK__RATE": "80"})
	before := map[int]bool{}
	for pid := range speechChildren(t, nil) {
		before[pid] = true
	}
	sentence := "Длинный рассказ о старом городе, его улицах, мостах и людях, которые там жили. "
	long := strings.Repeat(sentence, 5000/utf8.RuneCountInString(sentence))
	for _, format := range []string{"wav", "mp3"} {
		t.Run(format, func(t *testing.T) {
			addr := strings.TrimPrefix(sa.base, "http://")
			conn, err := net.Dial("tcp", addr)
			require.NoError(t, err)
			defer conn.Close()
			require.NoError(t, conn.SetDeadline(time.Now().Add(20*time.Second)))
			_, err = fmt.Fprintf(conn, "GET /api/tts/stream-audio?%s HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\n\r\n",
				q("text", long, "format", format), addr, sa.user)
			require.NoError(t, err)
			resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
			require.NoError(t, err)
			require.Equal(t, 200, resp.StatusCode)
			require.Equal(t, []string{"chunked"}, resp.TransferEncoding)
			head := make([]byte, 4096)
			_, err = io.ReadFull(resp.Body, head)
			require.NoError(t, err, "the first audio arrives")
			assertAudioHeader(t, format, head)
			if format == "wav" {
				require.Equal(t, "data", string(head[36:40]), "espeak-ng's 44-byte header")
				require.Equal(t, uint32(0xFFFFFFFF), binary.LittleEndian.Uint32(head[40:44]), "a live stream's length is unknown")
			}

			// The first audio came while the text was still being spoken:
			// a server that made the whole text first would have no
			// espeak-ng left by now.
			var alive map[int]string
			require.Eventually(t, func() bool {
				alive = speechChildren(t, before)
				return countOf(alive, "espeak-ng") > 0 && (format == "wav" || countOf(alive, "ffmpeg") > 0)
			}, 5*time.Second, 10*time.Millisecond, "espeak-ng (and ffmpeg for mp3) still speaking after the first bytes")

			// The listener leaves: the processes speaking for it are killed
			// and no further sentence is started. espeak-ng is fast enough
			// to finish the whole text within the two seconds by itself, so
			// the test also watches for processes started after the
			// listener left: a server that only stopped writing would
			// start one for every sentence that is left.
			require.NoError(t, conn.Close())
			closed := time.Now()
			started := map[int]string{}
			for {
				left := speechChildren(t, before)
				for pid, name := range left {
					if _, was := alive[pid]; !was {
						started[pid] = name
					}
				}
				if len(left) == 0 && time.Since(closed) > 500*time.Millisecond {
					break
				}
				if time.Since(closed) > 2*time.Second {
					t.Fatalf("2 s after the client left, still running: %v (while streaming: %v)", left, alive)
				}
				time.Sleep(time.Millisecond)
			}
			// The sentence being made as the write failed may have ended
			// by itself just before, and the next one started then fails
			// on its first write: one more espeak-ng at most.
			assert.LessOrEqual(t, countOf(started, "espeak-ng"), 1,
				"espeak-ng runs started after the client left: %v", started)
		})
	}
	assert.NotContains(t, sa.stderr.String(), `"level":"ERROR"`, "a listener leaving is not an error")
}

func TestTTSReadsAnEntryFieldFromTheCatalogue(t *testing.T) {
	t.Parallel()
	requireSpeechPrograms(t)
	la := newLibApp(t, nil)
	la.put(t, map[string]string{"Heat (1995)/Heat.1995.mkv": "heat", "Ronin (1998)/Ronin.1998.mkv": "ronin"})
	la.scan(t)
	heat, ronin := la.idOf(t, "Heat (1995)/Heat.1995.mkv"), la.idOf(t, "Ronin (1998)/Ronin.1998.mkv")
	plot := "Профессиональный вор и упорный детектив идут навстречу друг другу. Финал в аэропорту."
	resp, body := la.do(t, "PATCH", fmt.Sprintf("/api/media-admin/media/%d", heat), la.admin, map[string]any{"plot": plot})
	require.Equal(t, 200, resp.StatusCode, "%v", body)
	_, roninBefore := la.do(t, "GET", fmt.Sprintf("/api/media/%d", ronin), la.user, nil)
	require.Empty(t, roninBefore["plot"], "the scan wrote no plot")
	addr, stop := runOnLoopback(t, la.testApp)
	defer func() { _ = stop() }()
	sa := &speechApp{testApp: la.testApp, base: "http://" + addr, user: la.user, admin: la.admin}

	resp, audio := sa.get(t, "/api/tts/synthesize?"+q("media_id", strconv.FormatInt(heat, 10), "field", "plot", "format", "wav"), sa.user)
	require.Equal(t, 200, resp.StatusCode, "%s", audio)
	assertAudioHeader(t, "wav", audio)
	assert.Greater(t, probeDuration(t, audio, "wav"), 1.0)
	resp2, _ := sa.get(t, "/api/tts/synthesize?"+q("text", plot, "format", "wav"), sa.user)
	assert.Equal(t, resp.Header.Get("X-TTS-File"), resp2.Header.Get("X-TTS-File"), "the plot is what was spoken")

	events := sa.streamText(t, "/api/tts/stream-text?"+q("media_id", strconv.FormatInt(heat, 10), "field", "plot"))
	require.Len(t, events, 3, "%v", events)
	assert.Equal(t, "Финал в аэропорту.", events[1]["text"])
	resp, audio = sa.get(t, "/api/tts/stream-audio?"+q("media_id", strconv.FormatInt(heat, 10), "field", "plot", "format", "ogg"), sa.user)
	require.Equal(t, 200, resp.StatusCode, "%s", audio)
	assertAudioHeader(t, "ogg", audio)

	id := strconv.FormatInt(heat, 10)
	for _, tc := range []struct {
		name, query, status, code string
	}{
		{"field path", q("media_id", id, "field", "path"), "400", "invalid_input"},
		{"field title", q("media_id", id, "field", "title"), "400", "invalid_input"},
		{"field with SQL", q("media_id", id, "field", "plot;DROP TABLE media"), "400", "invalid_input"},
		{"field with a quote", q("media_id", id, "field", "plot' OR 1=1"), "400", "invalid_input"},
		{"field in capitals", q("media_id", id, "field", "PLOT"), "400", "invalid_input"},
		{"no field", q("media_id", id), "400", "invalid_input"},
		{"field without media_id", q("field", "plot"), "400", "invalid_input"},
		{"media_id abc", q("media_id", "abc", "field", "plot"), "400", "invalid_input"},
		{"media_id -1", q("media_id", "-1", "field", "plot"), "400", "invalid_input"},
		{"media_id 1.5", q("media_id", "1.5", "field", "plot"), "400", "invalid_input"},
		{"media_id 0", q("media_id", "0", "field", "plot"), "400", "invalid_input"},
		{"unknown media_id", q("media_id", "424242", "field", "plot"), "404", "media_not_found"},
		{"entry without a plot", q("media_id", strconv.FormatInt(ronin, 10), "field", "plot"), "400", "invalid_input"},
		{"text and media_id", q("media_id", id, "field", "plot", "text", "Привет"), "400", "invalid_input"},
	} {
		for _, route := range []string{"synthesize", "stream-audio", "stream-text"} {
			resp, body := sa.get(t, "/api/tts/"+route+"?"+tc.query, sa.user)
			status, _ := strconv.Atoi(tc.status)
			assertAPIError(t, resp, body, status, tc.code)
			if t.Failed() {
				t.Fatalf("%s on %s", tc.name, route)
			}
		}
	}

	// Nothing above reached the table: both entries are as they were.
	_, after := la.do(t, "GET", fmt.Sprintf("/api/media/%d", heat), la.user, nil)
	assert.Equal(t, plot, after["plot"])
	_, roninAfter := la.do(t, "GET", fmt.Sprintf("/api/media/%d", ronin), la.user, nil)
	assert.Equal(t, roninBefore, roninAfter)
	_, raw := la.raw(t, "GET", "/api/media/files", la.user, nil)
	var entries []map[string]any
	require.NoError(t, json.Unmarshal(raw, &entries))
	assert.Len(t, entries, 2)
}

func TestTTSRefusesBadInputWithTheAPIErrors(t *testing.T) {
	t.Parallel()
	sa := newSpeechApp(t, nil)
	for _, tc := range []struct {
		name, query, code string
	}{
		{"no text", "", "invalid_input"},
		{"blank text", q("text", ""), "invalid_input"},
		{"whitespace only", q("text", " \t\n  \r\n"), "invalid_input"},
		{"control character 0x01", q("text", "Привет\x01мир"), "invalid_input"},
		{"escape sequence", q("text", "Hello \x1b[31mred"), "invalid_input"},
		{"NUL", q("text", "a\x00b"), "invalid_input"},
		{"not UTF-8", "text=%FF%FE", "invalid_input"},
		{"unknown engine", q("text", ttsRussian, "engine", "festival"), "invalid_input"},
		{"unknown voice", q("text", ttsRussian, "voice", "klingon"), "invalid_input"},
		{"unknown format", q("text", ttsRussian, "format", "flac"), "invalid_input"},
		{"text and media_id", q("text", ttsRussian, "media_id", "1", "field", "plot"), "invalid_input"},
	} {
		for _, route := range []string{"synthesize", "stream-audio", "stream-text"} {
			t.Run(tc.name+"/"+route, func(t *testing.T) {
				resp, body := sa.get(t, "/api/tts/"+route+"?"+tc.query, sa.user)
				assertAPIError(t, resp, body, 400, tc.code)
			})
		}
	}

	resp, body := sa.get(t, "/api/tts/synthesize?"+q("text", ttsEnglish, "format", "wav"), sa.user)
	require.Equal(t, 200, resp.StatusCode, "%s", body)
	name := resp.Header.Get("X-TTS-File")
	hash := strings.TrimSuffix(name, ".wav")
	for _, tc := range []struct {
		name, file, code string
		status           int
	}{
		{"dot-dot slash, encoded", "..%2Fx.mp3", "invalid_input", 400},
		{"dot-dot slash to a cached name, encoded", "..%2F" + name, "invalid_input", 400},
		{"uppercase hex", strings.ToUpper(hash) + ".wav", "invalid_input", 400},
		{"63 hex digits", hash[1:] + ".wav", "invalid_input", 400},
		{"65 hex digits", hash + "0.wav", "invalid_input", 400},
		{".flac", hash + ".flac", "invalid_input", 400},
		{"no extension", hash, "invalid_input", 400},
		{"hidden temporary file", ".part-123", "invalid_input", 400},
		{"absent valid name", strings.Repeat("0", 64) + ".mp3", "not_found", 404},
		{"the cached file in another format", hash + ".mp3", "not_found", 404},
	} {
		t.Run("file/"+tc.name, func(t *testing.T) {
			resp, body := sa.get(t, "/api/tts/file/"+tc.file, sa.user)
			assertAPIError(t, resp, body, tc.status, tc.code)
		})
	}
	resp, body = sa.get(t, "/api/tts/file/"+name, sa.user)
	assert.Equal(t, 200, resp.StatusCode, "%s", body)
	assert.NotContains(t, sa.stderr.String(), `"level":"ERROR"`, "bad input is not a server error")
}

func TestTTSRoutesNeedAToken(t *testing.T) {
	t.Parallel()
	sa := newSpeechApp(t, nil)
	resp, body := sa.get(t, "/api/tts/synthesize?"+q("text", ttsRussian, "format", "wav"), sa.user)
	require.Equal(t, 200, resp.StatusCode, "%s", body)
	file := "/api/tts/file/" + resp.Header.Get("X-TTS-File")
	text := q("text", ttsRussian, "format", "wav")
	routes := []struct {
		path       string
		queryToken bool // ?token= is accepted (an <audio> element or EventSource)
	}{
		{"/api/tts/voices", false},
		{"/api/tts/synthesize?" + text, true},
		{"/api/tts/stream-audio?" + text, true},
		{"/api/tts/stream-text?" + text, true},
		{file, true},
	}
	for _, r := range routes {
		resp, body := sa.get(t, r.path, "")
		assertAPIError(t, resp, body, 401, "unauthorized")
		resp, body = sa.get(t, r.path, "not-a-token")
		assertAPIError(t, resp, body, 401, "unauthorized")
		sep := "?"
		if strings.Contains(r.path, "?") {
			sep = "&"
		}
		resp, body = sa.get(t, r.path+sep+"token=not-a-token", "")
		assertAPIError(t, resp, body, 401, "unauthorized")

		resp, body = sa.get(t, r.path+sep+"token="+url.QueryEscape(sa.user), "")
		if r.queryToken {
			assert.Equal(t, 200, resp.StatusCode, "%s with ?token=: %s", r.path, body)
			assert.NotEmpty(t, body)
		} else {
			assertAPIError(t, resp, body, 401, "unauthorized")
		}
		resp, body = sa.get(t, r.path, sa.user)
		assert.Equal(t, 200, resp.StatusCode, "%s with the header: %s", r.path, body)
	}
	assert.NotContains(t, sa.stderr.String(), sa.user, "a token in the URL is masked in the log")
}

func TestTTSVoicesListsTheEngines(t *testing.T) {
	t.Parallel()
	sa := newSpeechApp(t, nil)
	resp, raw := sa.get(t, "/api/tts/voices", sa.user)
	require.Equal(t, 200, resp.StatusCode, "%s", raw)
	var out struct {
		DefaultEngine string `json:"default_engine"`
		Engines       []struct {
			Name          string            `json:"name"`
			Default       bool              `json:"default"`
			Available     bool              `json:"available"`
			Message       *string           `json:"message"`
			Voices        []map[string]any  `json:"voices"`
			DefaultVoices map[string]string `json:"default_voices"`
			Formats       []string          `json:"formats"`
			DefaultFormat string            `json:"default_format"`
		} `json:"engines"`
	}
	require.NoError(t, json.Unmarshal(raw, &out))
	assert.Equal(t, "espeak", out.DefaultEngine)
	seen := map[string]int{}
	for _, e := range out.Engines {
		seen[e.Name]++
	}
	for name, n := range seen {
		assert.Equal(t, 1, n, "%s listed once", name)
	}
	require.NotEmpty(t, out.Engines)
	es := out.Engines[0]
	assert.Equal(t, "espeak", es.Name)
	assert.True(t, es.Default)
	assert.True(t, es.Available, "espeak-ng is installed: %v", es.Message)
	assert.Nil(t, es.Message)
	ids := map[string]bool{}
	for _, v := range es.Voices {
		ids[v["id"].(string)] = true
		assert.NotEmpty(t, v["lang"])
		assert.NotEmpty(t, v["name"])
	}
	assert.True(t, ids["ru"], "espeak-ng speaks Russian")
	assert.True(t, ids["en-us"], "and American English")
	assert.Greater(t, len(ids), 50, "every espeak-ng voice is listed")
	assert.Equal(t, map[string]string{"ru": "ru", "en": "en-us"}, es.DefaultVoices)
	assert.ElementsMatch(t, []string{"mp3", "wav", "ogg"}, es.Formats)
	assert.Equal(t, "mp3", es.DefaultFormat)
	for _, e := range out.Engines[1:] {
		assert.False(t, e.Default)
		assert.Contains(t, []string{"google", "openai"}, e.Name)
		if !e.Available {
			assert.NotNil(t, e.Message, "%s says why it cannot speak", e.Name)
		}
	}
}

func TestTTSChatSpeaksTheAnswer(t *testing.T) {
	t.Parallel()
	sa := newSpeechApp(t, nil)
	resp, body := sa.do(t, "POST", "/api/chat", sa.user, map[string]any{"message": "привет", "speak": true})
	require.Equal(t, 200, resp.StatusCode, "%v", body)
	require.NotEmpty(t, body["response"])
	u, _ := body["audio_url"].(string)
	require.True(t, strings.HasPrefix(u, "/api/tts/file/"), "%v", body)
	assert.Regexp(t, ttsFileRe, strings.TrimPrefix(u, "/api/tts/file/"))
	assert.Nil(t, body["audio_error"])
	r, audio := sa.get(t, u, sa.user)
	require.Equal(t, 200, r.StatusCode, "%s", audio)
	assert.Equal(t, "audio/mpeg", r.Header.Get("Content-Type"))
	assertAudioHeader(t, "mp3", audio)
	assert.Greater(t, probeDuration(t, audio, "mp3"), 0.5)
	// The audio is the answer: the same text synthesized is the same file.
	r, _ = sa.get(t, "/api/tts/synthesize?"+q("text", body["response"].(string)), sa.user)
	assert.Equal(t, strings.TrimPrefix(u, "/api/tts/file/"), r.Header.Get("X-TTS-File"))

	resp, body = sa.do(t, "POST", "/api/chat", sa.user, map[string]any{"message": "привет"})
	require.Equal(t, 200, resp.StatusCode)
	assert.NotContains(t, body, "audio_url", "no speak, no audio")

	addr := strings.TrimPrefix(sa.base, "http://")
	events := sse(t, addr, sa.user, map[string]any{"message": "привет", "speak": true})
	require.NotEmpty(t, events)
	done := events[len(events)-1]
	require.Equal(t, true, done["done"], "%v", events)
	u, _ = done["audio_url"].(string)
	require.True(t, strings.HasPrefix(u, "/api/tts/file/"), "%v", done)
	var answer strings.Builder
	for _, ev := range events {
		if s, ok := ev["text"].(string); ok {
			answer.WriteString(s)
		}
	}
	r, audio = sa.get(t, u, sa.user)
	require.Equal(t, 200, r.StatusCode, "%s", audio)
	assertAudioHeader(t, "mp3", audio)
	r, _ = sa.get(t, "/api/tts/synthesize?"+q("text", answer.String()), sa.user)
	assert.Equal(t, strings.TrimPrefix(u, "/api/tts/file/"), r.Header.Get("X-TTS-File"), "the streamed answer is what was spoken")

	events = sse(t, addr, sa.user, map[string]any{"message": "привет"})
	require.NotEmpty(t, events)
	assert.NotContains(t, events[len(events)-1], "audio_url")
	assert.Equal(t, true, events[len(events)-1]["done"])
}

// TestTTSSynthesizeStopsWhenTheClientLeaves: a synthesize whose client
// has gone should stop its espeak-ng and ffmpeg (issue: "a cancelled
// request kills its espeak-ng/ffmpeg process"), as stream-audio does.
// Not parallel: it counts this process's children.
func TestTTSSynthesizeStopsWhenTheClientLeaves(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc here")
	}
	sa := newSpeechApp(t, map[string]string{"MEDIATEKA_TTS__ESPEAK__RATE": "80"})
	before := map[int]bool{}
	for pid := range speechChildren(t, nil) {
		before[pid] = true
	}
	sentence := "Длинный рассказ о старом городе, его улицах, мостах и людях, которые там жили. "
	long := strings.Repeat(sentence, 5000/utf8.RuneCountInString(sentence))
	addr := strings.TrimPrefix(sa.base, "http://")
	conn, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer conn.Close()
	_, err = fmt.Fprintf(conn, "GET /api/tts/synthesize?%s HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\n\r\n",
		q("text", long, "format", "ogg"), addr, sa.user)
	require.NoError(t, err)
	require.Eventually(t, func() bool { return countOf(speechChildren(t, before), "ffmpeg") > 0 },
		5*time.Second, time.Millisecond, "the synthesis starts")
	require.NoError(t, conn.Close())
	require.Eventually(t, func() bool { return len(speechChildren(t, before)) == 0 }, 30*time.Second, 10*time.Millisecond)
	made, err := filepath.Glob(filepath.Join(sa.cfg.TTS.CacheDir, "*.ogg"))
	require.NoError(t, err)
	assert.Empty(t, made, "the synthesis went on to the end after its client left")
}
