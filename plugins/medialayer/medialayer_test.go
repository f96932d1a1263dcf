package medialayer_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/plugins"
	"mediateka/plugins/medialayer"
	"mediateka/repository/exectest"
	"mediateka/repository/ffprobe"
	"mediateka/repository/localfs"
	"mediateka/repository/sqlstore"
	"mediateka/repository/sqlstore/sqlstoretest"
	"mediateka/usecase/catalog"
	"mediateka/usecase/textmatch"
)

// Callers of the chat: the administrator, whose changes are everyone's
// default, and two users with preferences of their own.
var (
	admin = domain.WithCaller(context.Background(), domain.Caller{UserID: 1, Role: domain.RoleAdmin, Admin: true})
	alice = domain.WithCaller(context.Background(), domain.Caller{UserID: 2, Role: domain.RoleUser})
	bob   = domain.WithCaller(context.Background(), domain.Caller{UserID: 3, Role: domain.RoleUser})
)

// newCatalog is the real catalogue service over db, holding the film at
// file as Матрица (1999) and the series Тьма.
func newCatalog(t *testing.T, db *sqlstoretest.DB, file string) *catalog.Service {
	t.Helper()
	db.Movie("Матрица", 1999, func(m *domain.Media) { m.Path, m.TitleOrig = file, "The Matrix" })
	db.Series("Тьма", sqlstoretest.Year(2017), func(m *domain.Media) { m.TitleOrig = "Dark" })
	svc := catalog.New(db.Media, db.Media, localfs.FS{}, catalog.Options{})
	t.Cleanup(svc.Close)
	return svc
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

func say(t *testing.T, ctx context.Context, p *medialayer.Plugin, msg string) string {
	t.Helper()
	out, err := p.Handle(ctx, msg)
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
	assert.Equal(t, medialayer.Subtitles{Size: 24, Color: "#ffffff"}, p.Preferences(admin))
	require.NoError(t, p.Configure(json.RawMessage(`{"subtitles": {"enabled": true, "size": 72, "color": "#00FF00"}}`)))
	assert.Equal(t, medialayer.Subtitles{Enabled: true, Size: 72, Color: "#00FF00"}, p.Preferences(admin))

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
	settings := sqlstore.NewSettings(sqlstoretest.New(t, nil).Store)
	p := newPlugin(t, medialayer.Deps{Settings: settings}, `{"subtitles": {"size": 30, "color": "#ffffff"}}`)

	assert.Equal(t, "Готово. Субтитры включены, размер 30, цвет #ffffff.", say(t, admin, p, "Включи субтитры"))
	assert.Equal(t, "Done. Subtitles are on, size 24, colour #ffffff.", say(t, admin, p, "subtitles size 24"))
	assert.Equal(t, "Субтитры включены, размер 24, цвет #ffffff.", say(t, admin, p, "какие настройки субтитров?"))
	assert.Contains(t, say(t, admin, p, "размер субтитров 100"), "должен быть от 8 до 72")
	assert.Equal(t, 24, p.Preferences(admin).Size, "an out-of-range size changes nothing")
	assert.Contains(t, say(t, admin, p, "сделай цвет субтитров жёлтым"), "цвет #ffff00")
	assert.Contains(t, say(t, admin, p, "subtitles colour #FFCC00"), "colour #ffcc00")
	assert.Contains(t, say(t, admin, p, "субтитры крупнее"), "размер 28")
	assert.Contains(t, say(t, admin, p, "turn off subtitles"), "Subtitles are off")
	assert.Contains(t, say(t, admin, p, "выключи субтитры"), "Субтитры выключены")

	saved, err := settings.Get(context.Background(), medialayer.SettingKey)
	require.NoError(t, err)
	assert.JSONEq(t, `{"enabled": false, "size": 28, "color": "#ffcc00"}`, saved.Value)

	// A restart: config.json says size 30, the saved preferences win.
	p2 := newPlugin(t, medialayer.Deps{Settings: settings}, `{"subtitles": {"size": 30}}`)
	assert.Equal(t, medialayer.Subtitles{Size: 28, Color: "#ffcc00"}, p2.Preferences(admin))
	assert.Contains(t, say(t, admin, p2, "reset subtitles"), "size 30")
	_, err = settings.Get(context.Background(), medialayer.SettingKey)
	assert.True(t, domain.IsKind(err, domain.KindNotFound), "reset forgets the saved preferences")
}

func TestOtherMessagesPass(t *testing.T) {
	p := newPlugin(t, medialayer.Deps{}, `{}`)
	for _, msg := range []string{"привет", "найди фильм с субтитрами", "включи Матрицу", "do I have The Matrix", "what is on tonight"} {
		assert.Empty(t, say(t, admin, p, msg), msg)
	}
}

// matrixVideo is a small Matroska file with a Russian 5.1 dub (default),
// an English stereo track and English subtitles.
func matrixVideo(t *testing.T) string {
	t.Helper()
	exectest.Require(t, "ffmpeg", "ffprobe")
	return exectest.MakeVideo(t, exectest.Video{Name: "Matrix.1999.mkv",
		Audio: []exectest.Track{
			{Language: "rus", Title: "Дубляж", Codec: "ac3", Channels: 6, Default: true},
			{Language: "eng", Codec: "aac", Channels: 2},
		},
		Subtitles: []exectest.Track{{Language: "eng"}},
	})
}

func TestAudioTracksOfACatalogueTitle(t *testing.T) {
	file := matrixVideo(t)
	cat := newCatalog(t, sqlstoretest.New(t, textmatch.Normalize), file)
	prober, err := ffprobe.New("", 0)
	require.NoError(t, err)
	p := newPlugin(t, medialayer.Deps{Catalog: cat, Prober: prober}, `{}`)

	assert.Equal(t, "Звуковые дорожки «Матрица (1999)» (2):\n"+
		"1. русский — «Дубляж», ac3, каналов: 6, по умолчанию\n"+
		"2. английский, aac, каналов: 2", say(t, admin, p, "Какие звуковые дорожки у Матрицы?"))
	assert.Equal(t, "Audio tracks of “Матрица (1999)” (2):\n"+
		"1. Russian — «Дубляж», ac3, 6 channels, default\n"+
		"2. English, aac, 2 channels", say(t, admin, p, "What audio tracks does The Matrix have?"))
	assert.Equal(t, "Встроенные субтитры «Матрица (1999)» (1):\n1. английский, subrip", say(t, admin, p, "какие субтитры есть у фильма Матрица"))
	assert.Equal(t, "«титаника» в каталоге не нашлось.", say(t, admin, p, "какие звуковые дорожки у Титаника"))
	assert.Contains(t, say(t, admin, p, "audio tracks of Dark"), "is a series or a season")

	noProbe := newPlugin(t, medialayer.Deps{Catalog: cat}, `{}`)
	assert.Contains(t, say(t, admin, noProbe, "какие звуковые дорожки у Матрицы"), "нужен ffprobe (пакет ffmpeg)")
}

func TestTracksWithoutACatalogueSaySo(t *testing.T) {
	p := newPlugin(t, medialayer.Deps{}, `{}`)
	out := say(t, admin, p, "какие звуковые дорожки у Матрицы")
	assert.True(t, strings.HasPrefix(out, "Каталог медиатеки пока не подключён"), out)
	assert.Contains(t, say(t, admin, p, "audio tracks of The Matrix"), "catalogue is not available")
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
		out := say(t, admin, p, c.msg)
		assert.NotEmpty(t, out, c.msg)
		assert.Equal(t, c.on, p.Preferences(admin).Enabled, c.msg)
		assert.Contains(t, out, "(", "without a settings store the answer says the change is not saved: %s", c.msg)
	}
}

func TestTrackQuestionsAreRecognised(t *testing.T) {
	p := newPlugin(t, medialayer.Deps{}, `{}`)
	for _, q := range []string{"какие звуковые дорожки у Матрицы", "аудиодорожки в фильме Брат", "what audio tracks does The Matrix have",
		"какие субтитры есть у фильма Матрица", "which subtitles are in Dark", "audio tracks of The Matrix", "какие озвучки есть у Тьмы"} {
		out := say(t, admin, p, q)
		assert.True(t, strings.Contains(out, "Каталог медиатеки пока не подключён") || strings.Contains(out, "catalogue is not available"), "%q → %q", q, out)
	}
	assert.Contains(t, say(t, admin, p, "включи субтитры в Матрице"), "Субтитры включены", "a command, not a track question")
}

func TestPreferencesArePerUserWithTheAdminsAsTheDefault(t *testing.T) {
	settings := sqlstore.NewSettings(sqlstoretest.New(t, nil).Store)
	p := newPlugin(t, medialayer.Deps{Settings: settings}, `{"subtitles": {"size": 30}}`)

	assert.Equal(t, "Готово. Субтитры включены, размер 30, цвет #ffffff.", say(t, admin, p, "Включи субтитры"))
	assert.True(t, p.Preferences(bob).Enabled, "the admin's change is every user's default")

	assert.Equal(t, "Done. Subtitles are on, size 40, colour #ffffff.", say(t, alice, p, "subtitles size 40"))
	assert.Equal(t, 40, p.Preferences(alice).Size)
	assert.Equal(t, 30, p.Preferences(bob).Size, "a user's change affects only that user")
	assert.Equal(t, 30, p.Preferences(admin).Size)
	assert.Equal(t, "Subtitles are on, size 30, colour #ffffff.", say(t, bob, p, "what are my subtitle settings?"))

	saved, err := settings.Get(context.Background(), medialayer.UserSettingPrefix+"2")
	require.NoError(t, err)
	assert.JSONEq(t, `{"enabled": true, "size": 40, "color": "#ffffff"}`, saved.Value)
	global, err := settings.Get(context.Background(), medialayer.SettingKey)
	require.NoError(t, err)
	assert.JSONEq(t, `{"enabled": true, "size": 30, "color": "#ffffff"}`, global.Value)

	say(t, admin, p, "subtitles colour #ffff00")
	assert.Equal(t, "#ffff00", p.Preferences(bob).Color, "bob has none of his own: the admin's apply")
	assert.Equal(t, "#ffffff", p.Preferences(alice).Color, "alice's own stay as she saved them")

	// A restart keeps both.
	p2 := newPlugin(t, medialayer.Deps{Settings: settings}, `{"subtitles": {"size": 30}}`)
	assert.Equal(t, medialayer.Subtitles{Enabled: true, Size: 40, Color: "#ffffff"}, p2.Preferences(alice))
	assert.Equal(t, "Your subtitle preferences are back to the library's defaults. Subtitles are on, size 30, colour #ffff00.",
		say(t, alice, p2, "reset subtitles"))
	_, err = settings.Get(context.Background(), medialayer.UserSettingPrefix+"2")
	assert.True(t, domain.IsKind(err, domain.KindNotFound), "reset forgets the user's own")
	assert.Equal(t, "#ffff00", p2.Preferences(admin).Color, "a user's reset leaves the default alone")
}

func TestWithoutACallerNothingIsKept(t *testing.T) {
	settings := sqlstore.NewSettings(sqlstoretest.New(t, nil).Store)
	p := newPlugin(t, medialayer.Deps{Settings: settings}, `{}`)
	noCaller := context.Background()
	assert.Equal(t, "Я не знаю, чей это аккаунт, поэтому не могу сохранить настройки субтитров: войдите в медиатеку.",
		say(t, noCaller, p, "включи субтитры"))
	assert.Contains(t, say(t, noCaller, p, "reset subtitles"), "cannot keep subtitle preferences")
	assert.False(t, p.Preferences(admin).Enabled)
	assert.Equal(t, "Subtitles are off, size 24, colour #ffffff.", say(t, noCaller, p, "subtitle settings?"), "the defaults can still be read")
}

// withSidecars writes subtitle files beside video and returns them.
func withSidecars(t *testing.T, video string, names ...string) {
	t.Helper()
	for _, n := range names {
		require.NoError(t, os.WriteFile(filepath.Join(filepath.Dir(video), n), []byte("1\n00:00:01,000 --> 00:00:02,000\nx\n"), 0o644))
	}
}

// Subtitle questions list the files beside the video too, whether or not
// ffprobe can read the tracks inside it.
func TestSubtitleAnswersIncludeTheFilesBesideTheVideo(t *testing.T) {
	dir := t.TempDir()
	video := filepath.Join(dir, "Matrix.1999.mkv")
	require.NoError(t, os.WriteFile(video, []byte("not a real video"), 0o644))
	withSidecars(t, video, "Matrix.1999.ru.srt", "Matrix.1999.en.forced.srt", "Other.Film.srt")
	cat := newCatalog(t, sqlstoretest.New(t, textmatch.Normalize), video)
	p := newPlugin(t, medialayer.Deps{Catalog: cat, Subtitles: cat}, `{}`)

	assert.Equal(t, "Субтитры внутри файла «Матрица (1999)» прочитать нельзя: на сервере нет ffprobe (пакет ffmpeg).\n"+
		"Файлы субтитров рядом с видео (2):\n"+
		"1. English (forced) — Matrix.1999.en.forced.srt\n"+
		"2. Русский — Matrix.1999.ru.srt", say(t, alice, p, "какие субтитры у Матрицы"))
	assert.Equal(t, "The subtitles inside the file of “Матрица (1999)” cannot be read: the server has no ffprobe (package ffmpeg).\n"+
		"Subtitle files beside the video (2):\n"+
		"1. English (forced) — Matrix.1999.en.forced.srt\n"+
		"2. Русский — Matrix.1999.ru.srt", say(t, alice, p, "which subtitles does The Matrix have?"))

	require.NoError(t, os.Remove(filepath.Join(dir, "Matrix.1999.ru.srt")))
	require.NoError(t, os.Remove(filepath.Join(dir, "Matrix.1999.en.forced.srt")))
	assert.Contains(t, say(t, alice, p, "какие субтитры у Матрицы"), "Файлов субтитров (.srt, .vtt) рядом с видео нет.")
	assert.NotContains(t, say(t, alice, p, "какие звуковые дорожки у Матрицы"), "Файл", "audio questions list no subtitle files")
}

func TestSubtitleAnswersListEmbeddedTracksAndFiles(t *testing.T) {
	file := matrixVideo(t)
	withSidecars(t, file, "Matrix.1999.ru.srt")
	cat := newCatalog(t, sqlstoretest.New(t, textmatch.Normalize), file)
	prober, err := ffprobe.New("", 0)
	require.NoError(t, err)
	p := newPlugin(t, medialayer.Deps{Catalog: cat, Prober: prober, Subtitles: cat}, `{}`)
	assert.Equal(t, "Встроенные субтитры «Матрица (1999)» (1):\n1. английский, subrip\n"+
		"Файлы субтитров рядом с видео (1):\n1. Русский — Matrix.1999.ru.srt", say(t, admin, p, "какие субтитры у Матрицы"))
}
