// Package local is the default Embedder of semantic search: offline, pure
// Go and deterministic, so the same text gives the same vector bit for bit
// on every run and every machine. It is a hashed bag of features, not a
// neural model: words, their stems, a transliterated key (so "Аватар" and
// "Avatar" meet), character 3-grams, the year and a few bilingual concepts
// (genres and common themes) are hashed into a fixed number of dimensions
// with a sign, weighted and L2-normalised. See README.md for the recipe.
package local

import (
	"context"
	"math"
	"runtime"
	"sync"

	"mediateka/domain"
)

// Dimensions is the length of every vector: 1024 float32s (4 KiB a record,
// 400 MiB for 100 000 records as float32, a quarter as int8). Hashing
// collisions cost recall on the retrieval test: 0.80 at 512, 0.85 at 1024,
// 0.87 at 4096 (docs/PERFORMANCE.md).
const Dimensions = 1024

// maxTextBytes bounds the work for one text: a record's document text is a
// few kilobytes; anything past this is ignored.
const maxTextBytes = 64 << 10

// parallelFrom is the batch size from which Embed spreads texts over the
// processors; smaller batches (a search query) stay on the caller.
const parallelFrom = 32

// Embedder is the local domain.Embedder. It holds only read-only tables,
// so one value is safe for concurrent use.
type Embedder struct {
	dim      int
	w        weights
	concepts map[string]string // stemmed word → concept name
	stop     map[string]bool   // words that say nothing about a film
	generic  map[string]bool   // words that say little ("film", "сериал")
	pool     sync.Pool         // *[]feature scratch slices
}

// New returns the local embedder with its fixed dimension.
func New() *Embedder { return newWithDim(Dimensions) }

// newWithDim builds an embedder of another dimension; the tests measure
// the retrieval test at several.
func newWithDim(dim int) *Embedder {
	e := &Embedder{dim: dim, w: defaultWeights(), stop: wordSet(stopWords), generic: wordSet(genericWords)}
	e.concepts = buildConcepts()
	e.pool.New = func() any { s := make([]feature, 0, 1024); return &s }
	return e
}

var _ domain.Embedder = (*Embedder)(nil)

// Name is "local".
func (e *Embedder) Name() string { return "local" }

// Version names the recipe (features, weights, hashing): a change that
// changes the vectors bumps it, and since the index matches stored
// vectors by name, model and dimensions, the next build embeds everything
// again instead of mixing vectors of two recipes.
const Version = "v1"

// Model is the recipe's Version.
func (e *Embedder) Model() string { return Version }

// Dimensions is the fixed length of the vectors.
func (e *Embedder) Dimensions() int { return e.dim }

// Embed returns one vector per text, in order. A text with nothing to
// index (empty, punctuation, only release tags) gets the zero vector, which
// scores 0 against everything; every other vector has unit length. It
// fails only when ctx ends. Large batches use every processor; the result
// does not depend on how the work was split.
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	workers := min(runtime.GOMAXPROCS(0), len(texts)/parallelFrom+1)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w; i < len(texts); i += workers {
				if ctx.Err() != nil {
					return
				}
				out[i] = e.Vector(texts[i])
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// Vector embeds one text (see Embed).
func (e *Embedder) Vector(text string) []float32 {
	if len(text) > maxTextBytes {
		text = text[:maxTextBytes]
	}
	fs := e.pool.Get().(*[]feature)
	*fs = e.features(text, (*fs)[:0])
	v := make([]float32, e.dim)
	for _, f := range mergeFeatures(*fs) {
		b := int(f.hash % uint64(e.dim))
		if f.hash>>63 == 1 {
			v[b] -= f.weight
		} else {
			v[b] += f.weight
		}
	}
	e.pool.Put(fs)
	normalize(v)
	return v
}

// normalize scales v to unit length in place; the zero vector stays zero.
// The sum is in float64 and a float32 square is exact there, so the result
// does not depend on whether the machine fuses multiply and add.
func normalize(v []float32) {
	var sum float64
	for _, x := range v {
		sum += float64(x) * float64(x)
	}
	if sum == 0 {
		return
	}
	inv := 1 / math.Sqrt(sum)
	for i, x := range v {
		v[i] = float32(float64(x) * inv)
	}
}
