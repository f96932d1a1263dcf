package qbittorrent

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/repository/qbittorrent/qbittest"
	"mediateka/usecase/torrent/torrenttest"
)

// TestMovedFilesAreMissingThenFoundAgain is relocation done by hand: a
// complete torrent whose file is moved while qBittorrent is down comes
// back as missingFiles; setting its location to the new folder and
// rechecking makes it complete again. The restart also ends the client's
// session, which it renews by itself.
func TestMovedFilesAreMissingThenFoundAgain(t *testing.T) {
	d := qbittest.Start(t)
	c := connect(t, d)
	ctx := context.Background()
	from, to := t.TempDir(), t.TempDir()
	content := make([]byte, 50_000)
	require.NoError(t, os.WriteFile(filepath.Join(from, "Film.mkv"), content, 0o644))
	file, hash := torrenttest.SingleFile("Film.mkv", content)
	require.NoError(t, c.Add(ctx, domain.TorrentAdd{File: file, SavePath: from}))
	waitState(t, c, hash, domain.TorrentSeeding, "the data on disk is checked: it seeds")

	d.Stop()
	require.NoError(t, os.Rename(filepath.Join(from, "Film.mkv"), filepath.Join(to, "Film.mkv")))
	d.Restart(t)
	got := waitState(t, c, hash, domain.TorrentMissingFiles, "its file is gone")
	assert.Equal(t, "missingFiles", got.ClientState)

	files, err := c.Files(ctx, hash)
	require.NoError(t, err)
	assert.Equal(t, []domain.TorrentFile{{Name: "Film.mkv", Size: 50_000, Progress: 0}}, files)
	require.NoError(t, c.SetLocation(ctx, to, hash))
	require.NoError(t, c.Recheck(ctx, hash))
	got = waitState(t, c, hash, domain.TorrentSeeding, "found where it was moved to")
	assert.Equal(t, to, filepath.Clean(got.SavePath))
	assert.True(t, got.Finished())
}

func waitState(t *testing.T, c *Client, hash string, want domain.TorrentState, why string) domain.Torrent {
	t.Helper()
	var last domain.Torrent
	require.Eventually(t, func() bool {
		ts, err := c.List(context.Background(), hash)
		if err != nil || len(ts) != 1 {
			return false
		}
		last = ts[0]
		return last.State == want
	}, 10*time.Second, 50*time.Millisecond, "%s: want %s, last %+v", why, want, last)
	return last
}
