package app

import (
	"context"
	"fmt"
	"log/slog"

	"mediateka/config"
	"mediateka/domain"
	"mediateka/plugins"
	"mediateka/repository/aimodel/gemini"
	"mediateka/repository/aimodel/openai"
	"mediateka/repository/ffprobe"
	"mediateka/repository/sqlstore"
	"mediateka/usecase/admin"
	"mediateka/usecase/apikey"
	"mediateka/usecase/chat"
	"mediateka/usecase/notice"
	"mediateka/usecase/offline"
)

// keyMasterFile holds the secret the API keys are encrypted with. It is not
// JWT_SECRET, so rotating that never loses the stored keys.
const keyMasterFile = "secret.key"

// aiParts are what the chat and the plugins share: the key store, the model
// behind the chat and the ffprobe prober (nil when ffprobe is missing).
type aiParts struct {
	keys   *apikey.Service
	model  domain.AIModel
	prober plugins.StreamProber
	// probe is the same prober, typed, for playback; nil without ffprobe.
	probe *ffprobe.Prober
	// counter answers scoped counts from the catalogue when model is a
	// remote provider that cannot see it; nil with the offline assistant.
	counter *offline.Model
}

// chatUseCases are the chat and plugin-admin use cases delivery calls.
type chatUseCases struct {
	chat  *chat.Service
	admin *admin.Service
}

// newKeys builds the key store, encrypted with keyMaster: the chat's model
// and a remote embedder of semantic search both rotate its keys.
func newKeys(cfg config.Config, store *sqlstore.Store, keyMaster string, log *slog.Logger) (*apikey.Service, error) {
	repo, err := sqlstore.NewAPIKeys(store, []byte(keyMaster))
	if err != nil {
		return nil, err
	}
	return apikey.New(repo, apikey.Options{Cooldown: cfg.AI.KeyCooldown.D(), Logger: log}), nil
}

// newAIModel builds the model the config names over the key store keys
// and the ffprobe prober.
func newAIModel(cfg config.Config, keys *apikey.Service, lib libraryParts, log *slog.Logger) (aiParts, error) {
	ai := aiParts{keys: keys}
	var err error
	if ai.model, err = aiModel(cfg, ai.keys, lib, log); err != nil {
		return aiParts{}, err
	}
	log.Info("chat model", "model", ai.model.Name())
	if _, isOffline := ai.model.(*offline.Model); !isOffline {
		ai.counter = offline.New(lib.catalog, offline.Options{Logger: log, Roots: lib.roots})
	}
	if p, err := ffprobe.New("", 0); err == nil {
		ai.prober, ai.probe = p, p
	} else {
		log.Warn("ffprobe is not installed: media_layer cannot read audio tracks (install the ffmpeg package)")
	}
	return ai, nil
}

// aiModel is the model config ai names: a provider client with rotating
// keys, or the offline assistant, which answers from the catalogue and,
// for suggestions, from the asker's watching state (finished films are
// left out, started ones come first) and semantic search.
func aiModel(cfg config.Config, keys *apikey.Service, lib libraryParts, log *slog.Logger) (domain.AIModel, error) {
	ai := cfg.AI
	switch ai.Provider {
	case "gemini":
		c, err := gemini.New(gemini.Config{BaseURL: ai.BaseURL, Model: ai.Model, Timeout: ai.Timeout.D()})
		if err != nil {
			return nil, fmt.Errorf("ai: %w", err)
		}
		return keys.Model(c, false), nil
	case "openai":
		c, err := openai.New(openai.Config{BaseURL: ai.BaseURL, Model: ai.Model, Timeout: ai.Timeout.D()})
		if err != nil {
			return nil, fmt.Errorf("ai: %w", err)
		}
		// A configured base URL is a local or self-hosted server, which
		// usually needs no key.
		return keys.Model(c, ai.BaseURL != ""), nil
	default:
		return offline.New(lib.catalog, offline.Options{Logger: log, Roots: lib.roots, Watching: lib.watching, Semantic: lib.rag}), nil
	}
}

// pluginDeps are what plugin factories receive.
func pluginDeps(repos repositories, ai aiParts, lib libraryParts, torrents torrentParts, notices *notice.Service, log *slog.Logger) plugins.Deps {
	d := plugins.Deps{Model: ai.model, Logger: log, Settings: repos.settings, Prober: ai.prober,
		Catalog: lib.catalog, Subtitles: lib.catalog, Library: lib.library, ScanNotices: notices,
		Torrents: torrents.svc, TorrentSearch: torrents.search, RAG: lib.rag}
	if ai.counter != nil {
		d.Counter = ai.counter
	}
	return d
}

// newPlugins builds the manager over entries (nil: the built-in registry)
// and loads (configures and sets up) the plugins; they start in Run.
func newPlugins(ctx context.Context, cfg config.Config, entries []plugins.Entry, deps plugins.Deps) *plugins.Manager {
	if entries == nil {
		entries = plugins.Builtins()
	}
	m := plugins.NewManager(entries, deps, plugins.Options{
		Disabled: cfg.PluginDisabled, ConfigDir: cfg.PluginConfigDir, Logger: deps.Logger,
	})
	m.Load(ctx)
	return m
}

// pluginComponent starts the loaded plugins and, on the way down, stops
// them and tears them down, even when they never started: Load ran their
// Setup.
func pluginComponent(m *plugins.Manager) component {
	return component{Name: "plugin manager",
		Start: func(ctx context.Context) error { m.Start(ctx); return nil },
		Stop:  func(ctx context.Context) error { m.Shutdown(ctx); return nil },
	}
}

// newChatUseCases builds the chat and admin use cases over the loaded
// plugins and restores the plugin switches administrators stored, before
// any plugin starts.
func newChatUseCases(ctx context.Context, cfg config.Config, repos repositories, m *plugins.Manager, model domain.AIModel,
	notices *notice.Service, log *slog.Logger) (chatUseCases, error) {
	adm := admin.New(repos.settings, m, model.Name())
	if err := adm.RestorePluginSwitches(ctx); err != nil {
		return chatUseCases{}, err
	}
	c := cfg.Chat
	return chatUseCases{admin: adm, chat: chat.New(m, model, repos.settings, repos.activity, chat.Options{
		MaxMessageChars: c.MaxMessageChars, MaxHistory: c.MaxHistory, Timeout: c.Timeout.D(), Logger: log,
		Notices: notices,
	})}, nil
}
