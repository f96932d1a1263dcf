// Package notice keeps what the chat owes a person from an earlier
// request. Today that is one thing: an administrator who starts a scan from
// the chat is told how it ended. The chat is request and response, so the
// notice waits until that person's next message and its answer starts with
// it ("Сканирование закончено: добавлено: 6, обновлено: 0, пропало: 0.");
// the Telegram bot will push it as it happens once it exists. The service
// learns that a scan ended from the event bus (domain.ScanCompleted), so it
// does not matter who finished, cancelled or failed the scan.
//
// Notices live in memory: a restart forgets them, which costs one sentence.
package notice

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"mediateka/domain"
	"mediateka/usecase/event"
	"mediateka/usecase/library"
	"mediateka/usecase/textmatch"
)

// Bounds of what the service keeps: scans being watched, scans that ended
// before their watcher registered (the scan can be quicker than the
// chat's answer), and notices per person not yet told.
const (
	maxWatched = 16
	maxEnded   = 8
	maxReady   = 4
)

// watch is one scan a person waits for.
type watch struct {
	scanID string
	userID int64
}

// Service holds who waits for which scan and the notices not told yet.
type Service struct {
	listening atomic.Bool

	mu      sync.Mutex
	watched []watch                // oldest first
	ended   []domain.ScanCompleted // oldest first
	ready   map[int64][]domain.ScanCompleted
}

// New returns a service that tells nothing until Run listens to the bus.
func New() *Service {
	return &Service{ready: map[int64][]domain.ScanCompleted{}}
}

// Run listens to l until ctx ends. While it runs, WatchScan accepts scans
// to tell about; before and after, it refuses them, so nobody is promised
// a notice that would never come. An end published while the bus had cut
// the listener off (it fell a whole buffer behind, which a listener doing
// nothing but this hardly does) is not told.
func (s *Service) Run(ctx context.Context, l *event.Listener) error {
	s.listening.Store(true)
	defer s.listening.Store(false)
	l.Run(ctx, func(m event.Message) {
		if e, ok := m.Event.(domain.ScanCompleted); ok {
			s.scanEnded(e)
		}
	}, nil)
	return nil
}

// WatchScan asks to tell userID how scan scanID ends, in their next chat
// answer after it ended. It returns false, and keeps nothing, when no
// notice can come: the service is not listening to the bus, or the caller
// has no account to be told again.
func (s *Service) WatchScan(userID int64, scanID string) bool {
	if userID == 0 || scanID == "" || !s.listening.Load() {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if i := slices.IndexFunc(s.ended, func(e domain.ScanCompleted) bool { return e.ScanID == scanID }); i >= 0 {
		s.tell(userID, s.ended[i])
		s.ended = slices.Delete(s.ended, i, i+1)
		return true
	}
	if len(s.watched) == maxWatched {
		s.watched = s.watched[1:]
	}
	s.watched = append(s.watched, watch{scanID: scanID, userID: userID})
	return true
}

// scanEnded records that a scan ended: a notice for whoever watches it, else
// a note for a watcher still to come.
func (s *Service) scanEnded(e domain.ScanCompleted) {
	s.mu.Lock()
	defer s.mu.Unlock()
	told := false
	s.watched = slices.DeleteFunc(s.watched, func(w watch) bool {
		if w.scanID != e.ScanID {
			return false
		}
		s.tell(w.userID, e)
		told = true
		return true
	})
	if told {
		return
	}
	if len(s.ended) == maxEnded {
		s.ended = s.ended[1:]
	}
	s.ended = append(s.ended, e)
}

// tell queues a notice for userID; the caller holds mu.
func (s *Service) tell(userID int64, e domain.ScanCompleted) {
	q := s.ready[userID]
	if len(q) == maxReady {
		q = q[1:]
	}
	s.ready[userID] = append(q, e)
}

// Take returns the notices owed to userID, one line each in lang, and
// forgets them; "" when there are none.
func (s *Service) Take(userID int64, lang string) string {
	s.mu.Lock()
	q := s.ready[userID]
	delete(s.ready, userID)
	s.mu.Unlock()
	lines := make([]string, len(q))
	for i, e := range q {
		lines[i] = sayEnded(e, lang)
	}
	return strings.Join(lines, "\n")
}

// The sentences of a scan's end.
var (
	scanDone      = textmatch.Phrase{RU: "Сканирование закончено: %s.", EN: "Scan finished: %s."}
	scanCancelled = textmatch.Phrase{RU: "Сканирование остановлено: %s.", EN: "Scan cancelled: %s."}
	scanFailed    = textmatch.Phrase{
		RU: "Сканирование не удалось (%s); подробности — в статусе сканирования.",
		EN: "Scan failed (%s); the scan status has the details.",
	}
)

// sayEnded is the notice of one scan's end.
func sayEnded(e domain.ScanCompleted, lang string) string {
	summary := library.ScanSummary(lang, e.Added, e.Updated, e.Missing, e.Errors)
	p := scanDone
	switch e.State {
	case domain.JobCancelled:
		p = scanCancelled
	case domain.JobFailed:
		p = scanFailed
	}
	return fmt.Sprintf(p.In(lang), summary)
}
