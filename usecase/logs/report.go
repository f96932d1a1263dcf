package logs

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// reportHeader is what the report says about the run itself.
type reportHeader struct {
	File     string
	Size     int64
	Started  time.Time
	Duration time.Duration
	Summary  string // the AI summary, "" when none
	Note     string // why there is no summary, "" when none was expected
}

// levelOrder is the order levels appear in tables.
var levelOrder = []string{"error", "warn", "info", "debug", "other"}

// body writes the statistics part of the report: what goes to the model
// too, so it is written (and redacted) once.
func (a *analysis) body(w io.Writer) {
	fmt.Fprintf(w, "## Lines per level\n\n| Level | Lines |\n|---|---:|\n")
	for _, l := range levelOrder {
		if n := a.ByLevel[l]; n > 0 {
			fmt.Fprintf(w, "| %s | %d |\n", l, n)
		}
	}
	fmt.Fprintf(w, "\n## Top %d recurring messages\n\n", topTemplates)
	fmt.Fprintf(w, "| # | Count | Level | Message template | First | Last |\n|---:|---:|---|---|---|---|\n")
	for i, st := range a.top() {
		fmt.Fprintf(w, "| %d | %d | %s | `%s` | %s | %s |\n", i+1, st.Count, st.Level, cell(a.red.Scrub(st.Template)), when(st.First), when(st.Last))
	}
	if a.Other > 0 {
		fmt.Fprintf(w, "\n%d more lines had templates beyond the %d counted.\n", a.Other, maxTemplates)
	}
	a.errorsPerHour(w)
	a.slowRequests(w)
}

// top is the topTemplates most frequent templates, ties by first seen.
func (a *analysis) top() []*tmplStat {
	all := make([]*tmplStat, 0, len(a.templates))
	for _, st := range a.templates {
		all = append(all, st)
	}
	slices.SortFunc(all, func(x, y *tmplStat) int {
		return cmp.Or(cmp.Compare(y.Count, x.Count), x.First.Compare(y.First), strings.Compare(x.Template, y.Template))
	})
	return all[:min(len(all), topTemplates)]
}

func (a *analysis) errorsPerHour(w io.Writer) {
	fmt.Fprintf(w, "\n## Errors per hour (UTC)\n\n")
	if len(a.ErrorsHour) == 0 {
		fmt.Fprintf(w, "No errors.\n")
		return
	}
	hours := make([]time.Time, 0, len(a.ErrorsHour))
	for h := range a.ErrorsHour {
		hours = append(hours, h)
	}
	slices.SortFunc(hours, time.Time.Compare)
	fmt.Fprintf(w, "| Hour | Errors |\n|---|---:|\n")
	for _, h := range hours {
		fmt.Fprintf(w, "| %s | %d |\n", h.Format("2006-01-02 15:00"), a.ErrorsHour[h])
	}
}

func (a *analysis) slowRequests(w io.Writer) {
	fmt.Fprintf(w, "\n## Slowest requests\n\n")
	if len(a.slow) == 0 {
		fmt.Fprintf(w, "No access-log lines.\n")
		return
	}
	reqs := slices.Clone(a.slow)
	slices.SortFunc(reqs, func(x, y request) int { return cmp.Compare(y.DurationMS, x.DurationMS) })
	fmt.Fprintf(w, "| Duration (ms) | Method | Path | Status | Time | Request id |\n|---:|---|---|---:|---|---|\n")
	for _, r := range reqs {
		fmt.Fprintf(w, "| %.1f | %s | `%s` | %d | %s | %s |\n", r.DurationMS, cell(r.Method),
			cell(a.red.Scrub(r.Path)), r.Status, when(r.Time), cell(r.RequestID))
	}
}

// write writes the whole report: header, summary, body.
func (a *analysis) write(w io.Writer, h reportHeader, body []byte) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# Log analysis: %s\n\n", cell(h.File))
	fmt.Fprintf(&b, "- File: `%s` (%d bytes)\n- Analysed: %s in %s\n", cell(h.File), h.Size,
		h.Started.UTC().Format(time.RFC3339), h.Duration.Round(time.Millisecond))
	fmt.Fprintf(&b, "- Lines: %d (%d JSON records, %d other)\n", a.Lines, a.Records, a.Lines-a.Records)
	fmt.Fprintf(&b, "- First record: %s\n- Last record: %s\n\n", when(a.First), when(a.Last))
	if h.Summary != "" {
		fmt.Fprintf(&b, "## Summary\n\n%s\n\n", strings.TrimSpace(a.red.Scrub(h.Summary)))
	} else if h.Note != "" {
		fmt.Fprintf(&b, "## Summary\n\n%s\n\n", h.Note)
	}
	b.Write(body)
	_, err := w.Write([]byte(a.red.Scrub(b.String())))
	return err
}

func when(t time.Time) string {
	if t.IsZero() {
		return "–"
	}
	return t.UTC().Format(time.RFC3339)
}

// cell keeps a value inside one Markdown table cell and code span.
func cell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ", "\r", " ", "`", "'").Replace(s)
}
