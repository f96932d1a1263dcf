package app

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/config"
	"mediateka/domain"
	"mediateka/usecase/library"
)

// sseEvent is one parsed Server-Sent Event.
type sseEvent struct {
	name string
	data map[string]any
}

// readEvents parses an SSE stream into ch until it ends.
func readEvents(body *bufio.Reader, ch chan<- sseEvent) {
	defer close(ch)
	var ev sseEvent
	for {
		line, err := body.ReadString('\n')
		if err != nil {
			return
		}
		line = strings.TrimRight(line, "\n")
		switch {
		case strings.HasPrefix(line, "event: "):
			ev.name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			_ = json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &ev.data)
		case line == "" && ev.name != "":
			ch <- ev
			ev = sseEvent{}
		}
	}
}

func TestEventsStreamScanAndAuditInOrder(t *testing.T) {
	t.Parallel()
	la := newLibApp(t, nil)
	la.put(t, libraryFiles())
	addr, stop := runOnLoopback(t, la.testApp)
	stopped := false
	defer func() {
		if !stopped {
			_ = stop()
		}
	}()
	base := "http://" + addr

	resp, err := http.Get(base + "/api/events?token=" + la.user)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, 403, resp.StatusCode, "events are for admins")

	resp, err = http.Get(base + "/api/events?token=" + la.admin)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, "text/event-stream", resp.Header.Get("Content-Type"))
	events := make(chan sseEvent, 64)
	go readEvents(bufio.NewReader(resp.Body), events)

	post := func(path string) {
		req, _ := http.NewRequest("POST", base+path, nil)
		req.Header.Set("Authorization", "Bearer "+la.admin)
		r, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		r.Body.Close()
		require.Less(t, r.StatusCode, 300, path)
	}
	post("/api/media-admin/scan")
	var got []sseEvent
	next := func() sseEvent {
		for {
			select {
			case ev, ok := <-events:
				require.True(t, ok, "the stream ended early")
				if ev.name != "scan_progress" {
					return ev
				}
			case <-time.After(10 * time.Second):
				t.Fatal("no event")
			}
		}
	}
	got = append(got, next(), next())
	post("/api/media-admin/audit")
	got = append(got, next())

	names := []string{got[0].name, got[1].name, got[2].name}
	assert.Equal(t, []string{"scan_started", "scan_completed", "audit_completed"}, names)
	assert.Equal(t, "scan_completed", got[1].data["event"])
	assert.Equal(t, got[0].data["scan_id"], got[1].data["scan_id"])
	assert.EqualValues(t, 6, got[1].data["added"])
	assert.Equal(t, "completed", got[1].data["state"])
	_, err = time.Parse(time.RFC3339Nano, got[1].data["at"].(string))
	assert.NoError(t, err)
	assert.Contains(t, got[2].data, "unregistered_file")

	// Shutting down ends the stream instead of holding the server open.
	done := make(chan error, 1)
	go func() { done <- stop() }()
	stopped = true
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(15 * time.Second):
		t.Fatal("the event stream held the server open")
	}
	for range events {
	}
}

func TestLibraryFolderProblemsAtStart(t *testing.T) {
	t.Parallel()
	gone := filepath.Join(t.TempDir(), "unplugged")
	la := newLibApp(t, func(root string) any {
		return []any{map[string]string{"path": root, "disk": "Disk 1"}, gone}
	})
	assert.Contains(t, la.stderr.String(), "library folder is not available", "a missing folder warns")
	_, st := la.do(t, "GET", "/api/media-admin/scan/status", la.admin, nil)
	roots := st["roots"].([]any)
	require.Len(t, roots, 2)
	missing := roots[1].(map[string]any)
	assert.Equal(t, false, missing["available"])
	assert.Equal(t, "does not exist", missing["problem"])
	assert.Equal(t, "unplugged", missing["disk"])
	assert.Equal(t, "idle", st["state"])
}

func TestInvalidSearchDirsStopsStart(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "search_dirs.json"), []byte(`{"dirs": ["relative/path"]}`), 0o600))
	env := map[string]string{"MEDIATEKA_DATA_DIR": filepath.Join(dir, "data")}
	cfg, _, err := config.Load(filepath.Join(dir, "config.json"), func(k string) (string, bool) { v, ok := env[k]; return v, ok })
	require.NoError(t, err)
	_, err = New(context.Background(), cfg, Options{Version: "test", Stderr: &syncBuffer{}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "not an absolute path")
}

func TestNoSearchDirsMeansNoScan(t *testing.T) {
	t.Parallel()
	ta := newTestApp(t, nil)
	assert.Contains(t, ta.stderr.String(), "search_dirs.json")
	token := ta.login(t, "admin@localhost", ta.initialPassword(t))
	resp, body := ta.do(t, "POST", "/api/media-admin/scan", token, nil)
	assert.Equal(t, 409, resp.StatusCode)
	assert.Equal(t, "no_library_roots", errCode(body))
}

func TestCommandLineScanIsSeenByTheServer(t *testing.T) {
	t.Parallel()
	la := newLibApp(t, nil)
	la.put(t, libraryFiles())
	st, err := Scan(context.Background(), la.cfg, library.ScanRequest{}, time.Second, nil)
	require.NoError(t, err)
	assert.Equal(t, library.StateCompleted, st.State)
	assert.Equal(t, 6, st.Added)

	require.Eventually(t, func() bool {
		resp, _ := la.do(t, "POST", "/api/media/by-title", la.user, map[string]any{"title": "matrix"})
		return resp.StatusCode == 200
	}, 5*time.Second, 100*time.Millisecond, "the server's title index notices another process's writes")

	unlock, ok, err := scanLock(la.cfg).TryLock()
	require.NoError(t, err)
	require.True(t, ok)
	defer unlock()
	_, err = Scan(context.Background(), la.cfg, library.ScanRequest{}, time.Second, nil)
	assert.ErrorIs(t, err, domain.ErrScanRunning, "one scan at a time across processes")
}

func TestMediaOrganizerAnswersInTheChatChain(t *testing.T) {
	t.Parallel()
	la := newLibApp(t, nil)
	la.put(t, libraryFiles())
	la.scan(t)
	answer, plugin := la.plugins.Handle(context.Background(), "Сколько фильмов в библиотеке?")
	assert.Equal(t, "media_organizer", plugin)
	assert.Equal(t, "В библиотеке 2 фильма.", answer)
	answer, plugin = la.plugins.Handle(context.Background(), "tell me a joke")
	assert.Empty(t, answer)
	assert.Empty(t, plugin)
}

// TestOfflineAssistantAnswersFromTheCatalogue asks the chat about a film
// with no AI model configured: the answer must name the real catalogue
// entry, in the language of the question.
func TestOfflineAssistantAnswersFromTheCatalogue(t *testing.T) {
	t.Parallel()
	la := newLibApp(t, nil)
	la.put(t, libraryFiles())
	la.scan(t)

	resp, body := la.do(t, "POST", "/api/chat", la.user, map[string]any{"message": "Есть ли у меня Во все тяжкие или Breaking Bad?"})
	require.Equal(t, 200, resp.StatusCode, "%v", body)
	assert.Equal(t, "model", body["handled_by"])
	assert.Equal(t, "offline", body["model"])
	answer := body["response"].(string)
	assert.Contains(t, answer, "Breaking Bad")
	assert.Contains(t, answer, "2008")
	assert.Contains(t, strings.ToLower(answer), "модель", "it says plainly, in Russian, that no AI model is configured")

	_, body = la.do(t, "POST", "/api/chat", la.user, map[string]any{"message": "do I have The Matrix?"})
	answer = body["response"].(string)
	assert.Contains(t, answer, "Matrix")
	assert.Contains(t, answer, "1999")
	assert.Contains(t, strings.ToLower(answer), "no ai model")
}
