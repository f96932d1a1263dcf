package catalog

import (
	"math/rand/v2"
	"strings"
	"testing"

	"mediateka/domain"
	"mediateka/usecase/textmatch"
)

// syllables make up pseudo-words in both scripts, so the vocabulary is
// as large as a real library's (tens of thousands of distinct words),
// unlike the synthetic scan library's few dozen.
var syllables = [...]string{"ка", "ро", "ми", "ла", "то", "зе", "ны", "бо", "да", "ве", "ску", "пра", "стро", "жи", "ча", "ще",
	"ho", "ri", "ta", "ne", "mo", "sa", "lu", "ke", "di", "va", "bra", "ster", "gon", "ph", "wy", "qu"}

// vocabularyIndex builds an index of n entries whose titles are drawn from
// a vocabulary of about words distinct words, in memory (the index alone
// is measured; the store's part is in bench/). It returns the vocabulary
// and the first title of every entry.
func vocabularyIndex(n, words int) (ix *titleIndex, vocab, titles []string) {
	rnd := rand.New(rand.NewPCG(1, 2))
	vocab = make([]string, words)
	for i := range vocab {
		var w strings.Builder
		for range 2 + rnd.IntN(3) {
			w.WriteString(syllables[rnd.IntN(len(syllables))])
		}
		vocab[i] = w.String()
	}
	title := func() string {
		parts := make([]string, 1+rnd.IntN(4))
		for j := range parts {
			parts[j] = vocab[rnd.IntN(len(vocab))]
		}
		return textmatch.Normalize(strings.Join(parts, " "))
	}
	bld := newIndexBuilder("bench")
	for i := range n {
		k := domain.MediaKey{ID: int64(i + 1), Type: domain.MediaMovie, Year: 1950 + rnd.IntN(75), Titles: []string{title(), title(), ""}}
		bld.add(k)
		titles = append(titles, k.Titles[0])
	}
	return bld.finish(), vocab, titles
}

// BenchmarkSearchVocabulary searches 100 000 entries over a vocabulary
// of 40 000 words, one query kind per sub-benchmark: the cost of each
// pass where the dictionary is as large as a real library's.
func BenchmarkSearchVocabulary(b *testing.B) {
	ix, vocab, titles := vocabularyIndex(100_000, 40_000)
	b.Logf("%d entries, %d titles, %d distinct words, %d keys", len(ix.entries), len(ix.starts), ix.dict.len(), ix.keys.len())
	w1 := vocab[10]
	var pair []string // two words of one title, to ask for in the other order
	for _, t := range titles {
		if pair = strings.Fields(t); len(pair) >= 2 {
			break
		}
	}
	typo := []rune(w1)
	typo[1], typo[2] = typo[2], typo[1]
	for _, q := range []struct{ name, query string }{
		{"word", w1},
		{"prefix", string([]rune(w1)[:3])},
		{"two-words-any-order", pair[1] + " " + pair[0]},
		{"word-and-year", w1 + " 1999"},
		{"translit", textmatch.Romanize(w1)},
		{"layout", textmatch.SwapLayout(w1)},
		{"typo", string(typo)},
		{"miss", "qqqqzzzzxx"},
	} {
		b.Run(q.name, func(b *testing.B) {
			total := 0
			for b.Loop() {
				total, _ = ix.search(q.query, "", maxAlternatives+1)
			}
			b.ReportMetric(float64(total), "matches")
		})
	}
}
