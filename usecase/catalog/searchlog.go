package catalog

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"mediateka/domain"
)

// searchLogger writes search_history in small batches from one goroutine,
// so a title search costs a channel send instead of a database write, and
// prunes the table after each batch to its bounds, oldest rows first.
// A crash loses at most the last fraction of a second of history. A
// search never waits for the writer: while the database is busy (a scan
// holds the writer connection) the queue takes 1024 searches, later ones
// are counted and dropped, and the writer reports the count once per
// batch rather than one log line per search on the request path.
type searchLogger struct {
	log   SearchLog
	lg    *slog.Logger
	in    chan domain.SearchRecord
	every time.Duration
	now   func() time.Time
	rows  int
	age   time.Duration
	done  chan struct{}
	// dropped counts searches not queued since the last report.
	dropped atomic.Int64
	// mu guards started and closed, so a search racing with shutdown never
	// sends on a closed channel and Start and Close agree on who flushes.
	mu      sync.RWMutex
	started bool
	closed  bool
}

// newSearchLogger builds the writer with the options' period, clock and
// bounds (defaults filled by New, except the bounds filled here); start
// runs it.
func newSearchLogger(log SearchLog, opt Options) *searchLogger {
	if opt.SearchHistoryRows <= 0 {
		opt.SearchHistoryRows = 100_000
	}
	if opt.SearchHistoryAge <= 0 {
		opt.SearchHistoryAge = 90 * 24 * time.Hour
	}
	l := &searchLogger{log: log, lg: opt.Logger, in: make(chan domain.SearchRecord, 1024), every: opt.SearchLogEvery,
		now: opt.Now, rows: opt.SearchHistoryRows, age: opt.SearchHistoryAge, done: make(chan struct{})}
	return l
}

// start runs the writer's goroutine; once, and never after close.
func (l *searchLogger) start() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.started || l.closed {
		return
	}
	l.started = true
	go l.run()
}

// add queues a record; when the queue is full (the database is stuck) the
// record is dropped and counted rather than slowing searches down.
func (l *searchLogger) add(r domain.SearchRecord) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	if l.closed {
		return
	}
	select {
	case l.in <- r:
	default:
		l.dropped.Add(1)
	}
}

func (l *searchLogger) run() {
	defer close(l.done)
	tick := time.NewTicker(l.every)
	defer tick.Stop()
	var batch []domain.SearchRecord
	for {
		select {
		case r, ok := <-l.in:
			if !ok {
				l.flush(batch)
				return
			}
			batch = append(batch, r)
			if len(batch) >= 200 {
				batch = l.flush(batch)
			}
		case <-tick.C:
			batch = l.flush(batch)
		}
	}
}

func (l *searchLogger) flush(batch []domain.SearchRecord) []domain.SearchRecord {
	if len(batch) == 0 {
		return batch
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := l.log.LogSearches(ctx, batch); err != nil {
		l.lg.Error("write search history", "err", err.Error(), "records", len(batch))
	}
	if err := l.log.PruneSearches(ctx, l.rows, l.now().Add(-l.age)); err != nil {
		l.lg.Error("prune search history", "err", err.Error())
	}
	if n := l.dropped.Swap(0); n > 0 {
		l.lg.Warn("search history queue was full: searches were not logged", "searches", n)
	}
	return batch[:0]
}

// close writes what is queued and stops; later records are dropped. A
// writer that never started writes the queue here, so nothing searched
// before Start (tests without a server) is lost.
func (l *searchLogger) close() {
	l.mu.Lock()
	first := !l.closed
	if first {
		l.closed = true
		close(l.in)
	}
	started := l.started
	l.mu.Unlock()
	if started {
		<-l.done
		return
	}
	if first {
		var batch []domain.SearchRecord
		for r := range l.in {
			batch = append(batch, r)
		}
		l.flush(batch)
	}
}

// LogSearch records a search made elsewhere (semantic search) in
// search_history beside the title searches, through the same batched
// writer, so a search never waits for the database.
func (s *Service) LogSearch(query string, results int) {
	s.hist.add(domain.SearchRecord{Query: strings.ToValidUTF8(query, "\uFFFD"), ResultsCount: results, At: s.now().UTC()})
}
