package logs

import (
	"container/heap"
	"io"
	"strconv"
	"time"
	"unicode/utf8"

	"mediateka/domain"
)

// Limits that keep an analysis' memory flat whatever the file holds:
// every text that becomes a key is cut to maxText bytes first, and each
// map holds a bounded number of them, so the worst case (every line a
// long new message) stays within a few tens of MB (docs/PERFORMANCE.md).
const (
	topTemplates  = 20
	topRequests   = 10
	maxTemplates  = 10_000 // distinct templates counted; more go to "other"
	maxCached     = 10_000 // messages (and paths, requests) whose template is remembered
	maxText       = 256    // bytes of a message, error, path or template kept as a key
	maxLineParsed = 256 << 10
)

// cut is b's first n bytes at most, not splitting a UTF-8 character.
func cut(b []byte, n int) []byte {
	if len(b) <= n {
		return b
	}
	for n > 0 && !utf8.RuneStart(b[n]) {
		n--
	}
	return b[:n]
}

// cutString is cut for a string.
func cutString(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// fields are the raw members of a record the analysis looks at: the
// logger's and the access log's (delivery/http accessLog: msg "http",
// method, path, status, duration_ms, request_id).
type fields struct {
	time, level, msg, err          []byte
	method, path, status, duration []byte
	requestID                      []byte
}

func (f *fields) set(key, val []byte) {
	switch string(key) {
	case "time":
		f.time = val
	case "level":
		f.level = val
	case "msg":
		f.msg = val
	case "err", "error":
		f.err = val
	case "method":
		f.method = val
	case "path":
		f.path = val
	case "status":
		f.status = val
	case "duration_ms":
		f.duration = val
	case "request_id":
		f.requestID = val
	}
}

// tmplStat counts one message template.
type tmplStat struct {
	Template    string
	Level       string
	Count       int
	First, Last time.Time
}

// request is one access-log line, for the slowest requests.
type request struct {
	Time       time.Time
	Method     string
	Path       string
	Status     int
	DurationMS float64
	RequestID  string
}

// analysis accumulates one pass over a file in bounded memory: counters,
// at most maxTemplates templates, a heap of the slowest requests, errors
// by hour, and caches of the templates of messages and routes seen first.
type analysis struct {
	red         *domain.Redactor
	Lines       int
	Records     int
	ByLevel     map[string]int
	templates   map[tmplKey]*tmplStat
	Other       int // lines whose template did not fit
	ErrorsHour  map[time.Time]int
	First, Last time.Time
	slow        slowest
	msgs        map[string]string  // message (and error) → template
	routes      map[string]string  // request path → route template
	requests    map[httpKey]string // access line → template
}

type tmplKey struct{ level, template string }

type httpKey struct {
	method, route string
	status        int
}

func newAnalysis(red *domain.Redactor) *analysis {
	return &analysis{red: red, ByLevel: map[string]int{}, templates: map[tmplKey]*tmplStat{},
		ErrorsHour: map[time.Time]int{}, msgs: map[string]string{}, routes: map[string]string{}, requests: map[httpKey]string{}}
}

// run reads r to its end (or until stopped) line by line.
func (a *analysis) run(r io.Reader, stopped func() bool, progress func(lines int)) error {
	return forEachLine(r, maxLineParsed, func(line []byte) bool {
		a.add(line)
		if a.Lines%100_000 == 0 {
			progress(a.Lines)
			return !stopped()
		}
		return true
	})
}

// add counts one line.
func (a *analysis) add(line []byte) {
	a.Lines++
	var f fields
	if line[0] != '{' || !members(line, &f) {
		a.count("other", a.messageTemplate(line, nil), time.Time{})
		return
	}
	a.Records++
	var t time.Time
	if f.time != nil {
		if pt, ok := parseTime(text(f.time)); ok {
			t = pt
			if a.First.IsZero() || t.Before(a.First) {
				a.First = t
			}
			if t.After(a.Last) {
				a.Last = t
			}
		}
	}
	lvl := levelOf(text(f.level))
	if lvl == "error" && !t.IsZero() {
		a.ErrorsHour[t.Truncate(time.Hour)]++
	}
	msg := text(f.msg)
	if string(msg) == "http" && f.method != nil {
		a.count(lvl, a.request(&f, t), t)
		return
	}
	a.count(lvl, a.messageTemplate(msg, f.err), t)
}

// request notes an access line among the slowest and returns its template
// (http GET /api/media/{n} 200).
func (a *analysis) request(f *fields, t time.Time) string {
	status, dur := int(number(f.status)), number(f.duration)
	path := cut(text(f.path), maxText)
	if a.slow.Len() < topRequests || dur > a.slow[0].DurationMS {
		a.slow.offer(request{Time: t, Method: string(cut(text(f.method), maxText)), Path: string(path), Status: status,
			DurationMS: dur, RequestID: string(cut(text(f.requestID), maxText))})
	}
	route, ok := a.routes[string(path)]
	if !ok {
		route = cutString(RouteTemplate(a.red.Scrub(string(path))), maxText)
		if len(a.routes) < maxCached {
			a.routes[string(path)] = route
		}
	}
	k := httpKey{method: methodOf(cut(text(f.method), 16)), route: route, status: status}
	tmpl, ok := a.requests[k]
	if !ok {
		tmpl = "http " + k.method + " " + route + " " + strconv.Itoa(status)
		if len(a.requests) < maxCached {
			a.requests[k] = tmpl
		}
	}
	return tmpl
}

// messageTemplate is the redacted template of a message and its error
// (raw JSON value; nil when none), remembered for the messages seen first.
// Each is cut to maxText bytes first: messages that differ only further
// on count as one, which is what keeps a file of long unique messages
// from filling memory.
func (a *analysis) messageTemplate(msg, errRaw []byte) string {
	msg = cut(msg, maxText)
	errMsg := cut(text(errRaw), maxText)
	if len(errMsg) == 0 {
		if t, ok := a.msgs[string(msg)]; ok {
			return t
		}
		t := cutString(Template(a.red.Scrub(string(msg))), maxText)
		if len(a.msgs) < maxCached {
			a.msgs[string(msg)] = t
		}
		return t
	}
	key := string(msg) + "\x00" + string(errMsg)
	if t, ok := a.msgs[key]; ok {
		return t
	}
	t := cutString(Template(a.red.Scrub(string(msg))), maxText) + ": " + cutString(Template(a.red.Scrub(string(errMsg))), maxText)
	if len(a.msgs) < maxCached {
		a.msgs[key] = t
	}
	return t
}

func (a *analysis) count(lvl, tmpl string, t time.Time) {
	a.ByLevel[lvl]++
	k := tmplKey{lvl, tmpl}
	st, ok := a.templates[k]
	if !ok {
		if len(a.templates) >= maxTemplates {
			a.Other++
			return
		}
		st = &tmplStat{Template: tmpl, Level: lvl, First: t}
		a.templates[k] = st
	}
	st.Count++
	if !t.IsZero() {
		if st.First.IsZero() || t.Before(st.First) {
			st.First = t
		}
		if t.After(st.Last) {
			st.Last = t
		}
	}
}

// slowest is a min-heap of the slowest requests seen, at most topRequests.
type slowest []request

func (h slowest) Len() int           { return len(h) }
func (h slowest) Less(i, j int) bool { return h[i].DurationMS < h[j].DurationMS }
func (h slowest) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *slowest) Push(x any)        { *h = append(*h, x.(request)) }
func (h *slowest) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

func (h *slowest) offer(r request) {
	if h.Len() < topRequests {
		heap.Push(h, r)
		return
	}
	if r.DurationMS > (*h)[0].DurationMS {
		(*h)[0] = r
		heap.Fix(h, 0)
	}
}
