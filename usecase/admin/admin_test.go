package admin_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/plugins"
	"mediateka/repository/sqlstore"
	"mediateka/repository/sqlstore/sqlstoretest"
	"mediateka/usecase/admin"
)

// echo is a plugin that answers messages starting with its name and counts
// its starts.
type echo struct {
	name   string
	mu     sync.Mutex
	starts int
}

func (p *echo) Name() string        { return p.name }
func (p *echo) Description() string { return "echoes " + p.name }
func (p *echo) Handle(_ context.Context, m string) (string, error) {
	if strings.HasPrefix(m, p.name) {
		return p.name + " here", nil
	}
	return "", nil
}
func (p *echo) Setup(context.Context) (bool, error) { return true, nil }
func (p *echo) Start(context.Context) error         { p.mu.Lock(); p.starts++; p.mu.Unlock(); return nil }
func (p *echo) Stop(context.Context) error          { return nil }
func (p *echo) Teardown(context.Context) error      { return nil }

func newManager(disabled ...string) (*plugins.Manager, map[string]*echo) {
	made := map[string]*echo{}
	var entries []plugins.Entry
	for _, n := range []string{"media_layer", "rag", "telegram"} {
		entries = append(entries, plugins.Entry{Name: n, Factory: func(plugins.Deps) domain.Plugin {
			made[n] = &echo{name: n}
			return made[n]
		}})
	}
	m := plugins.NewManager(entries, plugins.Deps{}, plugins.Options{Disabled: func(n string) bool {
		for _, d := range disabled {
			if d == n {
				return true
			}
		}
		return false
	}})
	m.Load(context.Background())
	return m, made
}

func newSettings(t *testing.T) *sqlstore.Settings {
	t.Helper()
	return sqlstore.NewSettings(sqlstoretest.New(t, nil).Store)
}

func TestSystemInstruction(t *testing.T) {
	svc := admin.New(newSettings(t), nil, "offline")
	ctx := context.Background()
	si, err := svc.SystemInstruction(ctx)
	require.NoError(t, err)
	assert.Equal(t, domain.DefaultSystemInstruction, si.Content)
	assert.Nil(t, si.UpdatedAt, "the default was never stored")

	si, err = svc.SetSystemInstruction(ctx, "  Будь краток.  ")
	require.NoError(t, err)
	assert.Equal(t, "Будь краток.", si.Content)
	require.NotNil(t, si.UpdatedAt)
	got, err := svc.SystemInstruction(ctx)
	require.NoError(t, err)
	assert.Equal(t, "Будь краток.", got.Content)

	for _, bad := range []string{"", "   \n", strings.Repeat("я", admin.MaxInstructionChars+1)} {
		_, err := svc.SetSystemInstruction(ctx, bad)
		assert.True(t, domain.IsKind(err, domain.KindInvalid))
	}
	_, err = svc.SetSystemInstruction(ctx, strings.Repeat("я", admin.MaxInstructionChars))
	assert.NoError(t, err, "the limit counts characters, not bytes")

	// Reset: the built-in default again, twice in a row as well.
	for range 2 {
		si, err = svc.ResetSystemInstruction(ctx)
		require.NoError(t, err)
		assert.Equal(t, domain.DefaultSystemInstruction, si.Content)
		assert.Nil(t, si.UpdatedAt)
		got, err = svc.SystemInstruction(ctx)
		require.NoError(t, err)
		assert.Equal(t, admin.SystemInstruction{Content: domain.DefaultSystemInstruction}, got, "the default is in use again")
	}
	assert.Equal(t, "offline", svc.Model())
}

func TestPluginSwitchesPersistAcrossRestarts(t *testing.T) {
	settings := newSettings(t)
	ctx := context.Background()
	m, _ := newManager()
	m.Start(ctx)
	svc := admin.New(settings, m, "offline")
	st, err := svc.SetPluginEnabled(ctx, "rag", false)
	require.NoError(t, err)
	assert.False(t, st.Enabled)
	assert.False(t, st.Running)
	_, by := m.Handle(ctx, "rag please")
	assert.Empty(t, by, "the chain skips it at once")
	m.Shutdown(ctx)

	// A restart: a new manager over the same settings.
	m2, made := newManager()
	svc2 := admin.New(settings, m2, "offline")
	require.NoError(t, svc2.RestorePluginSwitches(ctx))
	m2.Start(ctx)
	st, err = svc2.Plugin("rag")
	require.NoError(t, err)
	assert.False(t, st.Enabled, "the switch survived the restart")
	assert.False(t, st.Running)
	assert.Zero(t, made["rag"].starts, "a plugin switched off is never started")
	assert.Equal(t, 1, made["media_layer"].starts)

	st, err = svc2.SetPluginEnabled(ctx, "rag", true)
	require.NoError(t, err)
	assert.True(t, st.Running)
	_, by = m2.Handle(ctx, "rag please")
	assert.Equal(t, "rag", by)
	v, err := settings.Get(ctx, domain.SettingPluginEnabledPrefix+"rag")
	require.NoError(t, err)
	assert.Equal(t, "true", v.Value)
}

func TestDisabledPluginsWin(t *testing.T) {
	settings := newSettings(t)
	ctx := context.Background()
	m, made := newManager("telegram")
	m.Start(ctx)
	svc := admin.New(settings, m, "offline")
	_, err := svc.SetPluginEnabled(ctx, "telegram", true)
	assert.ErrorIs(t, err, domain.ErrPluginNotLoaded)
	_, err = settings.Get(ctx, domain.SettingPluginEnabledPrefix+"telegram")
	assert.True(t, domain.IsKind(err, domain.KindNotFound), "a refused switch is not stored")
	assert.Zero(t, made["telegram"].starts, "a plugin named in DISABLED_PLUGINS never starts")

	_, err = svc.SetPluginEnabled(ctx, "nope", true)
	assert.True(t, domain.IsKind(err, domain.KindNotFound))
	assert.Len(t, svc.Plugins(), 3)
}
