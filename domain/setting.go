package domain

import "time"

// Setting keys stored in the settings table.
const (
	// SettingSystemInstruction holds the AI model's system instruction.
	SettingSystemInstruction = "system_instruction"
	// SettingPluginEnabledPrefix + plugin name holds "true" or "false".
	SettingPluginEnabledPrefix = "plugin_enabled."
)

// Setting is one key/value row of the settings table.
type Setting struct {
	Key       string
	Value     string
	UpdatedAt time.Time
}

// DefaultSystemInstruction is what the AI model is told until an
// administrator stores another instruction. It lives in the domain because
// both the chat (which sends it) and the admin API (which shows it) need the
// same text.
const DefaultSystemInstruction = "You are the assistant of mediateka, a personal media library. " +
	"Help the user find, choose and play films and series from their library. " +
	"Answer briefly, in the language of the user's message."
