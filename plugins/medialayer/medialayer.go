// Package medialayer is the media_layer plugin: it owns the subtitle
// preferences (on/off, size, colour) and answers questions about them and
// about the audio and subtitle tracks of catalogue entries, in Russian and
// English. Its config.json gives the starting preferences. Preferences are
// per user: an administrator's chat commands change everyone's default
// (settings key "media_layer.subtitles", winning over config.json), a
// user's change only that user's own (key "media_layer.subtitles.user.<id>",
// winning over the default); "reset subtitles" removes the caller's own.
package medialayer

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"regexp"
	"sync"

	"mediateka/domain"
	"mediateka/usecase/catalog"
	"mediateka/usecase/textmatch"
)

// Name is the plugin's registry name.
const Name = "media_layer"

// SettingKey is where chat commands save the subtitle preferences.
const SettingKey = "media_layer.subtitles"

// Limits and defaults of the subtitle preferences.
const (
	MinSize      = 8
	MaxSize      = 72
	DefaultSize  = 24
	DefaultColor = "#ffffff"
)

var colorRe = regexp.MustCompile(`^#[0-9a-fA-F]{6}$`)

// Catalog finds catalogue entries by title (title, title_ru, title_orig),
// best match first. Nil until the media catalogue is wired; the plugin then
// says it cannot look titles up.
type Catalog interface {
	SearchTitles(ctx context.Context, query string, limit int) ([]domain.Media, error)
}

// Prober lists the streams of a media file. Nil when ffprobe is not
// installed; the plugin then says so.
type Prober interface {
	Streams(ctx context.Context, path string) ([]domain.MediaStream, error)
}

// SubtitleFiles lists the subtitle files beside an entry's video (the
// catalogue's sidecars: "Film.ru.srt", "Subs/Film.en.srt"). Nil: subtitle
// answers list the tracks inside the file only.
type SubtitleFiles interface {
	Subtitles(ctx context.Context, id int64) ([]catalog.Subtitle, error)
}

// Settings saves the preferences chat commands change.
type Settings interface {
	Get(ctx context.Context, key string) (domain.Setting, error)
	Set(ctx context.Context, key, value string) (domain.Setting, error)
	Delete(ctx context.Context, key string) error
}

// Deps are what the plugin uses; any of them may be nil.
type Deps struct {
	Catalog   Catalog
	Prober    Prober
	Subtitles SubtitleFiles
	Settings  Settings
	Logger    *slog.Logger
}

// Subtitles are the subtitle preferences.
type Subtitles struct {
	Enabled bool   `json:"enabled"`
	Size    int    `json:"size"`
	Color   string `json:"color"`
}

// Validate checks the ranges of the preferences.
func (s Subtitles) Validate() error {
	if s.Size < MinSize || s.Size > MaxSize {
		return fmt.Errorf("subtitles.size %d must be between %d and %d", s.Size, MinSize, MaxSize)
	}
	if !colorRe.MatchString(s.Color) {
		return fmt.Errorf("subtitles.color %q must look like #rrggbb", s.Color)
	}
	return nil
}

// Plugin is the media layer.
type Plugin struct {
	domain.NoBackground
	d Deps

	mu     sync.Mutex
	config Subtitles // from config.json
	// unsaved holds the preferences by setting key when no settings store
	// is wired; they last until the server restarts.
	unsaved map[string]Subtitles
}

// New returns the plugin with the default preferences until Configure.
func New(d Deps) *Plugin {
	if d.Logger == nil {
		d.Logger = slog.New(slog.DiscardHandler)
	}
	def := Subtitles{Size: DefaultSize, Color: DefaultColor}
	return &Plugin{d: d, config: def, unsaved: map[string]Subtitles{}}
}

// Name implements domain.Plugin.
func (p *Plugin) Name() string { return Name }

// Description implements domain.Plugin.
func (p *Plugin) Description() string {
	return "Subtitle preferences (on/off, size, colour) and the audio and subtitle tracks of catalogue entries"
}

// Configure reads {"subtitles": {"enabled", "size", "color"}}; absent fields
// keep their defaults, a wrong type or a value out of range is an error and
// the plugin is not loaded.
func (p *Plugin) Configure(raw json.RawMessage) error {
	var cfg struct {
		Subtitles *struct {
			Enabled *bool   `json:"enabled"`
			Size    *int    `json:"size"`
			Color   *string `json:"color"`
		} `json:"subtitles"`
	}
	if err := json.Unmarshal(raw, &cfg); err != nil {
		return fmt.Errorf("subtitles: %w", err)
	}
	s := Subtitles{Size: DefaultSize, Color: DefaultColor}
	if c := cfg.Subtitles; c != nil {
		if c.Enabled != nil {
			s.Enabled = *c.Enabled
		}
		if c.Size != nil {
			s.Size = *c.Size
		}
		if c.Color != nil {
			s.Color = *c.Color
		}
	}
	if err := s.Validate(); err != nil {
		return err
	}
	p.mu.Lock()
	p.config = s
	p.mu.Unlock()
	return nil
}

// Setup checks that the saved preferences can be read. A saved value that
// no longer validates is ignored (logged), so config.json applies.
func (p *Plugin) Setup(ctx context.Context) (bool, error) {
	if p.d.Settings == nil {
		return true, nil
	}
	st, err := p.d.Settings.Get(ctx, SettingKey)
	switch {
	case domain.IsKind(err, domain.KindNotFound):
		return true, nil
	case err != nil:
		return false, fmt.Errorf("read saved subtitle preferences: %w", err)
	}
	if _, err := decode(st.Value); err != nil {
		p.d.Logger.WarnContext(ctx, "media_layer: ignoring saved subtitle preferences", "err", err)
	}
	return true, nil
}

// Handle answers subtitle commands and questions and track questions; any
// other message passes ("").
func (p *Plugin) Handle(ctx context.Context, message string) (string, error) {
	m := parseMessage(message)
	if m.tracks == nil && !m.aboutSubtitles {
		return "", nil
	}
	t := textsIn(textmatch.AnswerLang(ctx, message))
	switch {
	case m.tracks != nil:
		return p.tracks(ctx, t, *m.tracks), nil
	case m.reset:
		return p.reset(ctx, t)
	case m.change.any():
		return p.apply(ctx, t, m.change)
	case m.question:
		return t.describe(p.Preferences(ctx)), nil
	}
	return "", nil
}
