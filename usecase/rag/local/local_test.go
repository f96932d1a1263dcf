package local

import (
	"context"
	"encoding/binary"
	"hash/fnv"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/usecase/rag/ragcorpus"
)

// vectorHash is FNV-1a 64 of the vector's float32 bits, little-endian.
func vectorHash(v []float32) uint64 {
	h := fnv.New64a()
	var b [4]byte
	for _, x := range v {
		binary.LittleEndian.PutUint32(b[:], math.Float32bits(x))
		h.Write(b[:])
	}
	return h.Sum64()
}

// TestVectorIsDeterministic: the same text gives the same vector bit for
// bit, in one call, across calls and on every machine (the golden hash
// was taken once with Version "v1"; a change of the recipe must change it
// on purpose together with Version, since stored vectors would no longer
// match new ones).
func TestVectorIsDeterministic(t *testing.T) {
	t.Parallel()
	const text = "Матрица (The Matrix) 1999. Фантастика, боевик. Программист узнаёт, что мир — симуляция."
	a, b := New().Vector(text), New().Vector(text)
	assert.Equal(t, a, b)
	vs, err := New().Embed(context.Background(), []string{text, text})
	require.NoError(t, err)
	assert.Equal(t, a, vs[0])
	assert.Equal(t, a, vs[1])
	require.Equal(t, "v1", Version, "a new recipe: take the golden hash again")
	assert.Equal(t, uint64(0x9e0dfa2dd57dce5a), vectorHash(a), "golden hash of the vector: a change bumps Version")
}

// TestEmbedSplitsWorkWithoutChangingResults: a large batch spread over the
// processors gives the vectors one by one would.
func TestEmbedSplitsWorkWithoutChangingResults(t *testing.T) {
	t.Parallel()
	e := New()
	var texts []string
	for _, m := range ragcorpus.Corpus() {
		texts = append(texts, docText(m))
	}
	vs, err := e.Embed(context.Background(), texts)
	require.NoError(t, err)
	require.Len(t, vs, len(texts))
	for i, text := range texts {
		assert.Equal(t, e.Vector(text), vs[i], text)
	}
}

// TestVectorsHaveUnitLength: every vector with a feature has length 1 and
// the fixed dimension.
func TestVectorsHaveUnitLength(t *testing.T) {
	t.Parallel()
	e := New()
	for _, text := range []string{"Аватар", "a", "Терминатор 2", "The Lord of the Rings", strings.Repeat("война ", 1000)} {
		v := e.Vector(text)
		require.Len(t, v, Dimensions)
		assert.InDelta(t, 1, norm(v), 1e-5, text)
	}
	assert.Equal(t, Dimensions, e.Dimensions())
	assert.Equal(t, "local", e.Name())
	assert.Equal(t, "v1", e.Model())
}

func norm(v []float32) float64 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	return math.Sqrt(s)
}

// TestRussianAndLatinSpellingsMeet: "Аватар" finds the record that is
// only "Avatar", and Latin spellings of Russian names find the records
// written in Cyrillic.
func TestRussianAndLatinSpellingsMeet(t *testing.T) {
	t.Parallel()
	ix := newIndex(t, New(), ragcorpus.Corpus())
	assert.Equal(t, int64(1), ix.search("Аватар")[0], "Аватар → Avatar")
	assert.ElementsMatch(t, []int64{8, 9}, ix.search("Brat")[:2], "Brat → Брат, Брат 2")
	assert.Equal(t, int64(272), ix.search("Morozko")[0], "Morozko → Морозко")
	assert.Greater(t, dot(New().Vector("Аватар"), New().Vector("Avatar")), float32(0.9))
}

// TestYearRanksThatYearsFilmFirst: of two films of one title, the year in
// the query puts its own first, both ways round.
func TestYearRanksThatYearsFilmFirst(t *testing.T) {
	t.Parallel()
	ix := newIndex(t, New(), ragcorpus.Corpus())
	for query, want := range map[string]int64{
		"Дюна 1984": 5, "Дюна 2021": 6, "Dune 1984": 5, "Dune 2021": 6,
		"Солярис 1972": 33, "Солярис 2002": 34, "Король Лев 1994": 20, "Король Лев 2019": 21,
		"Экипаж 1979": 46, "Экипаж 2016": 47,
	} {
		assert.Equal(t, want, ix.search(query)[0], query)
	}
}

// TestEmptyAndGarbageInput: nothing to index gives the zero vector (which
// scores 0 against everything), never NaN or a panic; garbage of any size
// gives a finite vector of the right length; release tags alone say
// nothing; stop words alone still find a title made of them.
func TestEmptyAndGarbageInput(t *testing.T) {
	t.Parallel()
	e := New()
	zero := make([]float32, Dimensions)
	for _, text := range []string{"", "   ", "!!! ??? ...", "\xff\xfe\x00", "1080p x264 BluRay LostFilm", "🙂🙂🙂"} {
		assert.Equal(t, zero, e.Vector(text), "%q", text)
	}
	for _, text := range []string{"qzxv wq", strings.Repeat("ab\x00ю€", 100000), string([]byte{0xd0, 0x90, 0xd0})} {
		v := e.Vector(text)
		require.Len(t, v, Dimensions)
		for _, x := range v {
			require.False(t, math.IsNaN(float64(x)) || math.IsInf(float64(x), 0), "%.20q", text)
		}
		assert.InDelta(t, 1, norm(v), 1e-5)
	}
	assert.Greater(t, dot(e.Vector("The"), e.Vector("The")), float32(0.99), "a text of stop words keeps them")
	vs, err := e.Embed(context.Background(), nil)
	require.NoError(t, err)
	assert.Empty(t, vs)
}

// TestEmbedStopsWithItsContext: a cancelled build returns the context's
// error, not half the vectors.
func TestEmbedStopsWithItsContext(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	vs, err := New().Embed(ctx, make([]string, 1000))
	require.ErrorIs(t, err, context.Canceled)
	assert.Nil(t, vs)
}
