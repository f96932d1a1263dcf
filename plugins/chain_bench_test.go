package plugins

import (
	"context"
	"testing"

	"mediateka/domain"
)

// passPlugin never answers: the chain's overhead is all that is measured.
type passPlugin struct{ name string }

func (p passPlugin) Name() string                                   { return p.name }
func (p passPlugin) Description() string                            { return "passes" }
func (p passPlugin) Handle(context.Context, string) (string, error) { return "", nil }
func (p passPlugin) Setup(context.Context) (bool, error)            { return true, nil }
func (p passPlugin) Start(context.Context) error                    { return nil }
func (p passPlugin) Stop(context.Context) error                     { return nil }
func (p passPlugin) Teardown(context.Context) error                 { return nil }

func benchChain(b *testing.B, entries []Entry) {
	ctx := context.Background()
	m := NewManager(entries, Deps{}, Options{})
	m.Load(ctx)
	m.Start(ctx)
	defer m.Shutdown(ctx)
	const msg = "Посоветуй что-нибудь похожее на «Интерстеллар», но покороче"
	b.ReportAllocs()
	for b.Loop() {
		if answer, _ := m.Handle(ctx, msg); answer != "" {
			b.Fatal("a plugin answered")
		}
	}
}

// BenchmarkChainSixPassingPlugins is the budget: a message through
// six plugins that all pass must cost at most 50 µs.
func BenchmarkChainSixPassingPlugins(b *testing.B) {
	var entries []Entry
	for _, n := range Order() {
		entries = append(entries, Entry{Name: n, Factory: func(Deps) domain.Plugin { return passPlugin{n} }})
	}
	benchChain(b, entries)
}

// BenchmarkChainRealMediaLayerAndFivePassing puts the real media_layer
// (regular expressions over the message) first in the chain.
func BenchmarkChainRealMediaLayerAndFivePassing(b *testing.B) {
	entries := Builtins()
	for _, n := range Order()[1:] {
		entries = append(entries, Entry{Name: n, Factory: func(Deps) domain.Plugin { return passPlugin{n} }})
	}
	benchChain(b, entries)
}
