// Package tgfake is a fake Telegram Bot API server for tests. It speaks the
// real wire protocol (POST <url>/bot<token>/<method> with a multipart or
// url-encoded form, answers {"ok":true,"result":…}), records every call with
// its form fields and uploaded files, serves getUpdates with Telegram's
// long-poll and offset semantics (an offset confirms, and so forgets, the
// updates before it), and fails chosen methods on demand (429
// with parameters.retry_after, 500) so tests can watch a client ride out an
// outage.
package tgfake

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Token is the bot token tests use with the fake; any other is 401.
const Token = "123456:TEST-token_abcdefghijklmnopqrstuv"

// Call is one recorded Bot API request.
type Call struct {
	Method string
	// Fields are the form fields as sent (JSON-valued fields such as
	// reply_markup stay JSON strings, as on the wire).
	Fields map[string]string
	// Files are the uploaded files by field name (sendVoice's "voice").
	Files map[string][]byte
}

// failure is a planned error answer for a method.
type failure struct {
	method     string
	status     int
	retryAfter int
}

// Server is the fake. Its zero value is not usable; call New.
type Server struct {
	srv *httptest.Server

	mu       sync.Mutex
	changed  chan struct{} // closed and replaced whenever state changes
	calls    []Call
	updates  []json.RawMessage // updates[i] has update_id i+1
	failures []failure
	nextMsg  int
	// confirmed is the last update id confirmed by a getUpdates offset.
	confirmed int
}

// Confirmed is the id of the last update the bot confirmed (a getUpdates
// with a higher offset); Telegram never sends those again.
func (s *Server) Confirmed() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.confirmed
}

// New starts the fake; it is closed when t ends.
func New(t testing.TB) *Server {
	s := &Server{changed: make(chan struct{})}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.srv.Close)
	return s
}

// URL is the api_url to give the bot.
func (s *Server) URL() string { return s.srv.URL }

// notify wakes whoever waits for a change; the caller holds mu.
func (s *Server) notify() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// Message is an update carrying a private text message from Telegram user
// from (whose language_code is lang), as Push and a webhook take it.
func Message(from int64, lang, text string) map[string]any {
	return map[string]any{"message": map[string]any{
		"message_id": 1, "date": 1700000000, "text": text,
		"chat": map[string]any{"id": from, "type": "private"},
		"from": map[string]any{"id": from, "is_bot": false, "first_name": "Ann", "language_code": lang},
	}}
}

// Push queues an update (the object without update_id, which the fake
// numbers from 1) for getUpdates and returns its id.
func (s *Server) Push(update map[string]any) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := len(s.updates) + 1
	u := map[string]any{"update_id": id}
	for k, v := range update {
		u[k] = v
	}
	raw, _ := json.Marshal(u)
	s.updates = append(s.updates, raw)
	s.notify()
	return id
}

// Fail makes the next call of method answer status (429 carries
// parameters.retry_after = retryAfter seconds). Several plans for one
// method are used in order.
func (s *Server) Fail(method string, status, retryAfter int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failures = append(s.failures, failure{method: method, status: status, retryAfter: retryAfter})
}

// Calls returns the recorded calls of method ("" for all), oldest first.
// getUpdates calls are recorded too.
func (s *Server) Calls(method string) []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Call
	for _, c := range s.calls {
		if method == "" || c.Method == method {
			out = append(out, c)
		}
	}
	return out
}

// WaitCalls waits until method has been called at least n times and
// returns its calls; the test fails if that does not happen within a
// generous bound (a hang, not a timing assertion).
func (s *Server) WaitCalls(t testing.TB, method string, n int) []Call {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		s.mu.Lock()
		ch := s.changed
		s.mu.Unlock()
		if calls := s.Calls(method); len(calls) >= n {
			return calls
		}
		select {
		case <-ch:
		case <-deadline:
			t.Fatalf("tgfake: %s called %d times, want %d; calls: %v", method, len(s.Calls(method)), n, s.methods())
			return nil
		}
	}
}

// methods lists the recorded methods, for failure messages.
func (s *Server) methods() []string {
	var out []string
	for _, c := range s.Calls("") {
		out = append(out, c.Method)
	}
	return out
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	rest, ok := strings.CutPrefix(r.URL.Path, "/bot"+Token+"/")
	if !ok || r.Method != http.MethodPost {
		writeJSON(w, http.StatusUnauthorized, map[string]any{"ok": false, "error_code": 401, "description": "Unauthorized"})
		return
	}
	call := Call{Method: rest, Fields: map[string]string{}, Files: map[string][]byte{}}
	if err := readForm(r, &call); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]any{"ok": false, "error_code": 400, "description": "Bad Request: " + err.Error()})
		return
	}
	s.mu.Lock()
	s.calls = append(s.calls, call)
	s.notify()
	f, failing := s.takeFailure(call.Method)
	s.mu.Unlock()
	if failing {
		writeFailure(w, f)
		return
	}
	if call.Method == "getUpdates" {
		s.getUpdates(w, r, call)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"ok": true, "result": s.result(call)})
}

// takeFailure removes and returns the first planned failure of method; the
// caller holds mu.
func (s *Server) takeFailure(method string) (failure, bool) {
	for i, f := range s.failures {
		if f.method == method {
			s.failures = append(s.failures[:i], s.failures[i+1:]...)
			return f, true
		}
	}
	return failure{}, false
}

func writeFailure(w http.ResponseWriter, f failure) {
	body := map[string]any{"ok": false, "error_code": f.status, "description": http.StatusText(f.status)}
	if f.status == http.StatusTooManyRequests {
		body["description"] = "Too Many Requests: retry after " + strconv.Itoa(f.retryAfter)
		body["parameters"] = map[string]any{"retry_after": f.retryAfter}
	}
	writeJSON(w, f.status, body)
}

// readForm fills call from a multipart or url-encoded body.
func readForm(r *http.Request, call *Call) error {
	if strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/") {
		if err := r.ParseMultipartForm(32 << 20); err != nil {
			// A call without parameters (getMe) sends an empty body, which
			// Telegram takes as no fields.
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		for k, v := range r.MultipartForm.Value {
			call.Fields[k] = v[0]
		}
		for k, fh := range r.MultipartForm.File {
			f, err := fh[0].Open()
			if err != nil {
				return err
			}
			data, err := io.ReadAll(f)
			_ = f.Close()
			if err != nil {
				return err
			}
			call.Files[k] = data
		}
		return nil
	}
	if err := r.ParseForm(); err != nil {
		return err
	}
	for k, v := range r.PostForm {
		call.Fields[k] = v[0]
	}
	return nil
}

// getUpdates answers the unconfirmed updates from offset on (at most
// limit), waiting up to the request's timeout for one to arrive
// (Telegram's long poll). As at Telegram, an offset confirms every update
// before it: those are never answered again, whatever a later offset says.
func (s *Server) getUpdates(w http.ResponseWriter, r *http.Request, call Call) {
	offset, _ := strconv.Atoi(call.Fields["offset"])
	timeout, _ := strconv.Atoi(call.Fields["timeout"])
	limit, _ := strconv.Atoi(call.Fields["limit"])
	if limit <= 0 || limit > 100 {
		limit = 100
	}
	s.mu.Lock()
	s.confirmed = max(s.confirmed, offset-1)
	s.notify()
	s.mu.Unlock()
	wait := time.NewTimer(time.Duration(timeout) * time.Second)
	defer wait.Stop()
	for {
		s.mu.Lock()
		ch := s.changed
		var out []json.RawMessage
		for i, u := range s.updates {
			if id := i + 1; id >= offset && id > s.confirmed && len(out) < limit {
				out = append(out, u)
			}
		}
		s.mu.Unlock()
		if len(out) > 0 {
			writeJSON(w, http.StatusOK, map[string]any{"ok": true, "result": out})
			return
		}
		select {
		case <-ch:
		case <-wait.C:
			writeJSON(w, http.StatusOK, map[string]any{"ok": true, "result": []any{}})
			return
		case <-r.Context().Done():
			return
		}
	}
}

// result is what a successful call answers: a Message for the send
// methods and editMessageText, the bot for getMe, true otherwise.
func (s *Server) result(call Call) any {
	switch call.Method {
	case "getMe":
		return map[string]any{"id": 123456, "is_bot": true, "first_name": "mediateka", "username": "mediateka_bot"}
	case "sendMessage", "sendVoice":
		s.mu.Lock()
		s.nextMsg++
		id := s.nextMsg
		s.mu.Unlock()
		chatID, _ := strconv.ParseInt(call.Fields["chat_id"], 10, 64)
		return map[string]any{"message_id": id, "date": 1700000000, "chat": map[string]any{"id": chatID, "type": "private"},
			"text": call.Fields["text"]}
	case "editMessageText":
		id, _ := strconv.Atoi(call.Fields["message_id"])
		chatID, _ := strconv.ParseInt(call.Fields["chat_id"], 10, 64)
		return map[string]any{"message_id": id, "date": 1700000000, "edit_date": 1700000001,
			"chat": map[string]any{"id": chatID, "type": "private"}, "text": call.Fields["text"]}
	}
	return true
}

func writeJSON(w http.ResponseWriter, status int, body any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(body)
}
