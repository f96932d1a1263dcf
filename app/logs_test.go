package app

import (
	"bytes"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/repository/aimodel/aifake"
	"mediateka/usecase/event"
)

// logsRoutes are every route of API.md §9.
var logsRoutes = []struct{ method, path string }{
	{"GET", "/api/logs/files"}, {"GET", "/api/logs/read?filename=mediateka.log"},
	{"DELETE", "/api/logs/clear?filename=mediateka.log"}, {"POST", "/api/logs/analyze"},
	{"GET", "/api/logs/reports"}, {"GET", "/api/logs/report?filename=x.md"}, {"GET", "/api/logs/stats"},
}

func TestLogsAreForAdminsOnly(t *testing.T) {
	t.Parallel()
	ta := newTestApp(t, nil)
	_, user := ta.tokens(t)
	for _, r := range logsRoutes {
		resp, body := ta.do(t, r.method, r.path, "", nil)
		assert.Equal(t, 401, resp.StatusCode, "%s %s", r.method, r.path)
		assert.Equal(t, "unauthorized", errCode(body))
		resp, body = ta.do(t, r.method, r.path, user, nil)
		assert.Equal(t, 403, resp.StatusCode, "%s %s", r.method, r.path)
		assert.Equal(t, "forbidden", errCode(body))
	}
	st, err := os.Stat(filepath.Join(ta.cfg.LogDir, "mediateka.log"))
	require.NoError(t, err)
	assert.Positive(t, st.Size(), "a refused clear cleared nothing")
}

func TestLogsRefuseFilenameTricks(t *testing.T) {
	t.Parallel()
	ta := newTestApp(t, nil)
	admin, _ := ta.tokens(t)
	outside := filepath.Join(t.TempDir(), "outside.log")
	require.NoError(t, os.WriteFile(outside, []byte("private\n"), 0o600))
	require.NoError(t, os.Symlink(outside, filepath.Join(ta.cfg.LogDir, "link.log")))
	require.NoError(t, os.Symlink(outside, filepath.Join(ta.cfg.LogDir, "reports", "link.log")))
	tricks := map[string]string{ // query-encoded file names
		"dot dot":          "..",
		"parent":           "..%2Fdata%2Fjwt_secret.log",
		"absolute":         "%2Fvar%2Flog%2Fsyslog.log",
		"encoded dots":     "%252e%252e%252fmediateka.log",
		"%2e%2e":           "%2e%2e%2fmediateka.log",
		"backslash":        "logs%5Cmediateka.log",
		"NUL":              "mediateka.log%00.txt",
		"symlink out":      "link.log",
		"wrong suffix":     "mediateka.db",
		"hidden temporary": ".report-1.tmp",
	}
	for why, name := range tricks {
		t.Run(why, func(t *testing.T) {
			for _, path := range []string{"/api/logs/read?filename=", "/api/logs/report?filename=", "/api/logs/clear?filename="} {
				method := map[bool]string{true: "DELETE", false: "GET"}[strings.Contains(path, "clear")]
				resp, body := ta.do(t, method, path+name, admin, nil)
				if why == "encoded dots" { // decoded once: the bare name %2e%2e%2fmediateka.log, no such file
					assert.Equal(t, 404, resp.StatusCode, "%s%s", path, name)
					continue
				}
				assert.Equal(t, 400, resp.StatusCode, "%s%s", path, name)
				assert.Equal(t, "invalid_filename", errCode(body), "%s%s", path, name)
			}
			plain, err := url.QueryUnescape(name)
			require.NoError(t, err)
			resp, body := ta.do(t, "POST", "/api/logs/analyze", admin, map[string]string{"filename": plain})
			if why == "encoded dots" {
				assert.Equal(t, 404, resp.StatusCode)
				return
			}
			assert.Equal(t, 400, resp.StatusCode)
			assert.Equal(t, "invalid_filename", errCode(body))
		})
	}
	b, err := os.ReadFile(outside)
	require.NoError(t, err)
	assert.Equal(t, "private\n", string(b), "the file behind the link is untouched")
	resp, body := ta.do(t, "GET", "/api/logs/read?filename=absent.log", admin, nil)
	assert.Equal(t, 404, resp.StatusCode)
	assert.Equal(t, "not_found", errCode(body))
	resp, _ = ta.do(t, "POST", "/api/logs/analyze", admin, map[string]string{"filename": "absent.log"})
	assert.Equal(t, 404, resp.StatusCode)
	resp, body = ta.do(t, "GET", "/api/logs/read?filename=mediateka.log&tail=many", admin, nil)
	assert.Equal(t, 400, resp.StatusCode)
	assert.Equal(t, "invalid_input", errCode(body))

	// No filename at all: which field is missing.
	for _, call := range []struct{ method, path string }{{"GET", "/api/logs/read"}, {"GET", "/api/logs/report?filename="}, {"POST", "/api/logs/analyze"}} {
		var payload any
		if call.method == "POST" {
			payload = map[string]any{}
		}
		resp, body = ta.do(t, call.method, call.path, admin, payload)
		assert.Equal(t, 400, resp.StatusCode, call.path)
		assert.Equal(t, "invalid_input", errCode(body), call.path)
		assert.Contains(t, body["error"].(map[string]any)["fields"], "filename", call.path)
	}
}

// TestLogsTailOfA50MBFile: the server's own logger writes 50 MB; the tail
// is exactly the last lines it wrote, in order.
func TestLogsTailOfA50MBFile(t *testing.T) {
	t.Parallel()
	ta := newTestApp(t, map[string]string{"MEDIATEKA_LOG__MAX_SIZE_MB": "200"})
	admin, _ := ta.tokens(t)
	pad := strings.Repeat("p", 2000)
	const n = 26_000
	for i := range n {
		ta.Logger().Info(fmt.Sprintf("line %06d", i), "pad", pad)
	}
	st, err := os.Stat(filepath.Join(ta.cfg.LogDir, "mediateka.log"))
	require.NoError(t, err)
	require.Greater(t, st.Size(), int64(50<<20))
	ta.stderr.mu.Lock()
	ta.stderr.b.Reset() // the copy on stderr is not needed
	ta.stderr.mu.Unlock()

	resp, body := ta.do(t, "GET", "/api/logs/read?filename=mediateka.log&tail=300&q=line+0", admin, nil)
	require.Equal(t, 200, resp.StatusCode, "%v", body)
	lines := body["lines"].([]any)
	require.Len(t, lines, 300)
	assert.EqualValues(t, 300, body["returned_lines"])
	for i, l := range lines {
		line := l.(map[string]any)
		assert.Equal(t, fmt.Sprintf("line %06d", n-300+i), line["msg"])
		assert.Equal(t, "info", line["level"])
		assert.Equal(t, pad, line["attrs"].(map[string]any)["pad"])
		assert.NotNil(t, line["time"])
	}
	assert.Greater(t, body["total_lines"].(float64), float64(n), "every line of the file, the start-up's too")

	// Without tail: the last 500 lines.
	resp, body = ta.do(t, "GET", "/api/logs/read?filename=mediateka.log&q=line+0", admin, nil)
	require.Equal(t, 200, resp.StatusCode, "%v", body)
	lines = body["lines"].([]any)
	require.Len(t, lines, 500)
	assert.Equal(t, fmt.Sprintf("line %06d", n-1), lines[499].(map[string]any)["msg"])

	// A line that is not JSON comes as it is, the parsed fields null.
	active, err := os.OpenFile(filepath.Join(ta.cfg.LogDir, "mediateka.log"), os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = active.WriteString("panic: not json at all\n")
	require.NoError(t, err)
	require.NoError(t, active.Close())
	resp, body = ta.do(t, "GET", "/api/logs/read?filename=mediateka.log&tail=1&q=not+json", admin, nil)
	require.Equal(t, 200, resp.StatusCode, "%v", body)
	assert.Equal(t, []any{map[string]any{"time": nil, "level": nil, "msg": nil, "attrs": nil, "raw": "panic: not json at all"}}, body["lines"])
}

// TestLogsClearThenTheLoggerKeepsWriting: after DELETE /clear the
// server's logger (the access log of that very request, and later lines)
// writes into the same file from offset 0.
func TestLogsClearThenTheLoggerKeepsWriting(t *testing.T) {
	t.Parallel()
	ta := newTestApp(t, nil)
	admin, _ := ta.tokens(t)
	path := filepath.Join(ta.cfg.LogDir, "mediateka.log")
	for i := range 200 {
		ta.Logger().Info("before the clear", "i", i)
	}
	before, err := os.Stat(path)
	require.NoError(t, err)
	resp, body := ta.do(t, "DELETE", "/api/logs/clear?filename=mediateka.log", admin, nil)
	require.Equal(t, 200, resp.StatusCode, "%v", body)
	assert.Equal(t, []any{"mediateka.log"}, body["cleared"])
	ta.Logger().Warn("after the clear")

	got, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.True(t, bytes.HasPrefix(got, []byte(`{"time":"`)), "starts with a record: %q", got[:min(40, len(got))])
	assert.False(t, bytes.Contains(got, []byte{0}), "no hole of NULs")
	assert.NotContains(t, string(got), "before the clear")
	assert.Contains(t, string(got), "after the clear")
	after, err := os.Stat(path)
	require.NoError(t, err)
	assert.True(t, os.SameFile(before, after), "the same file")

	resp, body = ta.do(t, "GET", "/api/logs/read?filename=mediateka.log&tail=50", admin, nil)
	require.Equal(t, 200, resp.StatusCode)
	var msgs []string
	for _, l := range body["lines"].([]any) {
		msgs = append(msgs, fmt.Sprint(l.(map[string]any)["msg"]))
	}
	assert.Contains(t, msgs, "after the clear")
	assert.Contains(t, msgs, "http", "the clear's own access line is in the cleared file")

	resp, body = ta.do(t, "DELETE", "/api/logs/clear", admin, nil)
	require.Equal(t, 200, resp.StatusCode)
	assert.Contains(t, body["cleared"], "mediateka.log", "without a name: every file")
	ta.Logger().Info("still here")
	got, err = os.ReadFile(path)
	require.NoError(t, err)
	assert.True(t, bytes.HasPrefix(got, []byte(`{"time":"`)))
	assert.False(t, bytes.Contains(got, []byte{0}))
}

// waitAnalyzed waits on the bus for the end of the analysis writing report.
func waitAnalyzed(t *testing.T, sub *event.Subscription, report string) domain.LogAnalyzed {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		select {
		case m := <-sub.C():
			if e, ok := m.Event.(domain.LogAnalyzed); ok && e.Report == report {
				return e
			}
		case <-deadline:
			t.Fatalf("no log_analyzed for %s", report)
		}
	}
}

// TestLogsAnalyzeWithAModel: known repeated messages give their template
// counts; the secret the logger redacts appears neither in the report nor
// in what the model was sent, even from a line the logger did not write;
// a second analysis of the file while one runs is 409.
func TestLogsAnalyzeWithAModel(t *testing.T) {
	t.Parallel()
	fake := aifake.NewGemini(t)
	release := make(chan struct{})
	fake.SetReplyFunc(func(aifake.Request) string { <-release; return "Quiet day; two kinds of errors." })
	ta := newTestApp(t, geminiEnv(fake))
	admin, _ := ta.tokens(t)
	resp, _ := ta.do(t, "POST", "/api/keys", admin, map[string]any{"key_name": "main", "api_key": secretA})
	require.Equal(t, 201, resp.StatusCode)
	secret := ta.cfg.JWTSecret
	for i := range 25 {
		ta.Logger().Info(fmt.Sprintf("scanned /srv/media/film%d.mkv in %d ms", i, 100+i))
	}
	for i := range 9 {
		ta.Logger().Error("sign-in failed for "+fmt.Sprintf("user%d@example.org", i), "err", "token "+secret+" rejected")
	}
	f, err := os.OpenFile(filepath.Join(ta.cfg.LogDir, "mediateka.log"), os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, _ = f.WriteString("panic: crashed holding " + secret + "\n")
	require.NoError(t, f.Close())

	sub := ta.lib.events.Subscribe(64)
	defer sub.Close()
	resp, body := ta.do(t, "POST", "/api/logs/analyze", admin, map[string]string{"filename": "mediateka.log"})
	require.Equal(t, 202, resp.StatusCode, "%v", body)
	assert.Equal(t, "started", body["status"])
	report := body["report"].(string)
	resp, body = ta.do(t, "POST", "/api/logs/analyze", admin, map[string]string{"filename": "mediateka.log"})
	assert.Equal(t, 409, resp.StatusCode)
	assert.Equal(t, "analysis_running", errCode(body))
	close(release)
	ev := waitAnalyzed(t, sub, report)
	assert.Equal(t, domain.JobCompleted, ev.State)
	assert.True(t, ev.AISummary)
	assert.Equal(t, 9, ev.Errors)

	resp, body = ta.do(t, "GET", "/api/logs/report?filename="+url.QueryEscape(report), admin, nil)
	require.Equal(t, 200, resp.StatusCode, "%v", body)
	content := body["content"].(string)
	assert.Regexp(t, regexp.MustCompile("\\| \\d+ \\| 25 \\| info \\| `scanned \\{path\\} in \\{n\\} ms` \\|"), content)
	assert.Regexp(t, regexp.MustCompile("\\| \\d+ \\| 9 \\| error \\| `sign-in failed for \\{email\\}: token \\*\\*\\* rejected` \\|"), content)
	assert.Contains(t, content, "Quiet day; two kinds of errors.")
	assert.NotContains(t, content, secret)
	raw, err := os.ReadFile(filepath.Join(ta.cfg.LogDir, "reports", report))
	require.NoError(t, err)
	assert.NotContains(t, string(raw), secret)
	sent := fake.Requests()
	require.NotEmpty(t, sent)
	for _, r := range sent {
		assert.NotContains(t, r.Message, secret)
		assert.NotContains(t, r.System, secret)
	}
	assert.Contains(t, sent[len(sent)-1].Message, "scanned {path} in {n} ms")
}

func TestLogsReportsNewestFirstAndStats(t *testing.T) {
	t.Parallel()
	ta := newTestApp(t, nil)
	admin, _ := ta.tokens(t)
	ta.Logger().Error("one error", "err", "disk gone")
	ta.Logger().Warn("one warning")
	for _, q := range []string{"level=error", "level=warn&q=DISK", "q=disk+gone&since=2000-01-01T00:00:00+00:00",
		"level=error&since=2000-01-01T00:00:00%2B03:00&until=2999-01-01T00:00:00Z"} {
		resp, body := ta.do(t, "GET", "/api/logs/read?filename=mediateka.log&"+q, admin, nil)
		require.Equal(t, 200, resp.StatusCode, "%s: %v", q, body)
		lines := body["lines"].([]any)
		require.Len(t, lines, 1, q)
		line := lines[0].(map[string]any)
		assert.Equal(t, "one error", line["msg"], q)
		assert.Equal(t, "error", line["level"], q)
		assert.Equal(t, map[string]any{"err": "disk gone"}, line["attrs"], q)
	}
	resp, body := ta.do(t, "GET", "/api/logs/read?filename=mediateka.log&level=warn", admin, nil)
	require.Equal(t, 200, resp.StatusCode)
	warned := body["lines"].([]any)
	require.GreaterOrEqual(t, len(warned), 2)
	var levels []any
	for _, l := range warned {
		levels = append(levels, l.(map[string]any)["level"])
	}
	assert.NotContains(t, levels, "info", "a minimum level: warnings (the start-up's too) and errors")
	assert.Equal(t, []any{"error", "warn"}, levels[len(levels)-2:])
	resp, body = ta.do(t, "GET", "/api/logs/read?filename=mediateka.log&since=yesterday", admin, nil)
	assert.Equal(t, 400, resp.StatusCode)
	assert.Equal(t, "invalid_input", errCode(body))
	sub := ta.lib.events.Subscribe(64)
	defer sub.Close()
	var made []string
	for range 3 {
		resp, body := ta.do(t, "POST", "/api/logs/analyze", admin, map[string]string{"filename": "mediateka.log"})
		require.Equal(t, 202, resp.StatusCode, "%v", body)
		made = append(made, body["report"].(string))
		waitAnalyzed(t, sub, made[len(made)-1])
		time.Sleep(5 * time.Millisecond) // distinct report times
	}
	resp, body = ta.do(t, "GET", "/api/logs/reports", admin, nil)
	require.Equal(t, 200, resp.StatusCode)
	var names []any
	for _, r := range body["reports"].([]any) {
		names = append(names, r.(map[string]any)["name"])
	}
	assert.Equal(t, []any{made[2], made[1], made[0]}, names)
	assert.EqualValues(t, 3, body["count"])

	resp, body = ta.do(t, "GET", "/api/logs/files", admin, nil)
	require.Equal(t, 200, resp.StatusCode)
	files := body["files"].([]any)
	require.Len(t, files, 1, "the reports folder is not a log file")
	assert.Equal(t, "mediateka.log", files[0].(map[string]any)["name"])
	assert.Positive(t, files[0].(map[string]any)["size"])

	resp, body = ta.do(t, "GET", "/api/logs/stats", admin, nil)
	require.Equal(t, 200, resp.StatusCode)
	assert.EqualValues(t, 3, body["report_count"])
	assert.EqualValues(t, 1, body["file_count"])
	assert.EqualValues(t, 1, body["errors_last_24h"])
	byLevel := body["by_level"].(map[string]any)
	assert.EqualValues(t, 1, byLevel["error"])
	assert.EqualValues(t, len(warned)-1, byLevel["warn"], "the same warnings as the read")
	assert.Positive(t, byLevel["info"], "the start-up and the requests")
	assert.Positive(t, body["total_size_bytes"])
	// The one error, in the hour under way: the last of 24, oldest first.
	perHour := body["errors_per_hour"].(map[string]any)
	hours, counts := perHour["hours"].([]any), perHour["counts"].([]any)
	require.Len(t, hours, 24)
	require.Len(t, counts, 24)
	last, err := time.Parse(time.RFC3339, hours[23].(string))
	require.NoError(t, err)
	first, err := time.Parse(time.RFC3339, hours[0].(string))
	require.NoError(t, err)
	assert.Equal(t, 23*time.Hour, last.Sub(first))
	assert.Equal(t, time.Now().UTC().Truncate(time.Hour), last)
	assert.EqualValues(t, 1, counts[23])
	sum := 0.0
	for _, n := range counts {
		sum += n.(float64)
	}
	assert.EqualValues(t, 1, sum)
}
