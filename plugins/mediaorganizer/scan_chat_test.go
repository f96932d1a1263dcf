package mediaorganizer

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
	"mediateka/repository/sqlstore/sqlstoretest"
	"mediateka/usecase/event"
	"mediateka/usecase/library"
	"mediateka/usecase/notice"
	"mediateka/usecase/textmatch"
)

// scanSetup is a library of one film that publishes on a bus, its folder
// reads held until the gate opens, and the real notice service listening
// to the bus.
func scanSetup(t *testing.T) (*library.Service, *notice.Service, chan struct{}) {
	t.Helper()
	dir := t.TempDir()
	root := filepath.Join(dir, "lib")
	require.NoError(t, os.MkdirAll(filepath.Join(root, "Фильмы"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, "Фильмы", "Heat.1995.mkv"), []byte("heat"), 0o644))
	bus := event.New(nil)
	gate := make(chan struct{})
	lib := library.New(sqlstoretest.New(t, textmatch.Normalize).Media, gatedFS{gate: gate}, library.Options{
		Roots: []domain.Root{{Path: root, Disk: "D"}}, Lock: localfs.NewLock(filepath.Join(dir, "lock")), Events: bus,
	})
	t.Cleanup(lib.Close)
	notices := notice.New()
	l := bus.Listen(16)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = notices.Run(ctx, l); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	require.Eventually(t, func() bool { return notices.WatchScan(999, "probe") }, time.Second, time.Millisecond)
	return lib, notices, gate
}

// A scan started from the chat promises to tell how it ended, and the
// notice really comes; "scan status" shows it running and then finished.
func TestAScanStartedFromTheChatIsToldWhenItEnds(t *testing.T) {
	lib, notices, gate := scanSetup(t)
	p := New(Deps{Library: lib, Notices: notices})
	ru := domain.WithCaller(context.Background(), domain.Caller{UserID: 1, Admin: true, Lang: domain.LangRussian})

	got, err := p.Handle(ru, "статус сканирования")
	require.NoError(t, err)
	assert.Equal(t, "Сканирование ещё не запускалось. Запустить — «просканируй библиотеку».", got)

	got, err = p.Handle(ru, "Просканируй библиотеку")
	require.NoError(t, err)
	assert.Equal(t, "Сканирование библиотеки запущено. Когда оно закончится, я скажу об этом здесь, в чате, — "+
		"в ответе на ваше следующее сообщение. Как оно идёт — спросите «статус сканирования».", got)
	got, err = p.Handle(ru, "как идёт сканирование?")
	require.NoError(t, err)
	assert.Equal(t, "Сканирование идёт: пока добавлено: 0, обновлено: 0, пропало: 0 (просмотрено файлов: 0).", got)
	assert.Empty(t, notices.Take(1, "ru"), "nothing to tell while it runs")

	close(gate)
	var told string
	require.Eventually(t, func() bool { told = notices.Take(1, "ru"); return told != "" }, 5*time.Second, 5*time.Millisecond)
	assert.Equal(t, "Сканирование закончено: добавлено: 1, обновлено: 0, пропало: 0.", told)
	got, err = p.Handle(adminCtx, "scan status")
	require.NoError(t, err)
	assert.Equal(t, "The last scan finished: 1 added, 0 updated, 0 missing (files seen: 1).", got)

	got, err = p.Handle(userCtx, "scan status")
	require.NoError(t, err)
	assert.Equal(t, "Only an administrator of the library can do that.", got)
}

// Without notices, or for a caller without an account, the answer
// promises nothing it cannot keep.
func TestAScanWithoutNoticesPromisesNothing(t *testing.T) {
	lib, notices, gate := scanSetup(t)
	close(gate)
	for _, p := range []*Plugin{New(Deps{Library: lib}), New(Deps{Library: lib, Notices: notices})} {
		noAccount := domain.WithCaller(context.Background(), domain.Caller{Admin: true})
		got, err := p.Handle(noAccount, "scan the library")
		require.NoError(t, err)
		assert.Equal(t, "The library scan has started. Progress: ask “scan status”.", got)
		require.Eventually(t, func() bool { return lib.ScanStatus().State == library.StateCompleted }, 5*time.Second, 5*time.Millisecond)
	}
}

// Counts narrower than the whole library pass on to the assistant, which
// reads their scope; this plugin would answer them with the whole
// library's numbers.
func TestScopedCountsPassOn(t *testing.T) {
	lib, _ := newLibrary(t, "Фильмы/Heat.1995.mkv")
	p := New(Deps{Library: lib})
	for _, msg := range []string{"сколько серий в Кухне?", "how many films are on Disk 2", "сколько фильмов 2010 года",
		"сколько комедий", "how many seasons does Dark have", "сколько сезонов у сериала Тьма"} {
		got, err := p.Handle(adminCtx, msg)
		require.NoError(t, err)
		assert.Empty(t, got, msg)
	}
	got, err := p.Handle(adminCtx, "сколько у меня фильмов в библиотеке?")
	require.NoError(t, err)
	assert.Equal(t, "В библиотеке 1 фильм.", got)
}
