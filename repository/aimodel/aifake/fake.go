// Package aifake runs local HTTP servers that speak the Gemini and OpenAI
// chat and embeddings wire protocols, so the provider clients and everything
// built on them (key rotation, chat, classification, semantic search) are
// tested offline against the real client libraries. Each fake records every request, answers with a
// configurable reply, streams it as several SSE chunks and answers chosen
// keys with the provider's real quota or authentication error bodies.
package aifake

import (
	"encoding/json"
	"net/http"
	"sync"
	"time"
)

// DefaultReply is what a fake answers until SetReply or SetReplyFunc is
// called.
const DefaultReply = "Hello from the fake model."

// defaultChunks is how many SSE chunks a streamed reply is split into.
const defaultChunks = 3

// Turn is one earlier turn of the dialogue as it arrived on the wire: Role is
// the provider's own ("user"/"model" for Gemini, "user"/"assistant" for
// OpenAI).
type Turn struct {
	Role string
	Text string
}

// Request is what a fake decoded from one call, for assertions.
type Request struct {
	Path    string          // URL path, e.g. /v1beta/models/gemini-2.5-flash:generateContent
	Model   string          // model named in the path (Gemini) or the body (OpenAI)
	Key     string          // the API key as received ("" when none was sent)
	Header  http.Header     // all request headers
	Stream  bool            // a streaming call
	System  string          // the system instruction (texts joined by "\n")
	History []Turn          // earlier turns, oldest first
	Message string          // the last user turn
	Schema  json.RawMessage // the JSON schema the answer must follow, if any
	Format  string          // Gemini responseMimeType, OpenAI response_format.type or encoding_format
	Body    json.RawMessage // the raw request body
	// Input is the texts of an embeddings request, in the order sent.
	Input []string
	// Dimensions is the vector length an embeddings request asked for
	// (OpenAI dimensions, Gemini outputDimensionality); 0 when not given.
	Dimensions int
}

// ReplyFunc computes the reply text for a request.
type ReplyFunc func(Request) string

// keyFault is a per-key answer instead of a reply.
type keyFault int

const (
	faultNone      keyFault = iota
	faultRateLimit          // 429, transient rate limit
	faultQuota              // 429, quota used up
	faultReject             // 401, key refused
	faultInvalid            // 400 API_KEY_INVALID (Gemini's real answer to a bad key)
)

// recorder is the state both fakes share: recorded requests, the reply and
// the per-key faults. Its exported methods are promoted to Gemini and OpenAI.
type recorder struct {
	mu       sync.Mutex
	requests []Request
	reply    ReplyFunc
	chunks   int
	delay    time.Duration
	faults   map[string]keyFault
	failAll  int
	embed    embedState
	stop     chan struct{}
	stopOnce sync.Once
}

func newRecorder() *recorder {
	return &recorder{
		reply:  func(Request) string { return DefaultReply },
		chunks: defaultChunks,
		faults: map[string]keyFault{},
		embed:  embedState{dims: DefaultDimensions},
		stop:   make(chan struct{}),
	}
}

// SetReply makes the fake answer every request with text.
func (r *recorder) SetReply(text string) {
	r.SetReplyFunc(func(Request) string { return text })
}

// SetReplyFunc makes the fake answer each request with f(request).
func (r *recorder) SetReplyFunc(f ReplyFunc) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reply = f
}

// SetChunks sets how many SSE chunks a streamed reply is split into (at most
// one per character; default 3).
func (r *recorder) SetChunks(n int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.chunks = max(n, 1)
}

// SetChunkDelay makes a stream wait d before each chunk after the first, so
// tests can cancel in the middle of a stream. The wait ends early when the
// client goes away or the fake is closed.
func (r *recorder) SetChunkDelay(d time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.delay = d
}

// Reject makes the fake answer 401 with the provider's error body to every
// request with key ("" stands for a request without a key).
func (r *recorder) Reject(key string) { r.setFault(key, faultReject) }

// Restore makes key work again after RateLimit, Reject or another per-key
// fault, as when a provider's quota resets.
func (r *recorder) Restore(key string) { r.setFault(key, faultNone) }

// FailAll makes the fake answer every request with status and the
// provider's error body for it (500, 503, …); 0 returns to normal answers.
func (r *recorder) FailAll(status int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failAll = status
}

// Requests returns a copy of every request received so far, oldest first,
// including the ones answered with an error.
func (r *recorder) Requests() []Request {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Request(nil), r.requests...)
}

// Last returns the latest request, or the zero Request when none arrived.
func (r *recorder) Last() Request {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.requests) == 0 {
		return Request{}
	}
	return r.requests[len(r.requests)-1]
}

func (r *recorder) setFault(key string, f keyFault) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if f == faultNone {
		delete(r.faults, key)
		return
	}
	r.faults[key] = f
}

// plan records req and returns what to answer: an HTTP status to fail with
// (0 for none), the key's fault and the reply split into chunks.
type plan struct {
	status int
	fault  keyFault
	chunks []string
	delay  time.Duration
}

func (r *recorder) record(req Request) plan {
	r.mu.Lock()
	r.requests = append(r.requests, req)
	p := plan{status: r.failAll, fault: r.faults[req.Key], delay: r.delay}
	reply, n := r.reply, r.chunks
	r.mu.Unlock()
	if p.status == 0 && p.fault == faultNone {
		p.chunks = split(reply(req), n)
	}
	return p
}

// wait sleeps d unless the client leaves or the fake closes first; it
// reports whether the stream should go on.
func (r *recorder) wait(req *http.Request, d time.Duration) bool {
	if d <= 0 {
		return req.Context().Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-req.Context().Done():
		return false
	case <-r.stop:
		return false
	}
}

// close releases streams that are waiting, so the server can shut down.
func (r *recorder) close() { r.stopOnce.Do(func() { close(r.stop) }) }

// split cuts text into at most n pieces of nearly equal length, never inside
// a character; an empty text is one empty piece.
func split(text string, n int) []string {
	runes := []rune(text)
	n = max(min(n, len(runes)), 1)
	out := make([]string, 0, n)
	for i := range n {
		lo, hi := i*len(runes)/n, (i+1)*len(runes)/n
		out = append(out, string(runes[lo:hi]))
	}
	return out
}

// writeJSON answers status with v as JSON.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// startSSE answers 200 with the headers of an event stream.
func startSSE(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
}

// writeEvent writes one SSE data event and flushes it to the client.
func writeEvent(w http.ResponseWriter, data []byte, sep string) error {
	if _, err := w.Write([]byte("data: " + string(data) + sep)); err != nil {
		return err
	}
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
	return nil
}
