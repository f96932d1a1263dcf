package medialayer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"mediateka/domain"
)

// UserSettingPrefix + a user's id is where that user's own subtitle
// preferences are saved. An administrator's changes go to SettingKey and
// are everyone's default; a user's go to the user's key and affect only
// that user.
const UserSettingPrefix = SettingKey + ".user."

// keyFor is where the caller's preferences are saved: the global key for an
// administrator, the user's own key for a signed-in user, and "" for a
// caller without an account, who can read the defaults but keep nothing.
func keyFor(c domain.Caller) string {
	switch {
	case c.Admin:
		return SettingKey
	case c.UserID != 0:
		return UserSettingPrefix + strconv.FormatInt(c.UserID, 10)
	}
	return ""
}

// Preferences returns the subtitle preferences of the caller in ctx: the
// user's own if saved, else the administrator's (the saved global ones),
// else config.json's. A saved value that no longer validates is skipped.
func (p *Plugin) Preferences(ctx context.Context) Subtitles {
	c, _ := domain.CallerFrom(ctx)
	if key := keyFor(c); key != "" && key != SettingKey {
		if s, ok := p.load(ctx, key); ok {
			return s
		}
	}
	if s, ok := p.load(ctx, SettingKey); ok {
		return s
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.config
}

// load reads saved preferences; ok is false when none are saved, when they
// do not validate (logged) or when the store fails (logged: the defaults
// are a better answer than none).
func (p *Plugin) load(ctx context.Context, key string) (Subtitles, bool) {
	if p.d.Settings == nil {
		p.mu.Lock()
		defer p.mu.Unlock()
		s, ok := p.unsaved[key]
		return s, ok
	}
	s, err := p.read(ctx, key)
	if err != nil && !domain.IsKind(err, domain.KindNotFound) {
		p.d.Logger.WarnContext(ctx, "media_layer: ignoring saved subtitle preferences", "key", key, "err", err)
	}
	return s, err == nil
}

// read decodes and validates the preferences saved under key.
func (p *Plugin) read(ctx context.Context, key string) (Subtitles, error) {
	st, err := p.d.Settings.Get(ctx, key)
	if err != nil {
		return Subtitles{}, err
	}
	return decode(st.Value)
}

// decode reads saved preferences and checks their ranges.
func decode(value string) (Subtitles, error) {
	var saved Subtitles
	if err := errors.Join(json.Unmarshal([]byte(value), &saved), saved.Validate()); err != nil {
		return Subtitles{}, err
	}
	return saved, nil
}

// save stores s under key; saved is false when no settings store is wired,
// in which case the change lasts until the server restarts.
func (p *Plugin) save(ctx context.Context, key string, s Subtitles) (saved bool, err error) {
	if p.d.Settings == nil {
		p.mu.Lock()
		defer p.mu.Unlock()
		p.unsaved[key] = s
		return false, nil
	}
	raw, err := json.Marshal(s)
	if err != nil {
		return false, err
	}
	if _, err := p.d.Settings.Set(ctx, key, string(raw)); err != nil {
		return false, fmt.Errorf("media_layer: save subtitle preferences: %w", err)
	}
	return true, nil
}

// forget removes what is saved under key, so the next default applies.
func (p *Plugin) forget(ctx context.Context, key string) error {
	if p.d.Settings == nil {
		p.mu.Lock()
		defer p.mu.Unlock()
		delete(p.unsaved, key)
		return nil
	}
	err := p.d.Settings.Delete(ctx, key)
	if err != nil && !domain.IsKind(err, domain.KindNotFound) {
		return fmt.Errorf("media_layer: forget subtitle preferences: %w", err)
	}
	return nil
}
