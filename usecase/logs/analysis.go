package logs

import (
	"container/heap"
	"encoding/json"
	"io"
	"strconv"
	"strings"
	"time"

	"mediateka/domain"
)

// Limits that keep an analysis' memory flat whatever the file holds.
const (
	topTemplates  = 20
	topRequests   = 10
	maxTemplates  = 50_000 // distinct templates counted; more go to "other"
	maxCached     = 20_000 // messages whose template is remembered
	maxLineParsed = 256 << 10
)

// record is what the analysis decodes of a JSON line: the logger's fields
// and the access log's (delivery/http accessLog: msg "http", method, path,
// status, duration_ms, request_id).
type record struct {
	Time       time.Time `json:"time"`
	Level      string    `json:"level"`
	Msg        string    `json:"msg"`
	Err        any       `json:"err"`
	Method     string    `json:"method"`
	Path       string    `json:"path"`
	Status     int       `json:"status"`
	DurationMS float64   `json:"duration_ms"`
	RequestID  string    `json:"request_id"`
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
// by hour.
type analysis struct {
	red         *domain.Redactor
	Lines       int
	Records     int
	ByLevel     map[string]int
	templates   map[string]*tmplStat
	Other       int // lines whose template did not fit
	ErrorsHour  map[time.Time]int
	First, Last time.Time
	slow        slowest
	cache       map[string]string
}

func newAnalysis(red *domain.Redactor) *analysis {
	return &analysis{red: red, ByLevel: map[string]int{}, templates: map[string]*tmplStat{},
		ErrorsHour: map[time.Time]int{}, cache: map[string]string{}}
}

// run reads r to its end (or until ctx-like stop returns true) line by line.
func (a *analysis) run(r io.Reader, stopped func() bool, progress func(lines int)) error {
	var rec record
	return forEachLine(r, maxLineParsed, func(line []byte) bool {
		a.add(line, &rec)
		if a.Lines%100_000 == 0 {
			progress(a.Lines)
			return !stopped()
		}
		return true
	})
}

// add counts one line.
func (a *analysis) add(line []byte, rec *record) {
	a.Lines++
	*rec = record{}
	if line[0] != '{' {
		a.count("other", a.templateOf("", string(line), ""), time.Time{})
		return
	}
	if err := json.Unmarshal(line, rec); err != nil && !isTypeError(err) {
		a.count("other", a.templateOf("", string(line), ""), time.Time{})
		return
	}
	a.Records++
	t := rec.Time.UTC()
	if !rec.Time.IsZero() {
		if a.First.IsZero() || t.Before(a.First) {
			a.First = t
		}
		if t.After(a.Last) {
			a.Last = t
		}
	}
	lvl := bucket(levelName(rec.Level))
	if lvl == "error" && !t.IsZero() {
		a.ErrorsHour[t.Truncate(time.Hour)]++
	}
	if rec.Msg == "http" && rec.Method != "" {
		a.slow.offer(request{Time: t, Method: rec.Method, Path: rec.Path, Status: rec.Status,
			DurationMS: rec.DurationMS, RequestID: rec.RequestID})
		a.count(lvl, a.templateOf("http", rec.Method+" "+rec.Path, strconv.Itoa(rec.Status)), t)
		return
	}
	a.count(lvl, a.templateOf(lvl, rec.Msg, errText(rec.Err)), t)
}

func errText(v any) string {
	switch e := v.(type) {
	case nil:
		return ""
	case string:
		return e
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// templateOf is the redacted template of a message (and its error),
// remembered for the messages seen first.
func (a *analysis) templateOf(prefix, msg, errMsg string) string {
	key := prefix + "\x00" + msg + "\x00" + errMsg
	if t, ok := a.cache[key]; ok {
		return t
	}
	var t string
	if prefix == "http" {
		method, path, _ := strings.Cut(msg, " ")
		t = "http " + method + " " + RouteTemplate(a.red.Scrub(path)) + " " + errMsg
	} else if t = Template(a.red.Scrub(msg)); errMsg != "" {
		t += ": " + Template(a.red.Scrub(errMsg))
	}
	if len(a.cache) < maxCached {
		a.cache[key] = t
	}
	return t
}

func (a *analysis) count(lvl, tmpl string, t time.Time) {
	a.ByLevel[lvl]++
	key := lvl + "\x00" + tmpl
	st, ok := a.templates[key]
	if !ok {
		if len(a.templates) >= maxTemplates {
			a.Other++
			return
		}
		st = &tmplStat{Template: tmpl, Level: lvl, First: t}
		a.templates[key] = st
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
