package catalog

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"mediateka/usecase/textmatch"
)

// TestProbingFindsWhatWalkingFinds: a later word of a query is checked
// either by walking its titles or by reading the words of the entries
// left; both ways mark the same entries at the same scores.
func TestProbingFindsWhatWalkingFinds(t *testing.T) {
	ix, vocab, titles := vocabularyIndex(5_000, 300)
	var queries []string
	for _, title := range titles[:200] {
		words := strings.Fields(title)
		if len(words) < 2 {
			continue
		}
		slices.Reverse(words) // any order
		typo := []rune(words[0])
		if len(typo) >= 5 {
			typo[1], typo[2] = typo[2], typo[1]
		}
		queries = append(queries, strings.Join(words, " "), strings.Join(words[:2], " ")+" 1999",
			textmatch.Romanize(strings.Join(words, " ")), string(typo)+" "+strings.Join(words[1:], " "),
			vocab[0]+" "+words[1])
	}
	found := func(q string, wordsPerEntry int) map[int32]score {
		ix.wordsPerEntry = wordsPerEntry
		out := map[int32]score{}
		ix.find(q, func(sc *scratch, _ query) {
			for _, e := range sc.touched {
				out[e] = sc.marks[e].best
			}
		})
		return out
	}
	probedSome := false
	for _, q := range queries {
		walked, probed := found(q, 1<<30), found(q, 0)
		assert.True(t, maps.Equal(walked, probed), "%q: walking found %d, probing %d", q, len(walked), len(probed))
		probedSome = probedSome || len(probed) > 0
	}
	assert.True(t, probedSome)
}
