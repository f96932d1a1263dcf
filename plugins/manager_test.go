package plugins

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
)

// recorder collects lifecycle calls across test plugins, in order.
type recorder struct {
	mu    sync.Mutex
	calls []string
}

func (r *recorder) add(s string) { r.mu.Lock(); r.calls = append(r.calls, s); r.mu.Unlock() }

// testPlugin answers messages that contain its keyword.
type testPlugin struct {
	name, keyword string
	rec           *recorder
	setupOK       bool
	handleErr     error
	cfg           struct {
		Greeting string `json:"greeting"`
	}
	model domain.AIModel
}

func (p *testPlugin) Name() string        { return p.name }
func (p *testPlugin) Description() string { return "test plugin " + p.name }
func (p *testPlugin) Handle(_ context.Context, msg string) (string, error) {
	p.rec.add("handle:" + p.name)
	if p.handleErr != nil {
		return "", p.handleErr
	}
	if strings.Contains(msg, p.keyword) {
		return p.cfg.Greeting + p.name, nil
	}
	return "", nil
}
func (p *testPlugin) Setup(context.Context) (bool, error) {
	p.rec.add("setup:" + p.name)
	return p.setupOK, nil
}
func (p *testPlugin) Start(context.Context) error         { p.rec.add("start:" + p.name); return nil }
func (p *testPlugin) Stop(context.Context) error          { p.rec.add("stop:" + p.name); return nil }
func (p *testPlugin) Teardown(context.Context) error      { p.rec.add("teardown:" + p.name); return nil }
func (p *testPlugin) Configure(raw json.RawMessage) error { return json.Unmarshal(raw, &p.cfg) }

func entry(rec *recorder, name, keyword string, mutate ...func(*testPlugin)) Entry {
	return Entry{Name: name, Factory: func(d Deps) domain.Plugin {
		p := &testPlugin{name: name, keyword: keyword, rec: rec, setupOK: true, model: d.Model}
		for _, m := range mutate {
			m(p)
		}
		return p
	}}
}

func TestRegistryOrderIsTheSpecs(t *testing.T) {
	rec := &recorder{}
	// Registered out of order on purpose: the manager must sort by the spec.
	m := NewManager([]Entry{entry(rec, "torrent_search", "x"), entry(rec, "telegram", "x"), entry(rec, "rag", "x"),
		entry(rec, "torrents", "x"), entry(rec, "media_organizer", "x"), entry(rec, "media_layer", "x")}, Deps{}, Options{})
	var names []string
	for _, st := range m.List() {
		names = append(names, st.Name)
	}
	assert.Equal(t, Order(), names)
	assert.Equal(t, []string{"media_layer", "media_organizer", "torrents", "rag", "telegram", "torrent_search"}, names)
}

func TestLifecycleAndChain(t *testing.T) {
	rec := &recorder{}
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "rag"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "rag", "config.json"), []byte(`{"greeting": "hi from "}`), 0o644))
	m := NewManager([]Entry{
		entry(rec, "media_layer", "subtitles"),
		entry(rec, "media_organizer", "scan", func(p *testPlugin) { p.handleErr = errors.New("broken") }),
		entry(rec, "rag", "like"),
		entry(rec, "telegram", "like"),
	}, Deps{}, Options{ConfigDir: dir})
	ctx := context.Background()
	m.Load(ctx)
	m.Start(ctx)

	answer, by := m.Handle(ctx, "something like Matrix")
	assert.Equal(t, "hi from rag", answer, "config.json reached the plugin")
	assert.Equal(t, "rag", by, "first non-empty answer wins; telegram is never asked")
	answer, by = m.Handle(ctx, "scan please")
	assert.Empty(t, answer, "a failing plugin passes, nobody else handles it")
	assert.Empty(t, by)

	m.Shutdown(ctx)
	assert.Equal(t, []string{
		"setup:media_layer", "setup:media_organizer", "setup:rag", "setup:telegram",
		"start:media_layer", "start:media_organizer", "start:rag", "start:telegram",
		"handle:media_layer", "handle:media_organizer", "handle:rag",
		"handle:media_layer", "handle:media_organizer", "handle:rag", "handle:telegram",
		"stop:telegram", "teardown:telegram", "stop:rag", "teardown:rag",
		"stop:media_organizer", "teardown:media_organizer", "stop:media_layer", "teardown:media_layer",
	}, rec.calls)
}

func TestDisabledInvalidAndDeclinedPluginsAreNotLoaded(t *testing.T) {
	rec := &recorder{}
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "media_layer"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "media_layer", "config.json"), []byte(`{"greeting": 12`), 0o644))
	m := NewManager([]Entry{
		entry(rec, "media_layer", "a"),
		entry(rec, "rag", "a", func(p *testPlugin) { p.setupOK = false }),
		entry(rec, "telegram", "a"),
		entry(rec, "torrents", "a"),
	}, Deps{}, Options{ConfigDir: dir, Disabled: func(n string) bool { return strings.EqualFold(n, "telegram") }})
	ctx := context.Background()
	m.Load(ctx)
	m.Start(ctx)

	st, err := m.Get("media_layer")
	require.NoError(t, err)
	assert.False(t, st.Loaded)
	assert.Contains(t, st.LastError, "config.json is not a JSON object")
	st, _ = m.Get("rag")
	assert.False(t, st.Loaded)
	assert.Contains(t, st.LastError, "declined")
	st, _ = m.Get("telegram")
	assert.False(t, st.Loaded)
	assert.False(t, st.Enabled)
	assert.Equal(t, "disabled by DISABLED_PLUGINS", st.LastError)
	st, _ = m.Get("torrents")
	assert.True(t, st.Loaded)
	assert.True(t, st.Running)

	answer, by := m.Handle(ctx, "a")
	assert.Equal(t, "torrents", by, "only the loaded plugin answers")
	assert.Equal(t, "torrents", answer)
	assert.NotContains(t, rec.calls, "setup:telegram", "a disabled plugin is never set up")

	_, err = m.Get("nope")
	assert.True(t, domain.IsKind(err, domain.KindNotFound))
}

// ctxKey marks the context Start was given, to tell it from a request's.
type ctxKey struct{}

func TestSetEnabledStopsAndStartsAtOnce(t *testing.T) {
	rec := &recorder{}
	var startedWith []context.Context
	m := NewManager([]Entry{
		entry(rec, "media_layer", "subtitles"),
		{Name: "rag", Factory: func(Deps) domain.Plugin {
			return &ctxPlugin{testPlugin{name: "rag", keyword: "subtitles", rec: rec, setupOK: true}, &startedWith}
		}},
	}, Deps{}, Options{})
	runCtx := context.WithValue(context.Background(), ctxKey{}, "run")
	m.Load(runCtx)
	m.Start(runCtx)

	st, err := m.SetEnabled(context.Background(), "media_layer", false)
	require.NoError(t, err)
	assert.False(t, st.Enabled)
	assert.False(t, st.Running, "a disabled plugin is stopped")
	assert.True(t, st.Loaded)
	assert.Contains(t, rec.calls, "stop:media_layer")

	_, by := m.Handle(context.Background(), "subtitles on")
	assert.Equal(t, "rag", by, "the chain skips the disabled plugin from the next message on")

	reqCtx, cancel := context.WithCancel(context.Background())
	_, err = m.SetEnabled(reqCtx, "rag", false)
	require.NoError(t, err)
	st, err = m.SetEnabled(reqCtx, "rag", true)
	cancel()
	require.NoError(t, err)
	assert.True(t, st.Running)
	require.Len(t, startedWith, 2)
	assert.Equal(t, "run", startedWith[1].Value(ctxKey{}), "a plugin enabled later runs on the manager's context, not the request's")

	st, err = m.SetEnabled(context.Background(), "media_layer", true)
	require.NoError(t, err)
	assert.True(t, st.Running)
	_, by = m.Handle(context.Background(), "subtitles on")
	assert.Equal(t, "media_layer", by)

	_, err = m.SetEnabled(context.Background(), "nope", true)
	assert.True(t, domain.IsKind(err, domain.KindNotFound))
}

func TestSetEnabledBeforeStartOnlyRecords(t *testing.T) {
	rec := &recorder{}
	m := NewManager([]Entry{entry(rec, "media_layer", "a"), entry(rec, "rag", "a")}, Deps{}, Options{})
	ctx := context.Background()
	m.Load(ctx)
	st, err := m.SetEnabled(ctx, "media_layer", false)
	require.NoError(t, err)
	assert.False(t, st.Running)
	st, err = m.SetEnabled(ctx, "rag", true)
	require.NoError(t, err)
	assert.False(t, st.Running, "nothing starts before Start")
	m.Start(ctx)
	assert.NotContains(t, rec.calls, "start:media_layer", "a plugin switched off before start never starts")
	assert.Contains(t, rec.calls, "start:rag")
}

func TestEnablingAPluginThatIsNotLoadedConflicts(t *testing.T) {
	rec := &recorder{}
	m := NewManager([]Entry{entry(rec, "media_layer", "a"), entry(rec, "telegram", "a")}, Deps{},
		Options{Disabled: func(n string) bool { return n == "telegram" }})
	ctx := context.Background()
	m.Load(ctx)
	m.Start(ctx)
	st, err := m.SetEnabled(ctx, "telegram", true)
	assert.ErrorIs(t, err, domain.ErrPluginNotLoaded)
	assert.False(t, st.Enabled, "DISABLED_PLUGINS wins")
	assert.False(t, st.Running)
	assert.NotContains(t, rec.calls, "start:telegram")
	st, err = m.SetEnabled(ctx, "telegram", false)
	require.NoError(t, err, "switching off a plugin that is not loaded is harmless")
	assert.False(t, st.Enabled)
}

// ctxPlugin records the context of every Start.
type ctxPlugin struct {
	testPlugin
	started *[]context.Context
}

func (p *ctxPlugin) Start(ctx context.Context) error {
	*p.started = append(*p.started, ctx)
	return p.testPlugin.Start(ctx)
}

// slowStop is a plugin whose Stop waits until released, like a bot
// finishing a long poll.
type slowStop struct {
	testPlugin
	stopping chan struct{}
	release  chan struct{}
}

func (p *slowStop) Stop(ctx context.Context) error {
	close(p.stopping)
	<-p.release
	return p.testPlugin.Stop(ctx)
}

func TestChainDoesNotWaitForAStoppingPlugin(t *testing.T) {
	rec := &recorder{}
	slow := &slowStop{testPlugin{name: "telegram", keyword: "hello", rec: rec, setupOK: true}, make(chan struct{}), make(chan struct{})}
	m := NewManager([]Entry{
		{Name: "telegram", Factory: func(Deps) domain.Plugin { return slow }},
		entry(rec, "torrent_search", "hello"),
	}, Deps{}, Options{})
	ctx := context.Background()
	m.Load(ctx)
	m.Start(ctx)

	done := make(chan Status)
	go func() {
		st, _ := m.SetEnabled(ctx, "telegram", false)
		done <- st
	}()
	<-slow.stopping
	answered := make(chan string)
	go func() { _, by := m.Handle(ctx, "hello"); answered <- by }()
	select {
	case by := <-answered:
		assert.Equal(t, "torrent_search", by, "the plugin being stopped is already skipped")
	case <-time.After(5 * time.Second):
		t.Fatal("the chat chain waited for a plugin's Stop")
	}
	st, _ := m.Get("telegram")
	assert.True(t, st.Running, "still running until Stop returns")
	assert.False(t, st.Enabled)
	close(slow.release)
	st = <-done
	assert.False(t, st.Running)
}
