package catalog_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/encoding/charmap"

	"mediateka/domain"
	"mediateka/usecase/catalog"
)

func write(t *testing.T, path string, body []byte) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, body, 0o644))
}

func TestSubtitlesBesideTheVideo(t *testing.T) {
	e := newEnv(t)
	dir := filepath.Join(e.dir, "Heat (1995)")
	video := filepath.Join(dir, "Heat.1995.mkv")
	write(t, video, []byte("v"))
	write(t, filepath.Join(dir, "Heat.1995.ru.srt"), []byte("1\n00:00:01,000 --> 00:00:02,500\nПривет\n"))
	write(t, filepath.Join(dir, "Heat.1995.en.forced.vtt"), []byte("WEBVTT\n\n00:01.000 --> 00:02.000\nHi\n"))
	write(t, filepath.Join(dir, "Subs", "2_Eng.srt"), []byte("1\n00:00:01,000 --> 00:00:02,000\nHi\n"))
	write(t, filepath.Join(dir, "Other.srt"), []byte("x"))
	ids := e.add(rec{path: video, title: "Heat", typ: "movie"}, rec{path: "/s", title: "S", typ: "series"})
	ctx := context.Background()

	subs, err := e.svc.Subtitles(ctx, ids[video])
	require.NoError(t, err)
	require.Len(t, subs, 3)
	assert.Equal(t, catalog.Subtitle{Index: 0, Language: "en", Label: "English", Path: filepath.Join(dir, "Subs", "2_Eng.srt")}, subs[0])
	assert.Equal(t, "en", subs[1].Language)
	assert.Equal(t, "English (forced)", subs[1].Label)
	assert.Equal(t, "ru", subs[2].Language)
	assert.Equal(t, "Русский", subs[2].Label)

	vtt, err := e.svc.SubtitleVTT(ctx, ids[video], 2)
	require.NoError(t, err)
	assert.Equal(t, "WEBVTT\n\n1\n00:00:01.000 --> 00:00:02.500\nПривет\n\n", string(vtt))
	_, err = e.svc.SubtitleVTT(ctx, ids[video], 3)
	assert.ErrorIs(t, err, domain.ErrSubtitleMissing)
	_, err = e.svc.Subtitles(ctx, ids["/s"])
	assert.ErrorIs(t, err, domain.ErrNoFile)
}

func TestToWebVTT(t *testing.T) {
	cp1251, err := charmap.Windows1251.NewEncoder().Bytes([]byte("1\r\n00:00:01,5 --> 0:00:02,25 X1:10 X2:20\r\n{\\an8}Привет, мир\r\n"))
	require.NoError(t, err)
	assert.Equal(t, "WEBVTT\n\n1\n00:00:01.500 --> 00:00:02.250\nПривет, мир\n\n", string(catalog.ToWebVTT(cp1251)))

	bom := append([]byte{0xEF, 0xBB, 0xBF}, []byte("WEBVTT\r\n\r\n00:01.000 --> 00:02.000\r\nHi")...)
	assert.Equal(t, "WEBVTT\n\n00:01.000 --> 00:02.000\nHi", string(catalog.ToWebVTT(bom)))

	utf16 := []byte{0xFF, 0xFE, '1', 0, '\n', 0, 0x1F, 0x04, '\n', 0}
	assert.Equal(t, "WEBVTT\n\n1\nП\n\n", string(catalog.ToWebVTT(utf16)))
	assert.Equal(t, "WEBVTT\n\n\n", string(catalog.ToWebVTT(nil)))
}

// TestSubtitleLinkLeavingTheRootsIsNotServed puts real symbolic links
// beside a video: one to a subtitle elsewhere in the library is served,
// one to a file outside every library folder is neither listed nor read.
func TestSubtitleLinkLeavingTheRootsIsNotServed(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	write(t, filepath.Join(outside, "secret.srt"), []byte("1\n00:00:01,000 --> 00:00:02,000\nsecret\n"))
	dir := filepath.Join(root, "Heat (1995)")
	video := filepath.Join(dir, "Heat.1995.mkv")
	write(t, video, []byte("v"))
	write(t, filepath.Join(root, "shared", "heat.srt"), []byte("1\n00:00:01,000 --> 00:00:02,000\nin the library\n"))
	require.NoError(t, os.Symlink(filepath.Join(outside, "secret.srt"), filepath.Join(dir, "Heat.1995.en.srt")))
	require.NoError(t, os.Symlink(filepath.Join(root, "shared", "heat.srt"), filepath.Join(dir, "Heat.1995.ru.srt")))
	require.NoError(t, os.Symlink(outside, filepath.Join(dir, "Subs")))

	for name, roots := range map[string]func() []domain.Root{
		"library roots":  func() []domain.Root { return []domain.Root{{Path: root, Disk: "Disk"}} },
		"no roots known": nil,
	} {
		t.Run(name, func(t *testing.T) {
			e := newEnvWith(t, catalog.Options{Roots: roots})
			id := e.add(rec{path: video, title: "Heat", typ: "movie"})[video]
			subs, err := e.svc.Subtitles(context.Background(), id)
			require.NoError(t, err)
			if name == "no roots known" {
				assert.Empty(t, subs, "without roots a link must stay in the video's folder")
				return
			}
			require.Len(t, subs, 1, "%+v", subs)
			assert.Equal(t, "ru", subs[0].Language)
			vtt, err := e.svc.SubtitleVTT(context.Background(), id, 0)
			require.NoError(t, err)
			assert.Contains(t, string(vtt), "in the library")
			_, err = e.svc.SubtitleVTT(context.Background(), id, 1)
			assert.ErrorIs(t, err, domain.ErrSubtitleMissing)
		})
	}
}
