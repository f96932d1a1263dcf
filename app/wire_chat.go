package app

import (
	"context"
	"fmt"
	"path/filepath"

	"mediateka/domain"
	"mediateka/plugins"
	"mediateka/repository/aimodel/gemini"
	"mediateka/repository/aimodel/openai"
	"mediateka/repository/ffprobe"
	"mediateka/repository/sqlstore"
	"mediateka/usecase/admin"
	"mediateka/usecase/apikey"
	"mediateka/usecase/chat"
	"mediateka/usecase/offline"
)

// keyMasterFile holds the secret the API keys are encrypted with. It is not
// JWT_SECRET, so rotating that never loses the stored keys.
const keyMasterFile = "secret.key"

// chatParts are the pieces of the chat capability: the key store, the model
// behind the chat, and the use cases delivery calls.
type chatParts struct {
	keyMaster       string
	generatedMaster bool
	keys            *apikey.Service
	model           domain.AIModel
	prober          plugins.StreamProber
	chat            *chat.Service
	admin           *admin.Service
}

// resolveKeyMaster reads <data>/secret.key, creating it (mode 0600) on the
// first start. It runs before the logger exists so the logger can scrub it.
func (a *App) resolveKeyMaster() error {
	secret, created, err := loadOrCreateSecret(filepath.Join(a.cfg.DataDir, keyMasterFile), 32)
	if err != nil {
		return err
	}
	a.chat.keyMaster, a.chat.generatedMaster = secret, created
	return nil
}

// newAIModel builds the key store, the model the config names and the
// ffprobe prober, all of which plugins receive.
func (a *App) newAIModel() error {
	if a.chat.generatedMaster {
		a.log.Info("generated the secret that encrypts stored API keys; back it up with the database",
			"key_file", filepath.Join(a.cfg.DataDir, keyMasterFile))
	}
	repo, err := sqlstore.NewAPIKeys(a.repos.store, []byte(a.chat.keyMaster))
	if err != nil {
		return err
	}
	a.chat.keys = apikey.New(repo, apikey.Options{Cooldown: a.cfg.AI.KeyCooldown.D(), Logger: a.log})
	if a.chat.model, err = a.aiModel(); err != nil {
		return err
	}
	a.log.Info("chat model", "model", a.chat.model.Name())
	if p, err := ffprobe.New("", 0); err == nil {
		a.chat.prober = p
	} else {
		a.log.Warn("ffprobe is not installed: media_layer cannot read audio tracks (install the ffmpeg package)")
	}
	return nil
}

// aiModel is the model config ai names: a provider client with rotating
// keys, or the offline assistant, which answers from the catalogue.
func (a *App) aiModel() (domain.AIModel, error) {
	ai := a.cfg.AI
	switch ai.Provider {
	case "gemini":
		c, err := gemini.New(gemini.Config{BaseURL: ai.BaseURL, Model: ai.Model, Timeout: ai.Timeout.D()})
		if err != nil {
			return nil, fmt.Errorf("ai: %w", err)
		}
		return a.chat.keys.Model(c, false), nil
	case "openai":
		c, err := openai.New(openai.Config{BaseURL: ai.BaseURL, Model: ai.Model, Timeout: ai.Timeout.D()})
		if err != nil {
			return nil, fmt.Errorf("ai: %w", err)
		}
		// A configured base URL is a local or self-hosted server, which
		// usually needs no key.
		return a.chat.keys.Model(c, ai.BaseURL != ""), nil
	default:
		return offline.New(a.lib.catalog, offline.Options{Logger: a.log}), nil
	}
}

// pluginDeps are what plugin factories receive.
func (a *App) pluginDeps() plugins.Deps {
	return plugins.Deps{Model: a.chat.model, Logger: a.log, Settings: a.repos.settings, Prober: a.chat.prober,
		Catalog: a.lib.catalog, Library: a.lib.library}
}

// newChatUseCases builds the chat and admin use cases over the loaded
// plugins and restores the plugin switches administrators stored, before
// any plugin starts.
func (a *App) newChatUseCases(ctx context.Context) error {
	a.chat.admin = admin.New(a.repos.settings, a.plugins)
	if err := a.chat.admin.RestorePluginSwitches(ctx); err != nil {
		return err
	}
	c := a.cfg.Chat
	a.chat.chat = chat.New(a.plugins, a.chat.model, a.repos.settings, a.repos.activity, chat.Options{
		MaxMessageChars: c.MaxMessageChars, MaxHistory: c.MaxHistory, Timeout: c.Timeout.D(), Logger: a.log,
	})
	return nil
}
