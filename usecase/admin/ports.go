package admin

import (
	"context"

	"mediateka/domain"
)

// Settings stores the system instruction and the plugins' switches.
type Settings interface {
	Get(ctx context.Context, key string) (domain.Setting, error)
	Set(ctx context.Context, key, value string) (domain.Setting, error)
	// Delete removes a setting; removing an absent one is no error.
	Delete(ctx context.Context, key string) error
}

// Plugins is the running plugin set: app/ connects it to the plugin
// manager, which applies a switch at once (stopping or starting the plugin).
type Plugins interface {
	List() []domain.PluginStatus
	Get(name string) (domain.PluginStatus, error)
	SetEnabled(ctx context.Context, name string, enabled bool) (domain.PluginStatus, error)
}
