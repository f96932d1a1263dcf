package mediaorganizer

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/repository/localfs"
	"mediateka/repository/sqlstore/sqlstoretest"
	"mediateka/usecase/library"
	"mediateka/usecase/textmatch"
)

// adminCtx and userCtx carry the caller the chat passes with a message.
var (
	adminCtx = domain.WithCaller(context.Background(), domain.Caller{UserID: 1, Role: domain.RoleAdmin, Admin: true})
	userCtx  = domain.WithCaller(context.Background(), domain.Caller{UserID: 2, Role: domain.RoleUser})
)

// gatedFS holds folder reads while closed is false, so a scan stays
// running as long as a test needs.
type gatedFS struct {
	localfs.FS
	gate chan struct{}
}

func (g gatedFS) ReadDirStat(p string, stat func(string) bool) ([]fs.DirEntry, error) {
	<-g.gate
	return g.FS.ReadDirStat(p, stat)
}

func newLibrary(t *testing.T, files ...string) (*library.Service, chan struct{}) {
	t.Helper()
	dir := t.TempDir()
	root := filepath.Join(dir, "lib")
	for i, f := range files {
		p := filepath.Join(root, f)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		body := []byte(f)
		if i < 2 {
			body = []byte("same bytes") // the first two files are copies
		}
		require.NoError(t, os.WriteFile(p, body, 0o644))
	}
	gate := make(chan struct{})
	close(gate)
	fsys := gatedFS{gate: gate}
	svc := library.New(sqlstoretest.New(t, textmatch.Normalize).Media, fsys, library.Options{
		Roots: []domain.Root{{Path: root, Disk: "D"}}, Lock: localfs.NewLock(filepath.Join(dir, "lock")),
	})
	t.Cleanup(svc.Close)
	st, err := svc.Scan(context.Background(), library.ScanRequest{}, nil)
	require.NoError(t, err)
	require.Equal(t, library.StateCompleted, st.State)
	return svc, gate
}

func TestAnswersWithRealNumbers(t *testing.T) {
	lib, _ := newLibrary(t, "Фильмы/Heat.1995.mkv", "Фильмы/Copy/Heat (1995).avi", "Фильмы/Alien.1979.mkv",
		"Сериалы/Dark/Season 1/Dark.S01E01.mkv", "Сериалы/Dark/Season 1/Dark.S01E02.mkv", "Сериалы/Dark/Season 2/Dark.S02E01.mkv")
	p := New(Deps{Library: lib})
	ok, err := p.Setup(context.Background())
	require.NoError(t, err)
	require.True(t, ok)
	for msg, want := range map[string]string{
		"Сколько фильмов?":                      "В библиотеке 3 фильма.",
		"сколько у меня сериалов":               "В библиотеке 1 сериал.",
		"Сколько сезонов и серий в библиотеке?": "В библиотеке 2 сезона, 3 серии.",
		"сколько всего в библиотеке":            "В библиотеке 3 фильма, 1 сериал.",
		"How many movies do I have?":            "The library has 3 movies.",
		"how many series":                       "The library has 1 series.",
		"How many episodes and seasons?":        "The library has 3 episodes, 2 seasons.",
	} {
		got, err := p.Handle(adminCtx, msg)
		require.NoError(t, err, msg)
		assert.Equal(t, want, got, msg)
	}

	got, err := p.Handle(adminCtx, "Найди дубликаты")
	require.NoError(t, err)
	assert.Contains(t, got, "Найдено 2 группы дубликатов", "by title and by content")
	assert.Contains(t, got, "«Heat» (1995) — 2 копии")
	got, err = p.Handle(adminCtx, "any duplicates?")
	require.NoError(t, err)
	assert.Contains(t, got, "Found 2 duplicate groups")

	got, err = p.Handle(adminCtx, "audit")
	require.NoError(t, err)
	assert.Contains(t, got, "Audit done: 9 records checked, 3 issues")
	assert.Contains(t, got, "duplicates: 2; without a title or year: 1")
	got, err = p.Handle(adminCtx, "Проверь библиотеку")
	require.NoError(t, err)
	assert.Contains(t, got, "Аудит завершён: проверено записей — 9, проблем — 3")
}

func TestStartsScansAndSaysWhenOneRuns(t *testing.T) {
	lib, _ := newLibrary(t, "Фильмы/Heat.1995.mkv")
	p := New(Deps{Library: lib})
	got, err := p.Handle(adminCtx, "Запусти сканирование")
	require.NoError(t, err)
	assert.Contains(t, got, "Сканирование библиотеки запущено")
	require.Eventually(t, func() bool { return lib.ScanStatus().State == library.StateCompleted }, 5*time.Second, 5*time.Millisecond)
	got, err = p.Handle(adminCtx, "Scan the library")
	require.NoError(t, err)
	assert.Contains(t, got, "The library scan has started")
	require.Eventually(t, func() bool { return lib.ScanStatus().State == library.StateCompleted }, 5*time.Second, 5*time.Millisecond)
}

func TestScanAlreadyRunning(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "lib")
	require.NoError(t, os.MkdirAll(root, 0o755))
	media := sqlstoretest.New(t, textmatch.Normalize).Media
	gate := make(chan struct{})
	lib := library.New(media, gatedFS{gate: gate},
		library.Options{Roots: []domain.Root{{Path: root, Disk: "D"}}})
	defer lib.Close()
	defer close(gate)
	p := New(Deps{Library: lib})
	first, err := p.Handle(adminCtx, "scan the library")
	require.NoError(t, err)
	assert.Contains(t, first, "has started")
	second, err := p.Handle(adminCtx, "сканирование библиотеки")
	require.NoError(t, err)
	assert.Equal(t, "Сканирование уже идёт — дождитесь, пока оно закончится.", second)

	noRoots := New(Deps{Library: library.New(media, localfs.FS{}, library.Options{})})
	got, err := noRoots.Handle(adminCtx, "scan")
	require.NoError(t, err)
	assert.Contains(t, got, "search_dirs.json")
}

func TestOtherMessagesPass(t *testing.T) {
	lib, _ := newLibrary(t, "Фильмы/Heat.1995.mkv")
	p := New(Deps{Library: lib})
	for _, msg := range []string{"привет", "What's the weather like?", "Отсканируй этот документ, пожалуйста",
		"Посоветуй фильм с хорошим дублированным переводом", "Check whether The Matrix is worth watching",
		"scan this QR code for me please", "", "   "} {
		got, err := p.Handle(adminCtx, msg)
		require.NoError(t, err, msg)
		assert.Empty(t, got, msg)
	}
}

func TestWithoutALibraryThePluginIsNotLoaded(t *testing.T) {
	ok, err := New(Deps{}).Setup(context.Background())
	require.NoError(t, err)
	assert.False(t, ok)
	assert.Equal(t, "media_organizer", New(Deps{}).Name())
}

func TestAdminActionsAreRefusedToUsersAndChangeNothing(t *testing.T) {
	lib, _ := newLibrary(t, "Фильмы/Heat.1995.mkv", "Фильмы/Copy/Heat (1995).avi")
	before := lib.ScanStatus()
	p := New(Deps{Library: lib})
	noCaller := context.Background() // a programming error: treated as the least-privileged user
	for _, ctx := range []context.Context{userCtx, noCaller} {
		for msg, want := range map[string]string{
			"Просканируй библиотеку":   "Это может сделать только администратор медиатеки.",
			"scan the library":         "Only an administrator of the library can do that.",
			"Проведи аудит библиотеки": "Это может сделать только администратор медиатеки.",
			"audit":                "Only an administrator of the library can do that.",
			"Найди дубликаты":      "Это может сделать только администратор медиатеки.",
			"classify the library": "Only an administrator of the library can do that.",
			"классифицируй фильмы": "Это может сделать только администратор медиатеки.",
		} {
			got, err := p.Handle(ctx, msg)
			require.NoError(t, err, msg)
			assert.Equal(t, want, got, msg)
		}
	}
	assert.Equal(t, before, lib.ScanStatus(), "no scan started")

	got, err := p.Handle(userCtx, "сколько фильмов?")
	require.NoError(t, err)
	assert.Equal(t, "В библиотеке 2 фильма.", got, "counting is open to users, as the catalogue is")
	got, err = p.Handle(adminCtx, "classify the library")
	require.NoError(t, err)
	assert.Contains(t, got, "POST /api/media-admin/classify")
}

func TestAnswersInTheCallersLanguage(t *testing.T) {
	lib, _ := newLibrary(t, "Фильмы/Heat.1995.mkv")
	p := New(Deps{Library: lib})
	ru := domain.WithCaller(context.Background(), domain.Caller{UserID: 2, Lang: domain.LangRussian})
	got, err := p.Handle(ru, "scan")
	require.NoError(t, err)
	assert.Equal(t, "Это может сделать только администратор медиатеки.", got, "the chat settled the language (the account's): Russian")
}
