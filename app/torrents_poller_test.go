package app

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/repository/qbittorrent"
	"mediateka/usecase/torrent/torrenttest"
)

// TestFinishedDownloadIsAnnouncedAndScanned: a download that finishes
// inside the library (its data on disk, added there and rechecked)
// becomes a torrent_completed event and a scan of its file, so the film
// appears in the catalogue by itself; a torrent finished before the
// server started is not announced.
func TestFinishedDownloadIsAnnouncedAndScanned(t *testing.T) {
	t.Parallel()
	la, c := torrentLibApp(t, map[string]string{"MEDIATEKA_TORRENT_CLIENT__POLL_INTERVAL": "100ms"})
	films := filepath.Join(la.root, "Фильмы")
	ctx := context.Background()
	oldHash := addOnDisk(t, c, films, "Old.Film.2001.mkv", false)
	waitClientState(t, c, oldHash, domain.TorrentSeeding)

	addr, stop := runOnLoopback(t, la.testApp)
	defer func() { _ = stop() }()
	resp, err := http.Get("http://" + addr + "/api/events?token=" + la.admin)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, 200, resp.StatusCode)
	events := make(chan sseEvent, 64)
	go readEvents(bufio.NewReader(resp.Body), events)

	newHash := addOnDisk(t, c, films, "New.Film.2020.mkv", true)
	waitClientState(t, c, newHash, domain.TorrentPaused)
	time.Sleep(300 * time.Millisecond) // the poller has seen it unfinished
	require.NoError(t, c.Recheck(ctx, newHash))

	got := map[string]sseEvent{}
	for _, name := range []string{"torrent_completed", "scan_started", "scan_completed"} {
		got[name] = nextEvent(t, events, name)
	}
	assert.Equal(t, newHash, got["torrent_completed"].data["hash"], "only the new download: the old one was finished before")
	assert.Equal(t, "New.Film.2020.mkv", got["torrent_completed"].data["name"])
	assert.Equal(t, films, filepath.Clean(got["torrent_completed"].data["save_path"].(string)))
	assert.Equal(t, []any{filepath.Join(films, "New.Film.2020.mkv")}, got["scan_started"].data["paths"])
	assert.Equal(t, "completed", got["scan_completed"].data["state"])
	assert.EqualValues(t, 1, got["scan_completed"].data["added"])

	_, raw := la.raw(t, "GET", "/api/media/files", la.user, nil)
	var entries []map[string]any
	require.NoError(t, json.Unmarshal(raw, &entries))
	require.Len(t, entries, 1, "%s", raw)
	assert.Equal(t, filepath.Join(films, "New.Film.2020.mkv"), entries[0]["path"])
	assert.Equal(t, "New Film", entries[0]["title"])
}

// addOnDisk writes a small film into dir and adds its torrent there.
func addOnDisk(t *testing.T, c *qbittorrent.Client, dir, name string, paused bool) string {
	t.Helper()
	content := bytes.Repeat([]byte(name), 2000)
	require.NoError(t, os.MkdirAll(dir, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, name), content, 0o644))
	file, hash := torrenttest.SingleFile(name, content)
	require.NoError(t, c.Add(context.Background(), domain.TorrentAdd{File: file, SavePath: dir, Paused: paused}))
	return hash
}

func waitClientState(t *testing.T, c *qbittorrent.Client, hash string, want domain.TorrentState) {
	t.Helper()
	require.Eventually(t, func() bool {
		ts, err := c.List(context.Background(), hash)
		return err == nil && len(ts) == 1 && ts[0].State == want
	}, 15*time.Second, 50*time.Millisecond, "torrent %s never became %s", hash, want)
}

// nextEvent waits for the next event called name, skipping others, and
// fails on another torrent_completed on the way.
func nextEvent(t *testing.T, events <-chan sseEvent, name string) sseEvent {
	t.Helper()
	for {
		select {
		case ev, ok := <-events:
			require.True(t, ok, "the stream ended early")
			if ev.name == name {
				return ev
			}
			require.NotEqual(t, "torrent_completed", ev.name, "an unexpected completion: %v", ev.data)
		case <-time.After(15 * time.Second):
			t.Fatalf("no %s event", name)
		}
	}
}
