package torrent_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/repository/localfs"
	"mediateka/repository/qbittorrent"
	"mediateka/repository/qbittorrent/qbittest"
	"mediateka/usecase/torrent"
	"mediateka/usecase/torrent/torrenttest"
)

// movedLibrary is a library folder and three finished torrents whose data
// was moved (two into the library, one deleted) while the client was down,
// so the client shows all three as missing files.
type movedLibrary struct {
	client              *qbittorrent.Client
	lib                 string
	film, show, gone    string // info-hashes
	filmDir, showParent string // where their data is now
}

func write(t *testing.T, p string, content []byte) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(t, os.WriteFile(p, content, 0o644))
}

func bytesOf(n int, b byte) []byte {
	out := make([]byte, n)
	for i := range out {
		out[i] = b + byte(i%7)
	}
	return out
}

func newMovedLibrary(t *testing.T) movedLibrary {
	d := qbittest.Start(t)
	c, err := qbittorrent.New(qbittorrent.Config{URL: d.URL, Username: d.Username, Password: d.Password})
	require.NoError(t, err)
	t.Cleanup(c.Close)
	ctx := context.Background()
	from, lib, outside := t.TempDir(), t.TempDir(), t.TempDir()
	m := movedLibrary{client: c, lib: lib, filmDir: filepath.Join(lib, "Фильмы"), showParent: filepath.Join(lib, "Сериалы")}

	film := bytesOf(40_000, 1)
	show := map[string][]byte{"e01.mkv": bytesOf(30_000, 2), "subs/e01.srt": bytesOf(500, 3)}
	gone := bytesOf(20_000, 4)
	write(t, filepath.Join(from, "Film.2019.mkv"), film)
	for p, b := range show {
		write(t, filepath.Join(from, "Show", p), b)
	}
	write(t, filepath.Join(from, "Gone.mkv"), gone)
	var files [3][]byte
	files[0], m.film = torrenttest.SingleFile("Film.2019.mkv", film)
	files[1], m.show = torrenttest.MultiFile("Show", show)
	files[2], m.gone = torrenttest.SingleFile("Gone.mkv", gone)
	for _, f := range files {
		require.NoError(t, c.Add(ctx, domain.TorrentAdd{File: f, SavePath: from}))
	}
	for _, h := range []string{m.film, m.show, m.gone} {
		waitState(t, c, h, domain.TorrentSeeding)
	}

	d.Stop()
	require.NoError(t, os.MkdirAll(m.filmDir, 0o755))
	require.NoError(t, os.Rename(filepath.Join(from, "Film.2019.mkv"), filepath.Join(m.filmDir, "Film.2019.mkv")))
	require.NoError(t, os.MkdirAll(m.showParent, 0o755))
	require.NoError(t, os.Rename(filepath.Join(from, "Show"), filepath.Join(m.showParent, "Show")))
	// Gone.mkv leaves the library: only a link inside the library leads to it.
	require.NoError(t, os.Rename(filepath.Join(from, "Gone.mkv"), filepath.Join(outside, "Gone.mkv")))
	require.NoError(t, os.Symlink(outside, filepath.Join(lib, "elsewhere")))
	// A file of the same name but another size is not the film.
	write(t, filepath.Join(lib, "Другое", "Film.2019.mkv"), bytesOf(39_999, 1))
	d.Restart(t)
	for _, h := range []string{m.film, m.show, m.gone} {
		waitState(t, c, h, domain.TorrentMissingFiles)
	}
	return m
}

func (m movedLibrary) service(inline int) *torrent.Service {
	return torrent.New(m.client, nil, torrent.Options{FS: localfs.FS{}, RelocateInline: inline,
		Roots: func() []domain.Root { return []domain.Root{{Path: m.lib, Disk: "Disk 1"}} }})
}

func TestRelocateFindsMovedFilesByNameAndSize(t *testing.T) {
	m := newMovedLibrary(t)
	ctx := context.Background()
	svc := m.service(5)

	for dir, code := range map[string]string{"/etc": "path_outside_roots", "films": "path_not_absolute",
		filepath.Join(m.lib, "elsewhere"): "path_outside_roots", filepath.Join(m.lib, "nothing"): "path_not_found"} {
		_, err := svc.Relocate(ctx, []string{m.filmDir, dir})
		var de *domain.Error
		require.ErrorAs(t, err, &de, dir)
		assert.Equal(t, code, de.Code, dir)
		assert.Equal(t, domain.KindInvalid, de.Kind, dir)
	}
	for _, h := range []string{m.film, m.show} {
		ts, err := m.client.List(ctx, h)
		require.NoError(t, err)
		assert.Equal(t, domain.TorrentMissingFiles, ts[0].State, "a refused request changed nothing")
	}

	out, err := svc.Relocate(ctx, nil)
	require.NoError(t, err)
	assert.Empty(t, out.JobID, "three torrents are handled within the request")
	assert.ElementsMatch(t, []torrent.Relocated{{Hash: m.film, Name: "Film.2019.mkv", To: m.filmDir},
		{Hash: m.show, Name: "Show", To: m.showParent}}, out.Result.Relocated)
	assert.Equal(t, []torrent.NotFound{{Hash: m.gone, Name: "Gone.mkv"}}, out.Result.NotFound,
		"the link out of the library is not followed")
	assert.False(t, out.Result.Truncated)
	for h, dir := range map[string]string{m.film: m.filmDir, m.show: m.showParent} {
		got := waitState(t, m.client, h, domain.TorrentSeeding)
		assert.Equal(t, dir, filepath.Clean(got.SavePath), "rechecked complete where it was found")
	}

	job := m.service(0)
	out, err = job.Relocate(ctx, nil)
	require.NoError(t, err)
	assert.NotEmpty(t, out.JobID, "more than RelocateInline torrents: a background job")
	assert.Equal(t, 1, out.Total)
	require.Eventually(t, func() bool { return job.RelocateStatus().State != domain.JobRunning }, 10*time.Second, 20*time.Millisecond)
	st := job.RelocateStatus()
	assert.Equal(t, domain.JobCompleted, st.State)
	assert.Equal(t, out.JobID, st.ID)
	assert.Equal(t, 1, st.Checked)
	assert.Equal(t, []torrent.NotFound{{Hash: m.gone, Name: "Gone.mkv"}}, st.Result.NotFound)
	assert.Empty(t, st.Result.Relocated)
}

func waitState(t *testing.T, c *qbittorrent.Client, hash string, want domain.TorrentState) domain.Torrent {
	t.Helper()
	var last domain.Torrent
	var err error
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		var ts []domain.Torrent
		if ts, err = c.List(context.Background(), hash); err == nil && len(ts) == 1 {
			if last = ts[0]; last.State == want {
				return last
			}
		}
	}
	t.Fatalf("torrent %s: want %s, last %+v (err %v)", hash, want, last, err)
	return last
}
