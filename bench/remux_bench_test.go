package bench

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"mediateka/bench/measure"
	"mediateka/repository/exectest"
)

// BenchmarkRemuxFirstByte measures what a viewer waits for when a film
// needs remuxing: from the request of the stream URL /play gave (with a
// start somewhere in the film, as a seek asks) to the first byte of the
// answer, and to the first media fragment (moof), the first thing a
// browser can play. The films are 1280×720 H.264 + AC3 5.1 Matroska made
// by ffmpeg here, with a keyframe every 10 s (x264's default at 25 frames
// a second, the worst case for a seek: the first fragment holds a whole
// keyframe interval): "plain" is 60 s of the test pattern (0.7 Mbit/s),
// "grainy" 20 s of it with film grain (90 Mbit/s, more than a Blu-ray).
// The server runs whole on 127.0.0.1. Budget (issue 10): ≤ 1 s to the
// first media byte.
func BenchmarkRemuxFirstByte(b *testing.B) {
	exectest.Require(b, "ffmpeg", "ffmpeg", "ffprobe")
	for _, film := range []struct {
		name    string
		seconds int
		grain   bool
	}{{"plain-60s", 60, false}, {"grainy-20s", 20, true}} {
		b.Run(film.name, func(b *testing.B) {
			root := b.TempDir()
			made := exectest.MakeVideo(b, exectest.Video{Name: "film.mkv", Seconds: film.seconds, Size: "1280x720", Rate: 25,
				KeyframeEvery: 10, Noise: film.grain,
				Audio: []exectest.Track{{Language: "rus", Codec: "ac3", Channels: 6, Default: true}, {Language: "eng", Codec: "ac3"}}})
			if err := os.Rename(made, filepath.Join(root, "Film.2020.mkv")); err != nil {
				b.Fatal(err)
			}
			base, token, stop := serveRoot(b, root, 1)
			defer stop()
			benchFirstBytes(b, base, playURL(b, base, token), film.seconds-5)
		})
	}
}

// benchFirstBytes asks the remux of streamURL from starts spread over
// the first span seconds and reports the percentiles of both waits.
func benchFirstBytes(b *testing.B, base, streamURL string, span int) {
	var first, media []time.Duration
	i := 0
	for b.Loop() {
		start := (i * 7) % span
		i++
		ttfb, ttmoof := firstBytes(b, fmt.Sprintf("%s%s&start=%d", base, streamURL, start))
		first, media = append(first, ttfb), append(media, ttmoof)
	}
	for _, m := range []struct {
		name string
		d    []time.Duration
	}{{"first-byte", first}, {"first-moof", media}} {
		b.ReportMetric(float64(measure.Percentile(m.d, 50).Microseconds())/1000, m.name+"-p50-ms")
		b.ReportMetric(float64(measure.Percentile(m.d, 99).Microseconds())/1000, m.name+"-p99-ms")
	}
}

// playURL asks /play for the catalogue's one entry and returns its remux
// stream URL.
func playURL(b *testing.B, base, token string) string {
	req, _ := http.NewRequest("GET", base+"/api/media/1/play", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	var play struct {
		Mode      string `json:"mode"`
		StreamURL string `json:"stream_url"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&play); err != nil || play.Mode != "remux" {
		b.Fatalf("play: %v %+v", err, play)
	}
	return play.StreamURL
}

// firstBytes requests url and returns the time to the first byte of the
// body and to the start of the first moof box, then hangs up (which ends
// the server's ffmpeg).
func firstBytes(b *testing.B, url string) (firstByte, firstMoof time.Duration) {
	begin := time.Now()
	resp, err := http.Get(url)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		b.Fatalf("%s: %s", url, resp.Status)
	}
	r := bufio.NewReader(resp.Body)
	if _, err := r.Peek(1); err != nil {
		b.Fatal(err)
	}
	firstByte = time.Since(begin)
	head := make([]byte, 8)
	for {
		if _, err := io.ReadFull(r, head); err != nil {
			b.Fatalf("no moof box: %v", err)
		}
		if string(head[4:]) == "moof" {
			return firstByte, time.Since(begin)
		}
		size := binary.BigEndian.Uint32(head[:4])
		if size < 8 {
			b.Fatalf("unexpected box size %d", size)
		}
		if _, err := r.Discard(int(size) - 8); err != nil {
			b.Fatal(err)
		}
	}
}
