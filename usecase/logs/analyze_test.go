package logs_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/repository/logfile"
	"mediateka/usecase/logs"
)

// knownLog writes messages whose templates and counts are known.
func knownLog(f *fixture) {
	for i := range 30 {
		f.log.Info(fmt.Sprintf("scanned /srv/media/film%d.mkv in %d ms", i, 10+i))
	}
	for i := range 12 {
		f.log.Error(fmt.Sprintf("user %d failed to sign in as user%d@example.org", i, i), "err", fmt.Errorf("bad password for %q", secret))
	}
	for i := range 5 {
		f.log.Warn("torrent stalled", "hash", fmt.Sprintf("%040x", i))
	}
	for i := range 7 {
		f.log.Info("http", "request_id", fmt.Sprintf("r%d", i), "method", "GET", "path", fmt.Sprintf("/api/media/%d", i),
			"query", "token=***", "status", 200, "duration_ms", float64(i)*10.5, "remote", "127.0.0.1")
	}
	f.log.Info("login", "password", secret, "note", "pw was "+secret)
}

func (f *fixture) report(t *testing.T, name string) string {
	t.Helper()
	content, err := f.svc.Report(context.Background(), name)
	require.NoError(t, err)
	return content
}

func TestAnalyzeCountsTemplates(t *testing.T) {
	f := newFixture(t, false)
	knownLog(f)
	name, err := f.svc.Analyze(context.Background(), logfile.ActiveName)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(name, "report_mediateka.log_") && strings.HasSuffix(name, "Z.md"), name)
	ev := f.waitAnalyzed(t, name)
	assert.Equal(t, domain.LogAnalyzed{Filename: logfile.ActiveName, Report: name, State: domain.JobCompleted, Lines: 55,
		Errors: 12, DurationMS: ev.DurationMS}, ev)
	assert.Equal(t, "log_analyzed", ev.EventName())
	r := f.report(t, name)
	for _, row := range []string{
		"| 1 | 30 | info | `scanned {path} in {n} ms` |",
		"| 2 | 12 | error | `user {n} failed to sign in as {email}: bad password for {quoted}` |",
		"| 3 | 7 | info | `http GET /api/media/{n} 200` |",
		"| 4 | 5 | warn | `torrent stalled` |",
		"| info | 38 |", "| error | 12 |", "| warn | 5 |",
		"| 63.0 | GET | `/api/media/6` | 200 |",
	} {
		assert.Contains(t, r, row)
	}
	assert.NotContains(t, r, "## Summary", "no model, no summary")
	assert.NotContains(t, r, secret)
}

// TestNoSecretReachesTheReportOrTheModel: a line the logger did not write
// (a crash trace with the raw secret) is redacted too, in the report and in
// what the model is asked.
func TestNoSecretReachesTheReportOrTheModel(t *testing.T) {
	f := newFixture(t, true)
	knownLog(f)
	f.write(t, "crash.log", "panic: connect with password "+secret+"\n"+`{"time":"2026-01-02T03:04:05Z","level":"ERROR","msg":"boom `+secret+`","token":"`+secret+`"}`+"\n")
	name, err := f.svc.Analyze(context.Background(), "crash.log")
	require.NoError(t, err)
	assert.Equal(t, domain.JobCompleted, f.waitAnalyzed(t, name).State)
	r := f.report(t, name)
	assert.NotContains(t, r, secret)
	assert.Contains(t, r, "Mostly quiet; watch the scan errors.")
	require.Len(t, f.model.prompts, 1)
	assert.NotContains(t, f.model.prompts[0].Message, secret)
	assert.Contains(t, f.model.prompts[0].Message, "panic: connect with password ***")
}

func TestOneAnalysisPerFileAtATime(t *testing.T) {
	f := newFixture(t, true)
	knownLog(f)
	f.write(t, "other.log", "x\n")
	f.model.hold = make(chan struct{})
	first, err := f.svc.Analyze(context.Background(), logfile.ActiveName)
	require.NoError(t, err)
	_, err = f.svc.Analyze(context.Background(), logfile.ActiveName)
	assert.ErrorIs(t, err, logs.ErrAnalysisRunning)
	other, err := f.svc.Analyze(context.Background(), "other.log")
	require.NoError(t, err, "another file may be analysed meanwhile")
	close(f.model.hold)
	f.waitAnalyzed(t, first)
	f.waitAnalyzed(t, other)
	_, err = f.svc.Analyze(context.Background(), logfile.ActiveName)
	require.NoError(t, err, "free again once done")

	_, err = f.svc.Analyze(context.Background(), "absent.log")
	assert.ErrorIs(t, err, domain.ErrLogFileNotFound)
	_, err = f.svc.Analyze(context.Background(), "..")
	assert.ErrorIs(t, err, domain.ErrInvalidFilename)
}

func TestAFailingModelLeavesANote(t *testing.T) {
	f := newFixture(t, false)
	f.log.Info("x")
	svc := logs.New(f.dir, failing{}, logs.Options{Events: f.events})
	name, err := svc.Analyze(context.Background(), logfile.ActiveName)
	require.NoError(t, err)
	ev := f.waitAnalyzed(t, name)
	assert.Equal(t, domain.JobCompleted, ev.State)
	assert.False(t, ev.AISummary)
	assert.Contains(t, f.report(t, name), "No AI summary: the model (test/failing) did not answer.")
}

type failing struct{}

func (failing) Name() string { return "test/failing" }
func (failing) Generate(context.Context, domain.Prompt) (string, error) {
	return "", errors.New("upstream said: key AIza-leaky is invalid")
}
func (failing) Stream(context.Context, domain.Prompt, func(string) error) error {
	return errors.New("no")
}

func TestReportsNewestFirst(t *testing.T) {
	f := newFixture(t, false)
	f.log.Info("x")
	clock := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	svc := logs.New(f.dir, nil, logs.Options{Events: f.events, Now: func() time.Time { return clock }})
	var made []string
	for range 3 {
		name, err := svc.Analyze(context.Background(), logfile.ActiveName)
		require.NoError(t, err)
		f.waitAnalyzed(t, name)
		made = append(made, name)
		clock = clock.Add(time.Second)
	}
	reports, err := svc.Reports(context.Background())
	require.NoError(t, err)
	var names []string
	for _, r := range reports {
		names = append(names, r.Name)
	}
	assert.Equal(t, []string{made[2], made[1], made[0]}, names)
	st, err := svc.Stats(context.Background())
	require.NoError(t, err)
	assert.Equal(t, 3, st.ReportCount)
	_, err = svc.Report(context.Background(), "report_absent.md")
	assert.ErrorIs(t, err, domain.ErrLogFileNotFound)
}

func TestErrorsPerHourAndOccurrences(t *testing.T) {
	f := newFixture(t, false)
	f.write(t, "fixed.log", `{"time":"2026-01-02T03:04:05Z","level":"ERROR","msg":"disk 1 failed"}
{"time":"2026-01-02T03:59:00Z","level":"ERROR","msg":"disk 2 failed"}
{"time":"2026-01-02T05:00:00Z","level":"ERROR","msg":"disk 3 failed"}
{"time":"2026-01-02T05:30:00Z","level":"INFO","msg":"ok"}
a line that is not JSON
`)
	name, err := f.svc.Analyze(context.Background(), "fixed.log")
	require.NoError(t, err)
	f.waitAnalyzed(t, name)
	r := f.report(t, name)
	for _, want := range []string{
		"| 2026-01-02 03:00 | 2 |\n| 2026-01-02 05:00 | 1 |",
		"| 1 | 3 | error | `disk {n} failed` | 2026-01-02T03:04:05Z | 2026-01-02T05:00:00Z |",
		"| other | 1 |",
		"- Lines: 5 (4 JSON records, 1 other)",
		"- First record: 2026-01-02T03:04:05Z\n- Last record: 2026-01-02T05:30:00Z",
	} {
		assert.Contains(t, r, want)
	}
}

// TestAnalyzeRefusals: once the server stops, an analysis is 503, not a
// conflict with a running one; a name whose report name would pass 255
// bytes is refused before anything runs; a link to a folder is no file.
func TestAnalyzeRefusals(t *testing.T) {
	f := newFixture(t, false)
	fits := strings.Repeat("a", 224-len(".log")) + ".log"
	tooLong := "b" + fits
	f.write(t, fits, "x\n")
	f.write(t, tooLong, "x\n")
	report, err := f.svc.Analyze(context.Background(), fits)
	require.NoError(t, err)
	assert.Len(t, report, 255)
	assert.Equal(t, domain.JobCompleted, f.waitAnalyzed(t, report).State, "a report name of 255 bytes is written")
	_, err = f.svc.Analyze(context.Background(), tooLong)
	assert.Equal(t, domain.KindInvalid, domain.KindOf(err), "%v", err)

	require.NoError(t, os.Symlink(logfile.ReportsFolder, filepath.Join(f.dir.Path(), "dir.log")))
	_, err = f.svc.Analyze(context.Background(), "dir.log")
	assert.ErrorIs(t, err, domain.ErrLogFileNotFound)
	_, err = f.svc.Read(context.Background(), logs.Query{Filename: "dir.log", Tail: 10})
	assert.ErrorIs(t, err, domain.ErrLogFileNotFound)
	_, err = f.svc.Clear(context.Background(), "dir.log")
	assert.ErrorIs(t, err, domain.ErrLogFileNotFound)

	require.NoError(t, f.svc.Stop(context.Background()))
	_, err = f.svc.Analyze(context.Background(), fits)
	assert.Equal(t, domain.KindUnavailable, domain.KindOf(err), "%v", err)
}
