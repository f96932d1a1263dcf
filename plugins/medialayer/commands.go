package medialayer

import (
	"context"
	"fmt"

	"mediateka/domain"
)

// apply changes the caller's preferences as c asks, saves them and
// describes the result. A size out of range changes nothing and says why;
// a caller without an account keeps nothing.
func (p *Plugin) apply(ctx context.Context, t phrases, c change) (string, error) {
	if c.badSize != nil {
		return fmt.Sprintf(t.badSize, *c.badSize, MinSize, MaxSize), nil
	}
	caller, _ := domain.CallerFrom(ctx)
	key := keyFor(caller)
	if key == "" {
		return t.noAccount, nil
	}
	next := p.Preferences(ctx)
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
	if err := next.Validate(); err != nil {
		return "", fmt.Errorf("media_layer: %w", err) // the parser let a bad value through
	}
	saved, err := p.save(ctx, key, next)
	if err != nil {
		return "", err
	}
	answer := t.done + " " + t.describe(next)
	if !saved {
		answer += " " + t.notSaved
	}
	return answer, nil
}

// reset forgets the caller's saved preferences: a user's fall back to the
// administrator's, the administrator's to config.json.
func (p *Plugin) reset(ctx context.Context, t phrases) (string, error) {
	caller, _ := domain.CallerFrom(ctx)
	key := keyFor(caller)
	if key == "" {
		return t.noAccount, nil
	}
	if err := p.forget(ctx, key); err != nil {
		return "", err
	}
	done := t.resetDone
	if key != SettingKey {
		done = t.resetUser
	}
	return done + " " + t.describe(p.Preferences(ctx)), nil
}
