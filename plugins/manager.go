package plugins

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"sync"

	"mediateka/domain"
)

// Status is what the admin API shows of one plugin. It is the domain type,
// so the admin use case can read it without importing this package.
type Status = domain.PluginStatus

// Options configure the manager.
type Options struct {
	// Disabled reports whether DISABLED_PLUGINS names a plugin.
	Disabled func(name string) bool
	// ConfigDir holds <name>/config.json for each plugin.
	ConfigDir string
	Logger    *slog.Logger
}

type slot struct {
	st     Status
	plugin domain.Plugin
}

// Manager loads the registered plugins, runs their lifecycle (setup → start;
// stop → teardown) and offers messages to them in order.
type Manager struct {
	// life serialises the lifecycle (Load, Start, SetEnabled, Shutdown), so
	// a plugin's Start or Stop can run without mu held: the chat chain
	// never waits for a Telegram bot to stop polling.
	life sync.Mutex
	// mu guards the slots' statuses and the fields below.
	mu    sync.RWMutex
	slots []*slot
	opt   Options
	log   *slog.Logger
	// started is true between Start and Shutdown; runCtx is the context
	// Start was given, used to start plugins switched on later, since the
	// request that switches one on ends long before the plugin should.
	started bool
	runCtx  context.Context
}

// NewManager builds the plugins of entries with deps. Nothing runs until Load.
func NewManager(entries []Entry, deps Deps, opt Options) *Manager {
	if opt.Logger == nil {
		opt.Logger = slog.New(slog.DiscardHandler)
	}
	if opt.Disabled == nil {
		opt.Disabled = func(string) bool { return false }
	}
	if deps.Logger == nil {
		deps.Logger = opt.Logger
	}
	m := &Manager{opt: opt, log: opt.Logger}
	for i, e := range sortEntries(entries) {
		p := e.Factory(deps)
		m.slots = append(m.slots, &slot{plugin: p, st: Status{Name: e.Name, Description: p.Description(), Order: i + 1, Enabled: true}})
	}
	return m
}

// Load configures and sets up every plugin not disabled by DISABLED_PLUGINS.
// A plugin whose config is invalid, or whose Setup says no, stays unloaded
// with the reason in LastError; the server starts all the same.
func (m *Manager) Load(ctx context.Context) {
	m.life.Lock()
	defer m.life.Unlock()
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, s := range m.slots {
		if m.opt.Disabled(s.st.Name) {
			s.st.Enabled, s.st.LastError = false, "disabled by DISABLED_PLUGINS"
			continue
		}
		if err := m.setup(ctx, s); err != nil {
			s.st.LastError = err.Error()
			m.log.Warn("plugin not loaded", "plugin", s.st.Name, "reason", err.Error())
			continue
		}
		s.st.Loaded, s.st.LastError = true, ""
	}
}

func (m *Manager) setup(ctx context.Context, s *slot) error {
	raw, err := m.readConfig(s.st.Name)
	if err != nil {
		return err
	}
	if c, ok := s.plugin.(domain.ConfigurablePlugin); ok {
		if err := c.Configure(raw); err != nil {
			return fmt.Errorf("invalid config: %w", err)
		}
	}
	ok, err := s.plugin.Setup(ctx)
	if err != nil {
		return fmt.Errorf("setup failed: %w", err)
	}
	if !ok {
		return errors.New("setup declined to load the plugin")
	}
	return nil
}

// readConfig returns the plugin's config.json (see ReadConfig).
func (m *Manager) readConfig(name string) (json.RawMessage, error) {
	return ReadConfig(m.opt.ConfigDir, name)
}

// ReadConfig returns <dir>/<name>/config.json, "{}" when absent (or dir is
// empty), and an error when it is not a JSON object. app/ reads
// torrent_search's through it too: GET /api/torrents/search uses the same
// indexers as the plugin.
func ReadConfig(dir, name string) (json.RawMessage, error) {
	if dir == "" {
		return json.RawMessage("{}"), nil
	}
	path := filepath.Join(dir, name, "config.json")
	raw, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return json.RawMessage("{}"), nil
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read config.json: %w", err)
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return nil, fmt.Errorf("config.json is not a JSON object: %w", err)
	}
	return raw, nil
}

// Start starts every loaded, enabled plugin in order. ctx should live as
// long as the plugins run: it is also used for plugins enabled later.
func (m *Manager) Start(ctx context.Context) {
	m.life.Lock()
	defer m.life.Unlock()
	m.mu.Lock()
	m.started, m.runCtx = true, ctx
	m.mu.Unlock()
	for _, s := range m.slots {
		if st := m.status(s); st.Loaded && st.Enabled && !st.Running {
			m.start(ctx, s)
		}
	}
}

// status reads one slot's status.
func (m *Manager) status(s *slot) Status {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return s.st
}

// start and stop call the plugin without mu held (the caller holds life)
// and record the outcome.
func (m *Manager) start(ctx context.Context, s *slot) {
	err := s.plugin.Start(ctx)
	m.mu.Lock()
	defer m.mu.Unlock()
	if err != nil {
		s.st.LastError = "start failed: " + err.Error()
		m.log.Warn("plugin did not start", "plugin", s.st.Name, "err", err.Error())
		return
	}
	s.st.Running, s.st.LastError = true, ""
}

func (m *Manager) stop(ctx context.Context, s *slot) {
	err := s.plugin.Stop(ctx)
	m.mu.Lock()
	defer m.mu.Unlock()
	if err != nil {
		s.st.LastError = "stop failed: " + err.Error()
		m.log.Warn("plugin stop failed", "plugin", s.st.Name, "err", err.Error())
	}
	s.st.Running = false
}

// SetEnabled switches a plugin on or off at once: the chat chain skips a
// disabled plugin from the next message on (even while its Stop runs), a
// running plugin is stopped (the Telegram bot stops polling), and a plugin
// switched on while the manager runs is started. Before Start the call only
// records the switch, which is how persisted switches are restored at
// start-up. Enabling a plugin that is not loaded (DISABLED_PLUGINS, invalid
// config, declined setup) is domain.ErrPluginNotLoaded; an unknown name is
// NotFound.
func (m *Manager) SetEnabled(ctx context.Context, name string, enabled bool) (Status, error) {
	m.life.Lock()
	defer m.life.Unlock()
	m.mu.Lock()
	var s *slot
	for _, c := range m.slots {
		if c.st.Name == name {
			s = c
		}
	}
	switch {
	case s == nil:
		m.mu.Unlock()
		return Status{}, domain.ErrNotFound("plugin " + name)
	case enabled && !s.st.Loaded:
		defer m.mu.Unlock()
		return s.st, domain.ErrPluginNotLoaded
	}
	s.st.Enabled = enabled
	stop, start, runCtx := !enabled && s.st.Running, enabled && m.started && !s.st.Running, m.runCtx
	m.mu.Unlock()
	if stop {
		m.stop(ctx, s)
	}
	if start {
		m.start(runCtx, s)
	}
	return m.status(s), nil
}

// Shutdown stops the running plugins and tears down the loaded ones, in
// reverse order, so later plugins that may use earlier ones go first.
func (m *Manager) Shutdown(ctx context.Context) {
	m.life.Lock()
	defer m.life.Unlock()
	m.mu.Lock()
	m.started = false
	m.mu.Unlock()
	for i := len(m.slots) - 1; i >= 0; i-- {
		s := m.slots[i]
		if m.status(s).Running {
			m.stop(ctx, s)
		}
		if m.status(s).Loaded {
			if err := s.plugin.Teardown(ctx); err != nil {
				m.log.Warn("plugin teardown failed", "plugin", s.st.Name, "err", err.Error())
			}
			m.mu.Lock()
			s.st.Loaded = false
			m.mu.Unlock()
		}
	}
}

// Handle offers message to each loaded, enabled plugin in order and returns
// the first non-empty answer with the plugin's name; ("", "") means no plugin
// handled it. A plugin's error is logged and the next plugin is asked, so one
// broken plugin never breaks the chat.
func (m *Manager) Handle(ctx context.Context, message string) (answer, plugin string) {
	m.mu.RLock()
	active := make([]*slot, 0, len(m.slots))
	for _, s := range m.slots {
		if s.st.Loaded && s.st.Enabled {
			active = append(active, s)
		}
	}
	m.mu.RUnlock()
	for _, s := range active {
		out, err := s.plugin.Handle(ctx, message)
		if err != nil {
			m.log.WarnContext(ctx, "plugin failed on a message", "plugin", s.st.Name, "err", err.Error())
			continue
		}
		if out != "" {
			return out, s.st.Name
		}
	}
	return "", ""
}

// List returns the status of every registered plugin in order.
func (m *Manager) List() []Status {
	m.mu.RLock()
	defer m.mu.RUnlock()
	out := make([]Status, len(m.slots))
	for i, s := range m.slots {
		out[i] = s.st
	}
	return out
}

// Get returns one plugin's status; NotFound for an unknown name.
func (m *Manager) Get(name string) (Status, error) {
	for _, st := range m.List() {
		if st.Name == name {
			return st, nil
		}
	}
	return Status{}, domain.ErrNotFound("plugin " + name)
}

// Webhooker is a plugin capability: a plugin that receives requests from
// outside (the Telegram bot in webhook mode) offers a net/http handler,
// which app/ mounts on the HTTP server.
type Webhooker interface {
	Webhook() http.Handler
}

// Webhook is the named plugin's webhook handler; nil when no registered
// plugin of that name has one. The handler itself refuses requests while
// its plugin is not running.
func (m *Manager) Webhook(name string) http.Handler {
	m.mu.RLock()
	defer m.mu.RUnlock()
	for _, s := range m.slots {
		if w, ok := s.plugin.(Webhooker); ok && s.st.Name == name {
			return w.Webhook()
		}
	}
	return nil
}
