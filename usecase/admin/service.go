// Package admin is what administrators tune at run time: the AI model's
// system instruction and which plugins take part in the chat. Both are
// stored in the settings table, so they survive restarts, and both take
// effect at once: the next model call reads the instruction, and a plugin
// switched off is stopped and skipped by the next message.
package admin

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"mediateka/domain"
)

// MaxInstructionChars bounds the system instruction: it is sent with every
// model call, so a runaway paste would cost on each of them.
const MaxInstructionChars = 20000

// Service is the administration use case.
type Service struct {
	settings Settings
	plugins  Plugins
	model    string
}

// New returns the service. model is the AI model's name as
// domain.AIModel.Name gives it ("gemini/gemini-2.5-flash", "offline"),
// shown to administrators beside the instruction it receives.
func New(settings Settings, plugins Plugins, model string) *Service {
	return &Service{settings: settings, plugins: plugins, model: model}
}

// Model is the configured AI model's name: "<provider>/<model>", or
// "offline" for the built-in assistant.
func (s *Service) Model() string { return s.model }

// SystemInstruction is the instruction the model gets; UpdatedAt is nil
// while the built-in default is in use.
type SystemInstruction struct {
	Content   string
	UpdatedAt *time.Time
}

// SystemInstruction returns the stored instruction, or the built-in default.
func (s *Service) SystemInstruction(ctx context.Context) (SystemInstruction, error) {
	st, err := s.settings.Get(ctx, domain.SettingSystemInstruction)
	if domain.IsKind(err, domain.KindNotFound) {
		return SystemInstruction{Content: domain.DefaultSystemInstruction}, nil
	}
	if err != nil {
		return SystemInstruction{}, fmt.Errorf("read the system instruction: %w", err)
	}
	at := st.UpdatedAt
	return SystemInstruction{Content: st.Value, UpdatedAt: &at}, nil
}

// SetSystemInstruction stores a new instruction; the next model call uses it.
func (s *Service) SetSystemInstruction(ctx context.Context, content string) (SystemInstruction, error) {
	content = strings.TrimSpace(content)
	switch {
	case content == "":
		return SystemInstruction{}, domain.ErrInvalid("the system instruction is empty", map[string]string{"content": "must not be empty"})
	case utf8.RuneCountInString(content) > MaxInstructionChars:
		return SystemInstruction{}, domain.ErrInvalid("the system instruction is too long",
			map[string]string{"content": fmt.Sprintf("must have at most %d characters", MaxInstructionChars)})
	}
	st, err := s.settings.Set(ctx, domain.SettingSystemInstruction, content)
	if err != nil {
		return SystemInstruction{}, fmt.Errorf("store the system instruction: %w", err)
	}
	at := st.UpdatedAt
	return SystemInstruction{Content: st.Value, UpdatedAt: &at}, nil
}

// ResetSystemInstruction forgets the stored instruction, so the built-in
// default applies again from the next model call; resetting when none is
// stored changes nothing. It answers the default.
func (s *Service) ResetSystemInstruction(ctx context.Context) (SystemInstruction, error) {
	if err := s.settings.Delete(ctx, domain.SettingSystemInstruction); err != nil {
		return SystemInstruction{}, fmt.Errorf("forget the system instruction: %w", err)
	}
	return SystemInstruction{Content: domain.DefaultSystemInstruction}, nil
}

// Plugins lists every registered plugin in load order.
func (s *Service) Plugins() []domain.PluginStatus { return s.plugins.List() }

// Plugin returns one plugin's status; NotFound for an unknown name.
func (s *Service) Plugin(name string) (domain.PluginStatus, error) { return s.plugins.Get(name) }

// SetPluginEnabled stores the switch and applies it at once. Enabling a
// plugin that is not loaded (DISABLED_PLUGINS wins) is
// domain.ErrPluginNotLoaded and stores nothing.
func (s *Service) SetPluginEnabled(ctx context.Context, name string, enabled bool) (domain.PluginStatus, error) {
	st, err := s.plugins.Get(name)
	if err != nil {
		return domain.PluginStatus{}, err
	}
	if enabled && !st.Loaded {
		return st, domain.ErrPluginNotLoaded
	}
	if _, err := s.settings.Set(ctx, domain.SettingPluginEnabledPrefix+name, strconv.FormatBool(enabled)); err != nil {
		return domain.PluginStatus{}, fmt.Errorf("store the switch of plugin %s: %w", name, err)
	}
	return s.plugins.SetEnabled(ctx, name, enabled)
}

// RestorePluginSwitches applies the stored switches to freshly loaded
// plugins, before they start, so a plugin switched off stays off across
// restarts. Plugins are on by default, so only stored "false" switches
// change anything.
func (s *Service) RestorePluginSwitches(ctx context.Context) error {
	for _, st := range s.plugins.List() {
		v, err := s.settings.Get(ctx, domain.SettingPluginEnabledPrefix+st.Name)
		if domain.IsKind(err, domain.KindNotFound) {
			continue
		}
		if err != nil {
			return fmt.Errorf("read the switch of plugin %s: %w", st.Name, err)
		}
		if on, _ := strconv.ParseBool(v.Value); on {
			continue
		}
		if _, err := s.plugins.SetEnabled(ctx, st.Name, false); err != nil {
			return fmt.Errorf("restore the switch of plugin %s: %w", st.Name, err)
		}
	}
	return nil
}
