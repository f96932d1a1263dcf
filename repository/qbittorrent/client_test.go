package qbittorrent

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/repository/qbittorrent/qbittest"
)

// magnet is a paused magnet of a made-up info-hash: with DHT off and no
// trackers the daemon never finds it, so it stays as added.
const (
	magnetHash = "0123456789abcdef0123456789abcdef01234567"
	magnet     = "magnet:?xt=urn:btih:" + magnetHash + "&dn=Some.Film.2019.1080p"
)

func connect(t *testing.T, d *qbittest.Daemon) *Client {
	t.Helper()
	c, err := New(Config{URL: d.URL, Username: d.Username, Password: d.Password})
	require.NoError(t, err)
	t.Cleanup(c.Close)
	return c
}

// tinyTorrent is a hand-written single-file .torrent (3 bytes "abc")
// whose info-hash is what qBittorrent reports for it.
func tinyTorrent() (file []byte, hash string) {
	info := "d6:lengthi3e4:name9:tiny.file12:piece lengthi16384e6:pieces20:" + strings.Repeat("\x01", 20) + "e"
	sum := sha1.Sum([]byte(info))
	return []byte("d4:info" + info + "e"), hex.EncodeToString(sum[:])
}

func TestAddListAndManageAgainstRealDaemon(t *testing.T) {
	d := qbittest.Start(t)
	c := connect(t, d)
	ctx := context.Background()

	v, err := c.Version(ctx)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(v, "v"), v)

	films := filepath.Join(t.TempDir(), "films")
	require.NoError(t, c.Add(ctx, domain.TorrentAdd{URL: magnet, Category: "films", SavePath: films, Paused: true}))
	got := waitFor(t, c, magnetHash)
	assert.Equal(t, domain.TorrentPaused, got.State, "a paused magnet is Paused, raw %s", got.ClientState)
	assert.Contains(t, []string{"pausedDL", "stoppedDL"}, got.ClientState)
	assert.Equal(t, "films", got.Category)
	assert.Equal(t, films, filepath.Clean(got.SavePath))
	assert.WithinDuration(t, time.Now(), got.AddedOn, time.Minute)

	err = c.Add(ctx, domain.TorrentAdd{URL: magnet, Paused: true})
	assert.ErrorIs(t, err, domain.ErrTorrentRefused, "a duplicate is refused")

	file, hash := tinyTorrent()
	require.NoError(t, c.Add(ctx, domain.TorrentAdd{File: file, Paused: true}))
	tiny := waitFor(t, c, hash)
	assert.Equal(t, "tiny.file", tiny.Name)
	assert.Equal(t, int64(3), tiny.Size)
	all, err := c.List(ctx)
	require.NoError(t, err)
	assert.Len(t, all, 2)
	assert.ErrorIs(t, c.Add(ctx, domain.TorrentAdd{File: []byte("not bencode"), Paused: true}), domain.ErrTorrentRefused)
}

func TestCategoryLocationFilesAgainstRealDaemon(t *testing.T) {
	d := qbittest.Start(t)
	c := connect(t, d)
	ctx := context.Background()
	require.NoError(t, c.Add(ctx, domain.TorrentAdd{URL: magnet, Paused: true}))
	waitFor(t, c, magnetHash)

	assert.True(t, domain.IsKind(c.SetCategory(ctx, "nope", magnetHash), domain.KindConflict), "an unknown category is a conflict")
	require.NoError(t, c.CreateCategory(ctx, "series", ""))
	require.NoError(t, c.CreateCategory(ctx, "series", ""), "creating it again is fine")
	require.NoError(t, c.SetCategory(ctx, "series", magnetHash))

	moved := filepath.Join(t.TempDir(), "moved")
	require.NoError(t, os.MkdirAll(moved, 0o755))
	require.NoError(t, c.SetLocation(ctx, moved, magnetHash))
	require.NoError(t, c.Recheck(ctx, magnetHash))
	assert.Eventually(t, func() bool {
		ts, err := c.List(ctx, magnetHash)
		return err == nil && len(ts) == 1 && ts[0].Category == "series" && filepath.Clean(ts[0].SavePath) == moved
	}, 5*time.Second, 50*time.Millisecond)

	files, err := c.Files(ctx, magnetHash)
	require.NoError(t, err)
	assert.Empty(t, files, "a magnet without metadata has no files yet")
	_, err = c.Files(ctx, strings.Repeat("e", 40))
	assert.True(t, domain.IsKind(err, domain.KindNotFound), "%v", err)
}

func TestPauseResumeFallsBackToFourXAndRemembers(t *testing.T) {
	d := qbittest.Start(t)
	c := connect(t, d)
	ctx := context.Background()
	require.NoError(t, c.Add(ctx, domain.TorrentAdd{URL: magnet, Paused: true}))
	waitFor(t, c, magnetHash)

	require.NoError(t, c.Resume(ctx, magnetHash))
	assert.True(t, c.legacy.Load(), "4.5.2 answered 404 to start: remembered as 4.x")
	assert.Eventually(t, func() bool { return stateOf(c, magnetHash) != domain.TorrentPaused }, 5*time.Second, 50*time.Millisecond)
	require.NoError(t, c.Pause(ctx, magnetHash))
	assert.Eventually(t, func() bool { return stateOf(c, magnetHash) == domain.TorrentPaused }, 5*time.Second, 50*time.Millisecond)
}

func TestLogsInAgainWhenTheSessionIsGone(t *testing.T) {
	d := qbittest.Start(t)
	c := connect(t, d)
	ctx := context.Background()
	_, err := c.List(ctx)
	require.NoError(t, err)
	require.Equal(t, uint64(1), c.session.Load())

	_, err = c.send(ctx, postForm("auth/logout", nil)) // the server forgets the session
	require.NoError(t, err)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			_, err := c.List(ctx)
			assert.NoError(t, err)
		})
	}
	wg.Wait()
	assert.Equal(t, uint64(2), c.session.Load(), "four calls that met a 403 logged in once")
}

func TestWrongPasswordIsUnavailable(t *testing.T) {
	d := qbittest.Start(t)
	c, err := New(Config{URL: d.URL, Username: d.Username, Password: "wrong"})
	require.NoError(t, err)
	_, err = c.List(context.Background())
	assert.ErrorIs(t, err, domain.ErrTorrentClientUnavailable)
	assert.NotContains(t, err.Error(), d.Password)
	assert.NotContains(t, err.Error(), "wrong", "the password tried is not in the error")
}

func TestStoppedDaemonIsUnavailableWithinThreeSeconds(t *testing.T) {
	d := qbittest.Start(t)
	c := connect(t, d)
	_, err := c.List(context.Background())
	require.NoError(t, err)
	d.Stop()
	start := time.Now()
	_, err = c.List(context.Background())
	assert.ErrorIs(t, err, domain.ErrTorrentClientUnavailable)
	assert.Less(t, time.Since(start), 3*time.Second)
}

func TestSilentListenerIsUnavailableWithinThreeSeconds(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	var conns sync.WaitGroup
	stop := make(chan struct{})
	conns.Go(func() { // accept, read nothing, answer nothing
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			conns.Go(func() { <-stop; _ = conn.Close() })
		}
	})
	t.Cleanup(func() { close(stop); _ = ln.Close(); conns.Wait() })

	c, err := New(Config{URL: "http://" + ln.Addr().String(), Username: "u", Password: "p"})
	require.NoError(t, err)
	start := time.Now()
	_, err = c.List(context.Background())
	assert.ErrorIs(t, err, domain.ErrTorrentClientUnavailable)
	assert.Less(t, time.Since(start), 3*time.Second+500*time.Millisecond)
	assert.GreaterOrEqual(t, time.Since(start), 2*time.Second, "it waited for the deadline, not a quick failure")
}

// TestFiveXVerbsAreTriedFirst speaks qBittorrent 5.x's dialect (stop and
// start, JSON answers to add), which Debian's 4.5.2 cannot show.
func TestFiveXVerbsAreTriedFirst(t *testing.T) {
	var mu sync.Mutex
	var paths []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		paths = append(paths, r.URL.Path)
		mu.Unlock()
		switch r.URL.Path {
		case "/api/v2/auth/login":
			http.SetCookie(w, &http.Cookie{Name: "SID", Value: "s"})
			_, _ = w.Write([]byte("Ok."))
		case "/api/v2/torrents/stop", "/api/v2/torrents/start":
		case "/api/v2/torrents/add":
			_, _ = w.Write([]byte(`{"added_torrent_ids":[],"failure_count":1,"pending_count":0,"success_count":0}`))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	c, err := New(Config{URL: srv.URL})
	require.NoError(t, err)
	ctx := context.Background()
	require.NoError(t, c.Pause(ctx, magnetHash))
	require.NoError(t, c.Resume(ctx, magnetHash))
	assert.False(t, c.legacy.Load())
	assert.Equal(t, []string{"/api/v2/auth/login", "/api/v2/torrents/stop", "/api/v2/torrents/start"}, paths)
	assert.ErrorIs(t, c.Add(ctx, domain.TorrentAdd{URL: magnet}), domain.ErrTorrentRefused)
}

func TestAddAnswers(t *testing.T) {
	for body, ok := range map[string]bool{
		"Ok.": true, "Fails.": false, "": true, "<html>": false,
		`{"added_torrent_ids":["ab"],"failure_count":0,"pending_count":0,"success_count":1}`: true,
		`{"added_torrent_ids":[],"failure_count":0,"pending_count":1,"success_count":0}`:     true,
		`{"added_torrent_ids":[],"failure_count":1,"pending_count":0,"success_count":0}`:     false,
	} {
		assert.Equal(t, ok, addAccepted([]byte(body)), body)
	}
}

func TestNewRefusesANonHTTPURL(t *testing.T) {
	for _, u := range []string{"", "ftp://host", "127.0.0.1:8080", "http://"} {
		_, err := New(Config{URL: u})
		assert.Error(t, err, u)
	}
}

func waitFor(t *testing.T, c *Client, hash string) domain.Torrent {
	t.Helper()
	var got []domain.Torrent
	require.Eventually(t, func() bool {
		var err error
		got, err = c.List(context.Background(), hash)
		return err == nil && len(got) == 1
	}, 5*time.Second, 50*time.Millisecond)
	return got[0]
}

func stateOf(c *Client, hash string) domain.TorrentState {
	ts, err := c.List(context.Background(), hash)
	if err != nil || len(ts) != 1 {
		return ""
	}
	return ts[0].State
}
