package app

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/repository/exectest"
)

// ffmpegsReading lists the ids of the ffmpeg processes whose command line
// names file, from /proc.
func ffmpegsReading(t *testing.T, file string) []int {
	t.Helper()
	procs, err := filepath.Glob("/proc/[0-9]*/cmdline")
	require.NoError(t, err)
	var pids []int
	for _, p := range procs {
		raw, err := os.ReadFile(p)
		if err != nil || !strings.Contains(string(raw), file) || !strings.Contains(string(raw), "ffmpeg") {
			continue
		}
		if pid, err := strconv.Atoi(filepath.Base(filepath.Dir(p))); err == nil {
			pids = append(pids, pid)
		}
	}
	return pids
}

// openStream sends GET path on a new connection and reads the response
// head and n bytes of its body; the connection stays open.
func openStream(t *testing.T, addr, path string, n int) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	t.Cleanup(func() { _ = conn.Close() })
	_, err = io.WriteString(conn, "GET "+path+" HTTP/1.1\r\nHost: "+addr+"\r\n\r\n")
	require.NoError(t, err)
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(10*time.Second)))
	r := bufio.NewReader(conn)
	resp, err := http.ReadResponse(r, nil)
	require.NoError(t, err)
	require.Equal(t, 200, resp.StatusCode)
	_, err = io.ReadFull(resp.Body, make([]byte, n))
	require.NoError(t, err)
	return conn
}

func TestRemuxEndsWhenTheViewerLeaves(t *testing.T) {
	t.Parallel()
	exectest.Require(t, "ffmpeg", "ffmpeg", "ffprobe")
	la := newLibAppEnv(t, nil, map[string]string{"MEDIATEKA_MEDIA__MAX_REMUXES": "1"})
	// Grainy frames make a file far larger than socket buffers, so ffmpeg
	// is still writing when the viewer leaves.
	file := la.place(t, "Big (2020)/Big.2020.mkv", exectest.Video{Name: "big.mkv", Seconds: 30, Size: "320x240", Rate: 25,
		Noise: true, Audio: []exectest.Track{{Codec: "ac3"}}})
	la.scan(t)
	pa := &playApp{libApp: la}
	id := la.idOf(t, "Big (2020)/Big.2020.mkv")
	addr, stop := runOnLoopback(t, la.testApp)
	defer func() { require.NoError(t, stop()) }()
	url := pa.play(t, id, la.user)["stream_url"].(string)

	conn := openStream(t, addr, url, 256<<10)
	assert.Equal(t, 1, la.playback.RunningRemuxes())
	pids := ffmpegsReading(t, file)
	require.Len(t, pids, 1, "one ffmpeg makes the stream")

	// Over the limit: refused after a short wait, with a time to retry.
	begin := time.Now()
	resp, err := http.Get("http://" + addr + url + "&audio=0")
	require.NoError(t, err)
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Equal(t, 503, resp.StatusCode)
	assert.Equal(t, "remux_busy", errCodeOf(raw))
	assert.Equal(t, "5", resp.Header.Get("Retry-After"))
	assert.Less(t, time.Since(begin), 5*time.Second)

	require.NoError(t, conn.Close())
	require.Eventually(t, func() bool { return la.playback.RunningRemuxes() == 0 }, 2*time.Second, 10*time.Millisecond,
		"the remux ends within moments of the viewer leaving")
	assert.Empty(t, ffmpegsReading(t, file), "no ffmpeg is left behind")

	// The slot is free again: the next viewer gets a stream.
	openStream(t, addr, url+"&start=10", 64<<10).Close()
	require.Eventually(t, func() bool { return la.playback.RunningRemuxes() == 0 }, 2*time.Second, 10*time.Millisecond)
}
