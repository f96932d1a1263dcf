package notice_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/usecase/event"
	"mediateka/usecase/notice"
)

// running starts the service on a real bus and returns the bus; the
// service stops when the test ends.
func running(t *testing.T, svc *notice.Service) *event.Bus {
	t.Helper()
	bus := event.New(nil)
	l := bus.Listen(16)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = svc.Run(ctx, l); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	require.Eventually(t, func() bool { return svc.WatchScan(99, "probe") }, time.Second, time.Millisecond)
	return bus
}

// eventually waits for the notice of userID and returns it.
func eventually(t *testing.T, svc *notice.Service, userID int64, lang string) string {
	t.Helper()
	var got string
	require.Eventually(t, func() bool { got = svc.Take(userID, lang); return got != "" }, time.Second, time.Millisecond)
	return got
}

func TestTheWatcherIsToldOnceInTheirLanguage(t *testing.T) {
	svc := notice.New()
	bus := running(t, svc)
	require.True(t, svc.WatchScan(1, "scan-a"))
	assert.Empty(t, svc.Take(1, "ru"), "nothing before the scan ends")

	bus.Publish(domain.ScanCompleted{ScanID: "other", State: domain.JobCompleted, Added: 9})
	bus.Publish(domain.ScanCompleted{ScanID: "scan-a", State: domain.JobCompleted, Added: 6, Updated: 1, Missing: 2})
	assert.Equal(t, "Сканирование закончено: добавлено: 6, обновлено: 1, пропало: 2.", eventually(t, svc, 1, "ru"))
	assert.Empty(t, svc.Take(1, "ru"), "told once")
	assert.Empty(t, svc.Take(2, "en"), "nobody else is told")

	require.True(t, svc.WatchScan(1, "scan-b"))
	bus.Publish(domain.ScanCompleted{ScanID: "scan-b", State: domain.JobFailed, Errors: 3})
	assert.Equal(t, "Scan failed (0 added, 0 updated, 0 missing, 3 unreadable); the scan status has the details.", eventually(t, svc, 1, "en"))
	require.True(t, svc.WatchScan(1, "scan-c"))
	bus.Publish(domain.ScanCompleted{ScanID: "scan-c", State: domain.JobCancelled, Added: 1})
	assert.Equal(t, "Scan cancelled: 1 added, 0 updated, 0 missing.", eventually(t, svc, 1, "en"))
}

// A scan can end before the chat has answered the request that started
// it; the watcher is told all the same.
func TestAScanThatEndedBeforeTheWatchIsStillTold(t *testing.T) {
	svc := notice.New()
	bus := running(t, svc)
	bus.Publish(domain.ScanCompleted{ScanID: "quick", State: domain.JobCompleted, Added: 2})
	require.Eventually(t, func() bool {
		if !svc.WatchScan(5, "quick") {
			return false
		}
		return svc.Take(5, "en") != "" // the end was recorded before the watch
	}, time.Second, 5*time.Millisecond)
}

func TestNothingIsPromisedWithoutListeningOrAnAccount(t *testing.T) {
	svc := notice.New()
	assert.False(t, svc.WatchScan(1, "scan"), "not listening to the bus yet")
	running(t, svc)
	assert.False(t, svc.WatchScan(0, "scan"), "no account: nobody to tell")
	assert.True(t, svc.WatchScan(1, "scan"))
}

func TestStopsPromisingWhenItStops(t *testing.T) {
	svc := notice.New()
	bus := event.New(nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = svc.Run(ctx, bus.Listen(4)); close(done) }()
	require.Eventually(t, func() bool { return svc.WatchScan(1, "a") }, time.Second, time.Millisecond)
	cancel()
	<-done
	assert.False(t, svc.WatchScan(1, "b"))
	assert.Equal(t, 0, bus.Listeners())
}

// A person who never asks again does not make the service grow: it keeps
// the newest four notices per person.
func TestWhatItKeepsIsBounded(t *testing.T) {
	svc := notice.New()
	bus := running(t, svc)
	for i := range 10 {
		require.True(t, svc.WatchScan(3, fmt.Sprint("s", i)))
	}
	require.True(t, svc.WatchScan(4, "sentinel"))
	for i := range 10 {
		bus.Publish(domain.ScanCompleted{ScanID: fmt.Sprint("s", i), State: domain.JobCompleted, Added: i})
	}
	bus.Publish(domain.ScanCompleted{ScanID: "sentinel", State: domain.JobCompleted})
	eventually(t, svc, 4, "en") // the events before it were handled too
	assert.Equal(t, "Scan finished: 6 added, 0 updated, 0 missing.\n"+
		"Scan finished: 7 added, 0 updated, 0 missing.\n"+
		"Scan finished: 8 added, 0 updated, 0 missing.\n"+
		"Scan finished: 9 added, 0 updated, 0 missing.", svc.Take(3, "en"))
}
