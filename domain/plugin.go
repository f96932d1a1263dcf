package domain

import (
	"context"
	"encoding/json"
)

// Plugin is the contract of SPEC.md's plugin table in Go form. Handle returns
// "" to pass the message to the next plugin; a non-empty answer ends the chain.
// Setup returning false (or an error) means the plugin is not loaded and the
// reason shows in its status.
type Plugin interface {
	Name() string
	Description() string
	Handle(ctx context.Context, message string) (string, error)
	Setup(ctx context.Context) (bool, error)
	Start(ctx context.Context) error
	Stop(ctx context.Context) error
	Teardown(ctx context.Context) error
}

// ConfigurablePlugin is implemented by plugins that read their own
// <plugin_config_dir>/<name>/config.json. Configure runs before Setup with the
// file's bytes ("{}" when the file is absent); an error means "not loaded".
type ConfigurablePlugin interface {
	Plugin
	Configure(raw json.RawMessage) error
}

// Chat roles of history turns. "assistant" is accepted as a synonym of "model".
const (
	TurnUser      = "user"
	TurnModel     = "model"
	TurnAssistant = "assistant"
)

// ChatTurn is one earlier turn of a dialogue.
type ChatTurn struct {
	Role string
	Text string
}

// Prompt is what an AI model is asked: the system instruction, the dialogue so
// far (oldest first) and the new message. Schema, when set, is a JSON schema
// the answer must follow (used by classification).
type Prompt struct {
	System  string
	History []ChatTurn
	Message string
	Schema  json.RawMessage
}

// AIModel is a text model. Plugins receive it from their factory; the chat use
// case falls back to it when no plugin answers.
type AIModel interface {
	// Name is "<provider>/<model>", or "offline" for the built-in assistant.
	Name() string
	// Generate returns the whole answer.
	Generate(ctx context.Context, p Prompt) (string, error)
	// Stream calls emit with each piece of the answer as it arrives; an error
	// from emit stops the stream and is returned.
	Stream(ctx context.Context, p Prompt, emit func(chunk string) error) error
}

// PluginStatus is what the admin API shows of one plugin: Enabled is the
// administrator's switch (false for plugins named in DISABLED_PLUGINS),
// Loaded means its config was valid and Setup agreed, Running that Start
// succeeded and Stop has not been called since.
type PluginStatus struct {
	Name        string
	Description string
	Order       int
	Enabled     bool
	Loaded      bool
	Running     bool
	LastError   string
}

// ErrPluginNotLoaded is the answer to enabling a plugin that is not loaded:
// DISABLED_PLUGINS names it, its config is invalid or its Setup declined.
// Switching it on cannot start it, so the request conflicts with the state.
var ErrPluginNotLoaded = NewError(KindConflict, "plugin_not_loaded", "the plugin is not loaded (DISABLED_PLUGINS, an invalid config or a failed setup), so it cannot be enabled")

// NoBackground is embedded by plugins that answer messages and keep
// nothing running between them: Start, Stop and Teardown have nothing to
// do. One definition instead of the same three empty methods in each.
type NoBackground struct{}

// Start implements Plugin: nothing to start.
func (NoBackground) Start(context.Context) error { return nil }

// Stop implements Plugin: nothing to stop.
func (NoBackground) Stop(context.Context) error { return nil }

// Teardown implements Plugin: nothing to release.
func (NoBackground) Teardown(context.Context) error { return nil }
