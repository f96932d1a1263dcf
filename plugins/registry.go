// Package plugins holds the compiled-in plugin registry and the manager that
// runs the plugins' lifecycle and the chat chain. "A plugin placed in the
// plugins directory" (SPEC.md) means a package under plugins/ listed here.
package plugins

import (
	"log/slog"

	"mediateka/domain"
	"mediateka/plugins/mediaorganizer"
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
	// Library is the media library, for media_organizer.
	Library mediaorganizer.Library
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
		{Name: "media_organizer", Factory: func(d Deps) domain.Plugin { return mediaorganizer.New(d.Model, d.Library, d.Logger) }},
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
