package torrent

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/repository/localfs"
)

func wantOf(files ...domain.TorrentFile) wantedFiles {
	w := wantedFiles{keys: map[fileKey]bool{}, names: map[string]bool{}}
	w.want(files)
	return w
}

func TestWalkSurvivesLinkLoopsAndFollowsLinksInside(t *testing.T) {
	t.Parallel()
	lib := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(lib, "a", "b"), 0o755))
	require.NoError(t, os.Symlink(filepath.Join(lib, "a"), filepath.Join(lib, "a", "b", "loop")))
	require.NoError(t, os.WriteFile(filepath.Join(lib, "a", "real.mkv"), []byte("12345"), 0o644))
	require.NoError(t, os.Symlink(filepath.Join(lib, "a", "real.mkv"), filepath.Join(lib, "film.mkv")))

	want := wantOf(domain.TorrentFile{Name: "film.mkv", Size: 5}, domain.TorrentFile{Name: "real.mkv", Size: 5})
	found, truncated, err := walkFor(context.Background(), localfs.FS{}, []string{lib}, want)
	require.NoError(t, err)
	assert.False(t, truncated)
	dir, ok := found.locate([]domain.TorrentFile{{Name: "film.mkv", Size: 5}})
	assert.True(t, ok, "a link to a file inside the folder counts")
	assert.Equal(t, lib, dir)
	assert.Equal(t, []string{filepath.Join(lib, "a", "real.mkv"), filepath.Join(lib, "a", "b", "loop", "real.mkv")},
		found.byKey[fileKey{"real.mkv", 5}], "the loop is walked once, not forever")
}

func TestWalkStopsAtItsDepth(t *testing.T) {
	t.Parallel()
	lib := t.TempDir()
	deep := filepath.Join(append([]string{lib}, strings.Split(strings.Repeat("d/", maxWalkDepth+2), "/")...)...)
	require.NoError(t, os.MkdirAll(deep, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(deep, "x.mkv"), []byte("1"), 0o644))
	found, truncated, err := walkFor(context.Background(), localfs.FS{}, []string{lib}, wantOf(domain.TorrentFile{Name: "x.mkv", Size: 1}))
	require.NoError(t, err)
	assert.True(t, truncated)
	assert.Empty(t, found.sizes)
}

func TestLocateNeedsEveryFileAtItsPlace(t *testing.T) {
	t.Parallel()
	files := []domain.TorrentFile{{Name: "Show/e01.mkv", Size: 10}, {Name: "Show/subs/e01.srt", Size: 2},
		{Name: "Show/extra.nfo", Size: 3, Skipped: true}, {Name: "Show/empty.txt", Size: 0}}
	found := foundFiles{sizes: map[string]int64{
		"/x/Show/e01.mkv": 10, "/lib/Show/e01.mkv": 10, "/lib/Show/subs/e01.srt": 2, "/y/e01.mkv": 10,
	}, byKey: map[fileKey][]string{{"e01.mkv", 10}: {"/y/e01.mkv", "/x/Show/e01.mkv", "/lib/Show/e01.mkv"}}}
	dir, ok := found.locate(files)
	assert.True(t, ok)
	assert.Equal(t, "/lib", dir, "/x lacks the subtitles; /y is not in a Show folder; skipped and empty files need not exist")
	_, ok = found.locate([]domain.TorrentFile{{Name: "other.mkv", Size: 10}})
	assert.False(t, ok)
}
