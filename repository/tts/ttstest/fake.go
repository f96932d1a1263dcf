package ttstest

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// faults is what both fakes share: per-key and global error answers, a
// hold that keeps a request waiting until its client gives up, and a
// count of requests whose client went away.
type faults struct {
	mu      sync.Mutex
	byKey   map[string]int
	all     int
	from    int // requests from this one on (1 = the first) answer fromSt
	fromSt  int
	n       int // requests seen
	block   bool
	entered chan struct{}
	gone    chan struct{}
}

// Fail makes every request with key answer status (401, 403, 429, 500,
// and for Google 400, its answer to a malformed key).
func (f *faults) Fail(key string, status int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.byKey == nil {
		f.byKey = map[string]int{}
	}
	f.byKey[key] = status
}

// FailAll makes every request answer status; 0 stops it.
func (f *faults) FailAll(status int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.all = status
}

// FailFrom makes the nth request (1 for the first) and every one after it
// answer status: a text of several pieces that fails half-way.
func (f *faults) FailFrom(nth, status int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.from, f.fromSt = nth, status
}

// Block makes the next requests wait, without answering, until their
// client cancels. Entered is told when one starts waiting, Gone when its
// client went away; with these a test proves a cancelled context ends the
// request itself, not just the caller's wait.
func (f *faults) Block() (entered, gone <-chan struct{}) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.block = true
	f.entered, f.gone = make(chan struct{}, 16), make(chan struct{}, 16)
	return f.entered, f.gone
}

// status is the error status a request with key must get, 0 for none.
func (f *faults) status(key string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.n++
	switch {
	case f.all != 0:
		return f.all
	case f.from > 0 && f.n >= f.from:
		return f.fromSt
	}
	return f.byKey[key]
}

// hold keeps a request waiting until its client leaves, when Block is on;
// it reports whether it held.
func (f *faults) hold(r *http.Request) bool {
	f.mu.Lock()
	block, entered, gone := f.block, f.entered, f.gone
	f.mu.Unlock()
	if !block {
		return false
	}
	entered <- struct{}{}
	<-r.Context().Done()
	gone <- struct{}{}
	return true
}

// server is what both fakes share besides the faults: the base URL and
// the log of requests received, each fake with its own request type.
type server[R any] struct {
	faults
	url   string
	logMu sync.Mutex
	reqs  []R
}

// URL is the base URL to configure an engine with.
func (s *server[R]) URL() string { return s.url }

// Requests returns the requests received so far, in order.
func (s *server[R]) Requests() []R {
	s.logMu.Lock()
	defer s.logMu.Unlock()
	return append([]R(nil), s.reqs...)
}

// record logs a request as it arrives, before any answer.
func (s *server[R]) record(r R) {
	s.logMu.Lock()
	defer s.logMu.Unlock()
	s.reqs = append(s.reqs, r)
}

// serve starts h on a local server closed at the end of the test.
func serve(t testing.TB, h http.Handler) *httptest.Server {
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}
