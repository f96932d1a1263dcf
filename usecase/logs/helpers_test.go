package logs_test

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/repository/logfile"
	"mediateka/usecase/logs"
)

// secret is a value the logger knows to redact.
const secret = "s3cr3t-jwt-value-0123456789"

// fixture is a real log folder written by the server's own logger.
type fixture struct {
	log    *slog.Logger
	dir    *logfile.Dir
	svc    *logs.Service
	events *events
	model  *model
}

func newFixture(t *testing.T, withModel bool) *fixture {
	t.Helper()
	path := t.TempDir()
	red := domain.NewRedactor([]string{secret})
	log, w, err := logfile.NewLogger(logfile.Options{Dir: path, Level: "debug", MaxSizeMB: 100, MaxBackups: 2, Redactor: red})
	require.NoError(t, err)
	t.Cleanup(func() { _ = w.Close() })
	dir, err := logfile.NewDir(path, w)
	require.NoError(t, err)
	f := &fixture{log: log, dir: dir, events: &events{}}
	var m domain.AIModel
	if withModel {
		f.model = &model{reply: "Mostly quiet; watch the scan errors."}
		m = f.model
	}
	f.svc = logs.New(dir, m, logs.Options{Redactor: red, Events: f.events})
	t.Cleanup(func() { _ = f.svc.Stop(context.Background()) })
	return f
}

// write puts a file of content into the folder.
func (f *fixture) write(t *testing.T, name, content string) {
	t.Helper()
	require.NoError(t, os.WriteFile(filepath.Join(f.dir.Path(), name), []byte(content), 0o600))
}

// waitAnalyzed waits for the end event of the analysis writing report.
func (f *fixture) waitAnalyzed(t *testing.T, report string) domain.LogAnalyzed {
	t.Helper()
	var got domain.LogAnalyzed
	require.Eventually(t, func() bool {
		for _, e := range f.events.all() {
			if a, ok := e.(domain.LogAnalyzed); ok && a.Report == report {
				got = a
				return true
			}
		}
		return false
	}, 30*time.Second, 5*time.Millisecond)
	return got
}

type events struct {
	mu  sync.Mutex
	out []domain.Event
}

func (e *events) Publish(ev domain.Event) { e.mu.Lock(); e.out = append(e.out, ev); e.mu.Unlock() }
func (e *events) all() []domain.Event {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]domain.Event(nil), e.out...)
}

// model is the AI model port: it records prompts and may hold its answer
// until released, to keep an analysis running.
type model struct {
	mu      sync.Mutex
	reply   string
	prompts []domain.Prompt
	hold    chan struct{}
}

func (m *model) Name() string { return "test/model" }
func (m *model) Generate(ctx context.Context, p domain.Prompt) (string, error) {
	m.mu.Lock()
	m.prompts = append(m.prompts, p)
	hold := m.hold
	m.mu.Unlock()
	if hold != nil {
		select {
		case <-hold:
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
	return m.reply, nil
}
func (m *model) Stream(ctx context.Context, p domain.Prompt, emit func(string) error) error {
	s, err := m.Generate(ctx, p)
	if err != nil {
		return err
	}
	return emit(s)
}
