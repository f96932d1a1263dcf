package app

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// speechBenchText is the benchmark's text: 12 Russian sentences, 947
// characters (about 55 s of speech).
var speechBenchText = strings.Join([]string{
	"Вечером над городом медленно опускался густой туман, и фонари зажигались один за другим.",
	"Старый библиотекарь закрыл тяжёлую дверь и пошёл по мокрой мостовой к дому.",
	"В кармане его пальто лежало письмо, которое он получил утром, но так и не решился открыть.",
	"На углу улицы играл уличный музыкант, и мелодия скрипки разносилась далеко вокруг.",
	"Прохожие спешили по своим делам, не обращая внимания ни на музыку, ни на холодный ветер.",
	"Библиотекарь остановился и осторожно положил несколько монет в раскрытый футляр.",
	"Музыкант благодарно кивнул и заиграл старинный вальс, знакомый всем с детства.",
	"Дома его ждал остывший чай, потрёпанное кресло и кот, свернувшийся клубком у камина.",
	"Он сел у окна, надел очки и дрожащими руками распечатал конверт.",
	"Письмо было от сестры, с которой они не виделись почти двадцать лет.",
	"Она писала, что скоро приедет в город и очень хочет встретиться.",
	"Старик долго смотрел в тёмное окно, а потом впервые за много лет улыбнулся.",
}, " ")

// speechBench is a running server for the speech benchmarks, with a
// keep-alive client.
type speechBench struct {
	*testApp
	base, user string
	client     *http.Client
}

func newSpeechBench(b *testing.B) *speechBench {
	b.Helper()
	requireSpeechPrograms(b)
	ta := newTestApp(b, nil)
	_, user := ta.tokens(b)
	addr, stop := runOnLoopback(b, ta)
	b.Cleanup(func() { _ = stop() })
	client := &http.Client{Timeout: 60 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 32, MaxConnsPerHost: 32}}
	b.Cleanup(client.CloseIdleConnections)
	return &speechBench{testApp: ta, base: "http://" + addr, user: user, client: client}
}

// open sends GET path and returns the response with its body unread.
func (sb *speechBench) open(path string) (*http.Response, error) {
	req, err := http.NewRequest("GET", sb.base+path, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+sb.user)
	resp, err := sb.client.Do(req)
	if err == nil && resp.StatusCode != http.StatusOK {
		raw, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return nil, fmt.Errorf("GET %.60s: %d %s", path, resp.StatusCode, raw)
	}
	return resp, err
}

// fetch sends GET path and reads the whole answer.
func (sb *speechBench) fetch(path string) error {
	resp, err := sb.open(path)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	_, err = io.Copy(io.Discard, resp.Body)
	return err
}

// emptyCache removes every cached audio file, so the next synthesize runs
// the engine.
func (sb *speechBench) emptyCache(b *testing.B) {
	b.Helper()
	files, err := filepath.Glob(filepath.Join(sb.cfg.TTS.CacheDir, "*"))
	if err != nil {
		b.Fatal(err)
	}
	for _, f := range files {
		if err := os.Remove(f); err != nil {
			b.Fatal(err)
		}
	}
}

// median of ds in milliseconds.
func medianMS(ds []time.Duration) float64 {
	s := slices.Clone(ds)
	slices.Sort(s)
	return float64(s[len(s)/2].Microseconds()) / 1000
}

// BenchmarkSpeechFirstByte compares, for speechBenchText in WAV with
// espeak, the time to the first audio byte past the WAV header of
// stream-audio with the time of a whole synthesize that misses the cache
// (both over HTTP on loopback, medians over b.N rounds, the two taken in
// turn). It reports both and their ratio (target ≤ 0.30). For reference,
// espeak-ng alone on the same text: its first byte past the header and
// its whole run. Bound it with a count, e.g.
//
//	go test ./app -run '^$' -bench SpeechFirstByte -benchtime 40x -count 3
func BenchmarkSpeechFirstByte(b *testing.B) {
	sb := newSpeechBench(b)
	synth := "/api/tts/synthesize?" + q("text", speechBenchText, "format", "wav")
	stream := "/api/tts/stream-audio?" + q("text", speechBenchText, "format", "wav")
	if err := sb.fetch(stream); err != nil { // voices read, connection open
		b.Fatal(err)
	}
	var first, whole, full, alone, aloneFirst []time.Duration
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		sb.emptyCache(b)
		b.StartTimer()
		begin := time.Now()
		if err := sb.fetch(synth); err != nil {
			b.Fatal(err)
		}
		full = append(full, time.Since(begin))

		begin = time.Now()
		resp, err := sb.open(stream)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := io.ReadFull(resp.Body, make([]byte, 44+1)); err != nil {
			b.Fatal(err)
		}
		first = append(first, time.Since(begin))
		if _, err := io.Copy(io.Discard, resp.Body); err != nil {
			b.Fatal(err)
		}
		resp.Body.Close()
		whole = append(whole, time.Since(begin))

		f, a := espeakAlone(b, speechBenchText)
		aloneFirst, alone = append(aloneFirst, f), append(alone, a)
	}
	b.StopTimer()
	b.ReportMetric(medianMS(first), "first-byte-ms")
	b.ReportMetric(medianMS(full), "synthesize-ms")
	b.ReportMetric(medianMS(first)/medianMS(full), "first/synthesize")
	b.ReportMetric(medianMS(whole), "stream-whole-ms")
	b.ReportMetric(medianMS(aloneFirst), "espeak-first-byte-ms")
	b.ReportMetric(medianMS(alone), "espeak-whole-ms")
}

// espeakAlone runs espeak-ng on text as the engine does (WAV on stdout)
// and times its first byte past the 44-byte header and its whole run.
func espeakAlone(b *testing.B, text string) (firstByte, whole time.Duration) {
	b.Helper()
	begin := time.Now()
	cmd := exec.Command("espeak-ng", "-b", "1", "-v", "ru", "--stdout")
	cmd.Stdin = strings.NewReader(text)
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	r := bufio.NewReader(out)
	if _, err := io.ReadFull(r, make([]byte, 44+1)); err != nil {
		b.Fatal(err)
	}
	firstByte = time.Since(begin)
	if _, err := io.Copy(io.Discard, r); err != nil {
		b.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		b.Fatal(err)
	}
	return firstByte, time.Since(begin)
}

// BenchmarkSpeechCacheHit is a synthesize answered from the cache: the
// same text every time (default format, mp3), one keep-alive connection.
//
//	go test ./app -run '^$' -bench SpeechCacheHit -benchtime 2000x -count 3
func BenchmarkSpeechCacheHit(b *testing.B) {
	sb := newSpeechBench(b)
	path := "/api/tts/synthesize?" + q("text", speechBenchText)
	if err := sb.fetch(path); err != nil {
		b.Fatal(err)
	}
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		begin := time.Now()
		if err := sb.fetch(path); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(begin))
	}
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(medianMS(lat), "p50-ms")
	b.ReportMetric(float64(lat[min(len(lat)-1, len(lat)*99/100)].Microseconds())/1000, "p99-ms")
}

// BenchmarkSpeechConcurrent20 sends 20 different synthesize requests at
// once (one sentence of speechBenchText each, numbered so that none is a
// cache hit; default format, mp3 through ffmpeg) and waits for all; every
// one must succeed. It reports the time for the 20 and the errors.
//
//	go test ./app -run '^$' -bench SpeechConcurrent20 -benchtime 5x -count 3
func BenchmarkSpeechConcurrent20(b *testing.B) {
	sb := newSpeechBench(b)
	sentences := strings.SplitAfter(speechBenchText, ". ")
	var errs atomic.Int64
	var rounds []time.Duration
	var mu sync.Mutex
	var firstErr error
	b.ResetTimer()
	for round := range b.N {
		begin := time.Now()
		var wg sync.WaitGroup
		for i := range 20 {
			text := fmt.Sprintf("Запрос %d, круг %d, запуск %d. %s", i, round, time.Now().UnixNano(), sentences[i%len(sentences)])
			wg.Go(func() {
				if err := sb.fetch("/api/tts/synthesize?" + q("text", text)); err != nil {
					errs.Add(1)
					mu.Lock()
					firstErr = cmp.Or(firstErr, err)
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		rounds = append(rounds, time.Since(begin))
	}
	b.StopTimer()
	if n := errs.Load(); n > 0 {
		b.Fatalf("%d requests failed, the first: %v", n, firstErr)
	}
	b.ReportMetric(medianMS(rounds), "20-requests-ms")
	b.ReportMetric(float64(errs.Load()), "errors")
}
