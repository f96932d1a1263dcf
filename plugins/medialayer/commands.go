package medialayer

import (
	"context"
	"encoding/json"
	"fmt"
)

// apply changes the preferences as c asks, saves them and describes the
// result. A size out of range changes nothing and says why.
func (p *Plugin) apply(ctx context.Context, l lang, c change) (string, error) {
	t := texts[l]
	if c.badSize != nil {
		return fmt.Sprintf(t.badSize, *c.badSize, MinSize, MaxSize), nil
	}
	p.mu.Lock()
	next := p.prefs
	if c.enabled != nil {
		next.Enabled = *c.enabled
	}
	if c.size != nil {
		next.Size = *c.size
	}
	next.Size = min(max(next.Size+c.delta, MinSize), MaxSize)
	if c.color != nil {
		next.Color = *c.color
	}
	p.mu.Unlock()
	if err := next.Validate(); err != nil {
		return "", fmt.Errorf("media_layer: %w", err) // the parser let a bad value through
	}
	saved, err := p.save(ctx, next)
	if err != nil {
		return "", err
	}
	p.mu.Lock()
	p.prefs = next
	p.mu.Unlock()
	answer := t.done + " " + t.describe(next)
	if !saved {
		answer += " " + t.notSaved
	}
	return answer, nil
}

// save stores the preferences; saved is false when no settings store is
// wired, in which case the change lasts until the server restarts.
func (p *Plugin) save(ctx context.Context, s Subtitles) (saved bool, err error) {
	if p.d.Settings == nil {
		return false, nil
	}
	raw, err := json.Marshal(s)
	if err != nil {
		return false, err
	}
	if _, err := p.d.Settings.Set(ctx, SettingKey, string(raw)); err != nil {
		return false, fmt.Errorf("media_layer: save subtitle preferences: %w", err)
	}
	return true, nil
}

// reset forgets the saved preferences, so config.json applies again.
func (p *Plugin) reset(ctx context.Context, l lang) (string, error) {
	if p.d.Settings != nil {
		if err := p.d.Settings.Delete(ctx, SettingKey); err != nil {
			return "", fmt.Errorf("media_layer: forget subtitle preferences: %w", err)
		}
	}
	p.mu.Lock()
	p.prefs = p.config
	now := p.prefs
	p.mu.Unlock()
	t := texts[l]
	return t.resetDone + " " + t.describe(now), nil
}
