// Package plugins holds the compiled-in plugin registry and the manager that
// runs the plugins' lifecycle and the chat chain. "A plugin placed in the
// plugins directory" (SPEC.md) means a package under plugins/ listed here.
package plugins

import (
	"context"
	"log/slog"

	"mediateka/domain"
	"mediateka/plugins/medialayer"
	"mediateka/plugins/mediaorganizer"
	"mediateka/plugins/rag"
	"mediateka/plugins/telegram"
	"mediateka/plugins/torrents"
	"mediateka/plugins/torrentsearch"
)

// Order is the load order of SPEC.md: media layer, media organizer, torrent
// client control, RAG, messaging bot, torrent search. The chat chain asks
// plugins in this order.
var order = [...]string{"media_layer", "media_organizer", "torrents", "rag", "telegram", "torrent_search"}

// Order returns the spec's plugin names in load order.
func Order() []string { return order[:] }

// Deps are what plugin factories may use. Each capability adds the use-case
// ports its plugin needs; the factory receives the AI model as the spec's
// plugin(ai_model) does.
type Deps struct {
	Model  domain.AIModel
	Logger *slog.Logger
	// Catalog finds catalogue entries by title; nil until the media
	// catalogue is wired, and plugins then say they cannot look titles up.
	Catalog TitleSearcher
	// Prober reads the streams of a media file (ffprobe); nil when ffprobe
	// is not installed.
	Prober StreamProber
	// Settings is where plugins keep what chat commands change.
	Settings SettingStore
	// Library is the media library, for media_organizer.
	Library mediaorganizer.Library
	// Subtitles lists the subtitle files beside a video (the catalogue's
	// sidecars), for media_layer's subtitle answers; nil lists none.
	Subtitles medialayer.SubtitleFiles
	// ScanNotices tells an administrator in the chat how a scan they
	// started there ended; nil promises nothing.
	ScanNotices mediaorganizer.ScanWatcher
	// Counter answers scoped counts from the catalogue for media_organizer
	// when the chat's model is a remote provider; nil otherwise.
	Counter mediaorganizer.Counter
	// Torrents is the torrent client's use case, for the torrents plugin
	// and torrent_search's downloads.
	Torrents TorrentService
	// TorrentSearch asks the Torznab indexers, for torrent_search.
	TorrentSearch torrentsearch.Searcher
	// RAG is semantic search over the catalogue, for the rag plugin; nil:
	// the plugin does not load.
	RAG rag.Searcher
	// Telegram is what the bot uses beyond the model: the token from
	// TELEGRAM_BOT_TOKEN, the Mini App, the chat (a telegram.ChatRef set
	// once the chat exists), accounts, /status and speech. Its Logger and
	// Settings default to the ones above.
	Telegram telegram.Deps
}

// TorrentService is the torrents use case as the plugins use it.
type TorrentService interface {
	torrents.Service
	torrentsearch.Downloader
}

// TitleSearcher finds catalogue entries whose titles match query, best
// first.
type TitleSearcher interface {
	SearchTitles(ctx context.Context, query string, limit int) ([]domain.Media, error)
}

// StreamProber lists the audio, video and subtitle streams of a file.
type StreamProber interface {
	Streams(ctx context.Context, path string) ([]domain.MediaStream, error)
}

// SettingStore reads and writes the settings table.
type SettingStore interface {
	Get(ctx context.Context, key string) (domain.Setting, error)
	Set(ctx context.Context, key, value string) (domain.Setting, error)
	Delete(ctx context.Context, key string) error
}

// Factory builds one plugin instance.
type Factory func(d Deps) domain.Plugin

// Entry is one registered plugin.
type Entry struct {
	Name    string
	Factory Factory
}

// Builtins lists the plugins compiled into this build, in the spec's order.
// Plugins of capabilities not built yet are simply absent.
func Builtins() []Entry {
	return sortEntries([]Entry{
		{Name: medialayer.Name, Factory: func(d Deps) domain.Plugin {
			return medialayer.New(medialayer.Deps{Catalog: d.Catalog, Prober: d.Prober, Subtitles: d.Subtitles,
				Settings: d.Settings, Logger: d.Logger})
		}},
		{Name: "media_organizer", Factory: func(d Deps) domain.Plugin {
			return mediaorganizer.New(mediaorganizer.Deps{Library: d.Library, Notices: d.ScanNotices, Counter: d.Counter, Logger: d.Logger})
		}},
		{Name: torrents.Name, Factory: func(d Deps) domain.Plugin {
			if d.Torrents == nil {
				return torrents.New(nil, d.Logger)
			}
			return torrents.New(d.Torrents, d.Logger)
		}},
		{Name: rag.Name, Factory: func(d Deps) domain.Plugin {
			return rag.New(rag.Deps{Search: d.RAG, Model: d.Model, Logger: d.Logger})
		}},
		{Name: telegram.Name, Factory: func(d Deps) domain.Plugin {
			td := d.Telegram
			if td.Logger == nil {
				td.Logger = d.Logger
			}
			if td.Settings == nil && d.Settings != nil {
				td.Settings = d.Settings
			}
			return telegram.New(td)
		}},
		{Name: torrentsearch.Name, Factory: func(d Deps) domain.Plugin {
			var down torrentsearch.Downloader
			if d.Torrents != nil {
				down = d.Torrents
			}
			return torrentsearch.New(d.TorrentSearch, down, d.Logger, nil)
		}},
	})
}

// sortEntries orders entries by the spec's order; names outside it (test
// plugins) keep their relative order after the known ones.
func sortEntries(entries []Entry) []Entry {
	rank := func(name string) int {
		for i, n := range order {
			if n == name {
				return i
			}
		}
		return len(order)
	}
	out := append([]Entry(nil), entries...)
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && rank(out[j].Name) < rank(out[j-1].Name); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}
