package medialayer_test

import (
	"context"
	"encoding/json"
	"mediateka/repository/exectest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gorm.io/driver/sqlite"
	"gorm.io/gorm"

	"mediateka/domain"
	"mediateka/plugins"
	"mediateka/plugins/medialayer"
	"mediateka/repository/ffprobe"
	"mediateka/repository/sqlstore"
	"mediateka/repository/sqlstore/sqlstoretest"
)

func openStore(t *testing.T) *sqlstoretest.DB {
	t.Helper()
	return sqlstoretest.New(t, nil)
}

// rawDB is a GORM handle of its own on the test database, for the SQL
// stand-in below.
func rawDB(t *testing.T, db *sqlstoretest.DB) *gorm.DB {
	t.Helper()
	g, err := gorm.Open(sqlite.Open("file:"+db.Path+"?_busy_timeout=10000"), &gorm.Config{})
	require.NoError(t, err)
	t.Cleanup(func() {
		if d, err := g.DB(); err == nil {
			_ = d.Close()
		}
	})
	return g
}

// sqlCatalog searches the real media table with LIKE; Cyrillic terms are
// also tried capitalised, since SQLite folds only ASCII case. The media
// catalogue use case will provide the real search.
type sqlCatalog struct{ s *gorm.DB }

func (c sqlCatalog) SearchTitles(ctx context.Context, q string, limit int) ([]domain.Media, error) {
	r := []rune(q)
	capital := string(unicode.ToUpper(r[0])) + string(r[1:])
	var rows []struct {
		ID                                         int64
		Path, Title, TitleRu, TitleOrig, MediaType string
		Year                                       *int
	}
	err := c.s.WithContext(ctx).Raw(`SELECT id, path, coalesce(title,'') title, coalesce(title_ru,'') title_ru,
		coalesce(title_orig,'') title_orig, media_type, year FROM media
		WHERE title LIKE ? OR title_orig LIKE ? OR title LIKE ? LIMIT ?`, "%"+q+"%", "%"+q+"%", "%"+capital+"%", limit).Scan(&rows).Error
	out := make([]domain.Media, len(rows))
	for i, x := range rows {
		out[i] = domain.Media{ID: x.ID, Path: x.Path, Title: x.Title, TitleRu: x.TitleRu, TitleOrig: x.TitleOrig, MediaType: x.MediaType, Year: x.Year}
	}
	return out, err
}

func newPlugin(t *testing.T, d medialayer.Deps, config string) *medialayer.Plugin {
	t.Helper()
	p := medialayer.New(d)
	require.NoError(t, p.Configure(json.RawMessage(config)))
	ok, err := p.Setup(context.Background())
	require.NoError(t, err)
	require.True(t, ok)
	return p
}

func say(t *testing.T, p *medialayer.Plugin, msg string) string {
	t.Helper()
	out, err := p.Handle(context.Background(), msg)
	require.NoError(t, err)
	return out
}

func TestConfigIsValidatedAndInvalidMeansNotLoaded(t *testing.T) {
	for _, bad := range []string{
		`{"subtitles": {"size": 7}}`, `{"subtitles": {"size": 73}}`, `{"subtitles": {"color": "red"}}`,
		`{"subtitles": {"color": "#fff"}}`, `{"subtitles": {"enabled": "yes"}}`, `{"subtitles": []}`,
	} {
		assert.Error(t, medialayer.New(medialayer.Deps{}).Configure(json.RawMessage(bad)), bad)
	}
	p := medialayer.New(medialayer.Deps{})
	require.NoError(t, p.Configure(json.RawMessage(`{}`)))
	assert.Equal(t, medialayer.Subtitles{Size: 24, Color: "#ffffff"}, p.Preferences())
	require.NoError(t, p.Configure(json.RawMessage(`{"subtitles": {"enabled": true, "size": 72, "color": "#00FF00"}}`)))
	assert.Equal(t, medialayer.Subtitles{Enabled: true, Size: 72, Color: "#00FF00"}, p.Preferences())

	// Through the manager: the reason shows in the plugin's status.
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "media_layer"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "media_layer", "config.json"), []byte(`{"subtitles": {"size": 100}}`), 0o644))
	m := plugins.NewManager(plugins.Builtins(), plugins.Deps{}, plugins.Options{ConfigDir: dir})
	m.Load(context.Background())
	st, err := m.Get("media_layer")
	require.NoError(t, err)
	assert.False(t, st.Loaded)
	assert.Contains(t, st.LastError, "subtitles.size 100 must be between 8 and 72")
}

func TestSubtitleCommandsAreAppliedAndSaved(t *testing.T) {
	store := openStore(t)
	settings := sqlstore.NewSettings(store.Store)
	p := newPlugin(t, medialayer.Deps{Settings: settings}, `{"subtitles": {"size": 30, "color": "#ffffff"}}`)

	assert.Equal(t, "Готово. Субтитры включены, размер 30, цвет #ffffff.", say(t, p, "Включи субтитры"))
	assert.Equal(t, "Done. Subtitles are on, size 24, colour #ffffff.", say(t, p, "subtitles size 24"))
	assert.Equal(t, "Субтитры включены, размер 24, цвет #ffffff.", say(t, p, "какие настройки субтитров?"))
	assert.Contains(t, say(t, p, "размер субтитров 100"), "должен быть от 8 до 72")
	assert.Equal(t, 24, p.Preferences().Size, "an out-of-range size changes nothing")
	assert.Contains(t, say(t, p, "сделай цвет субтитров жёлтым"), "цвет #ffff00")
	assert.Contains(t, say(t, p, "subtitles colour #FFCC00"), "colour #ffcc00")
	assert.Contains(t, say(t, p, "субтитры крупнее"), "размер 28")
	assert.Contains(t, say(t, p, "turn off subtitles"), "Subtitles are off")
	assert.Contains(t, say(t, p, "выключи субтитры"), "Субтитры выключены")

	saved, err := settings.Get(context.Background(), medialayer.SettingKey)
	require.NoError(t, err)
	assert.JSONEq(t, `{"enabled": false, "size": 28, "color": "#ffcc00"}`, saved.Value)

	// A restart: config.json says size 30, the saved preferences win.
	p2 := newPlugin(t, medialayer.Deps{Settings: settings}, `{"subtitles": {"size": 30}}`)
	assert.Equal(t, medialayer.Subtitles{Size: 28, Color: "#ffcc00"}, p2.Preferences())
	assert.Contains(t, say(t, p2, "reset subtitles"), "size 30")
	_, err = settings.Get(context.Background(), medialayer.SettingKey)
	assert.True(t, domain.IsKind(err, domain.KindNotFound), "reset forgets the saved preferences")
}

func TestOtherMessagesPass(t *testing.T) {
	p := newPlugin(t, medialayer.Deps{}, `{}`)
	for _, msg := range []string{"привет", "найди фильм с субтитрами", "включи Матрицу", "do I have The Matrix", "what is on tonight"} {
		assert.Empty(t, say(t, p, msg), msg)
	}
}

// makeMKV builds a small Matroska file with a Russian 5.1 dub (default), an
// English stereo track and English subtitles, using the real ffmpeg.
func makeMKV(t *testing.T) string {
	t.Helper()
	exectest.Require(t, "ffmpeg", "ffmpeg", "ffprobe")
	dir := t.TempDir()
	srt := filepath.Join(dir, "en.srt")
	require.NoError(t, os.WriteFile(srt, []byte("1\n00:00:00,000 --> 00:00:01,000\nHello\n"), 0o644))
	out := filepath.Join(dir, "Matrix.1999.mkv")
	raw, err := exec.Command("ffmpeg", "-v", "error", "-y",
		"-f", "lavfi", "-i", "testsrc=duration=1:size=160x120:rate=10",
		"-f", "lavfi", "-i", "sine=duration=1", "-f", "lavfi", "-i", "sine=frequency=880:duration=1", "-i", srt,
		"-map", "0:v", "-map", "1:a", "-map", "2:a", "-map", "3:s",
		"-c:v", "libx264", "-c:a:0", "ac3", "-ac:a:0", "6", "-c:a:1", "aac", "-ac:a:1", "2", "-c:s", "srt",
		"-metadata:s:a:0", "language=rus", "-metadata:s:a:0", "title=Дубляж", "-metadata:s:a:1", "language=eng",
		"-metadata:s:s:0", "language=eng", "-disposition:a:0", "default", "-disposition:a:1", "0", "-shortest", out).CombinedOutput()
	require.NoError(t, err, string(raw))
	return out
}

func TestAudioTracksOfACatalogueTitle(t *testing.T) {
	file := makeMKV(t)
	store := openStore(t)
	require.NoError(t, rawDB(t, store).Exec(`INSERT INTO media (disk_name, path, title, title_orig, year, media_type) VALUES
		('d', ?, 'Матрица', 'The Matrix', 1999, 'movie'), ('d', '/series/Dark', 'Тьма', 'Dark', 2017, 'series')`, file).Error)
	prober, err := ffprobe.New("", 0)
	require.NoError(t, err)
	p := newPlugin(t, medialayer.Deps{Catalog: sqlCatalog{rawDB(t, store)}, Prober: prober}, `{}`)

	assert.Equal(t, "Звуковые дорожки «Матрица (1999)» (2):\n"+
		"1. русский — «Дубляж», ac3, каналов: 6, по умолчанию\n"+
		"2. английский, aac, каналов: 2", say(t, p, "Какие звуковые дорожки у Матрицы?"))
	assert.Equal(t, "Audio tracks of “Матрица (1999)” (2):\n"+
		"1. Russian — «Дубляж», ac3, 6 channels, default\n"+
		"2. English, aac, 2 channels", say(t, p, "What audio tracks does The Matrix have?"))
	assert.Equal(t, "Встроенные субтитры «Матрица (1999)» (1):\n1. английский, subrip", say(t, p, "какие субтитры есть у фильма Матрица"))
	assert.Equal(t, "«титаника» в каталоге не нашлось.", say(t, p, "какие звуковые дорожки у Титаника"))
	assert.Contains(t, say(t, p, "audio tracks of Dark"), "is a series or a season")

	noProbe := newPlugin(t, medialayer.Deps{Catalog: sqlCatalog{rawDB(t, store)}}, `{}`)
	assert.Contains(t, say(t, noProbe, "какие звуковые дорожки у Матрицы"), "нужен ffprobe (пакет ffmpeg)")
}

func TestTracksWithoutACatalogueSaySo(t *testing.T) {
	p := newPlugin(t, medialayer.Deps{}, `{}`)
	out := say(t, p, "какие звуковые дорожки у Матрицы")
	assert.True(t, strings.HasPrefix(out, "Каталог медиатеки пока не подключён"), out)
	assert.Contains(t, say(t, p, "audio tracks of The Matrix"), "catalogue is not available")
}

func TestOnOffPhrases(t *testing.T) {
	cases := []struct {
		msg string
		on  bool
	}{
		{"включить субтитры", true}, {"выключить субтитры", false}, {"отключи субтитры, пожалуйста", false},
		{"вкл субтитры", true}, {"субтитры выкл", false}, {"subtitles on", true}, {"subs off", false},
		{"enable subtitles", true}, {"hide the subtitles", false}, {"turn on subtitles", true},
	}
	for _, c := range cases {
		p := newPlugin(t, medialayer.Deps{}, `{"subtitles": {"enabled": `+map[bool]string{true: "false", false: "true"}[c.on]+`}}`)
		out := say(t, p, c.msg)
		assert.NotEmpty(t, out, c.msg)
		assert.Equal(t, c.on, p.Preferences().Enabled, c.msg)
		assert.Contains(t, out, "(", "without a settings store the answer says the change is not saved: %s", c.msg)
	}
}

func TestTrackQuestionsAreRecognised(t *testing.T) {
	p := newPlugin(t, medialayer.Deps{}, `{}`)
	for _, q := range []string{"какие звуковые дорожки у Матрицы", "аудиодорожки в фильме Брат", "what audio tracks does The Matrix have",
		"какие субтитры есть у фильма Матрица", "which subtitles are in Dark", "audio tracks of The Matrix", "какие озвучки есть у Тьмы"} {
		out := say(t, p, q)
		assert.True(t, strings.Contains(out, "Каталог медиатеки пока не подключён") || strings.Contains(out, "catalogue is not available"), "%q → %q", q, out)
	}
	assert.Contains(t, say(t, p, "включи субтитры в Матрице"), "Субтитры включены", "a command, not a track question")
}
