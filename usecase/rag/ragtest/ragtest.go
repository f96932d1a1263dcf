// Package ragtest gives tests of semantic search a small deterministic
// Embedder: each word of a text (lower-cased, ё as е) is hashed to one of
// a few hundred signed dimensions, and the counts are L2-normalised. Texts
// sharing words score above zero, texts sharing none score zero. It counts
// what it embeds, so a test can tell which documents an update
// re-embedded, and it can be held mid-build. It is for tests only: the
// server's embedders live in repository/embedder.
package ragtest

import (
	"context"
	"hash/fnv"
	"math"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
)

// Embedder is the test embedder. The zero value is not usable: call New.
type Embedder struct {
	name, model string
	dims        int
	// texts counts the texts embedded, calls the Embed calls.
	texts, calls atomic.Int64
	mu           sync.Mutex
	gate         chan struct{}
	seen         []string
}

// New returns an embedder that calls itself name/model with dims
// dimensions.
func New(name, model string, dims int) *Embedder {
	return &Embedder{name: name, model: model, dims: dims}
}

// Name implements domain.Embedder.
func (e *Embedder) Name() string { return e.name }

// Model implements domain.Embedder.
func (e *Embedder) Model() string { return e.model }

// Dimensions implements domain.Embedder.
func (e *Embedder) Dimensions() int { return e.dims }

// Texts is how many texts Embed was given in all.
func (e *Embedder) Texts() int { return int(e.texts.Load()) }

// Seen returns every text embedded, in order.
func (e *Embedder) Seen() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.seen...)
}

// Hold makes every later Embed of more than one text (a build's batches,
// not a search's query) wait until the returned release is called.
func (e *Embedder) Hold() (release func()) {
	gate := make(chan struct{})
	e.mu.Lock()
	e.gate = gate
	e.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			e.mu.Lock()
			e.gate = nil
			e.mu.Unlock()
			close(gate)
		})
	}
}

// Embed implements domain.Embedder.
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	e.mu.Lock()
	gate := e.gate
	e.seen = append(e.seen, texts...)
	e.mu.Unlock()
	if gate != nil && len(texts) > 1 {
		select {
		case <-gate:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	e.calls.Add(1)
	e.texts.Add(int64(len(texts)))
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i] = e.vector(t)
	}
	return out, nil
}

// vector is the text's hashed, normalised bag of words.
func (e *Embedder) vector(text string) []float32 {
	v := make([]float32, e.dims)
	words := strings.FieldsFunc(strings.ReplaceAll(strings.ToLower(text), "ё", "е"), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	for _, w := range words {
		if len([]rune(w)) < 2 {
			continue
		}
		h := fnv.New64a()
		_, _ = h.Write([]byte(w))
		x := h.Sum64()
		sign := float32(1)
		if x&(1<<63) != 0 {
			sign = -1
		}
		v[x%uint64(e.dims)] += sign
	}
	var n float64
	for _, f := range v {
		n += float64(f * f)
	}
	if n > 0 {
		inv := float32(1 / math.Sqrt(n))
		for i := range v {
			v[i] *= inv
		}
	}
	return v
}
