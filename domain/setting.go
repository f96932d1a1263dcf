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
