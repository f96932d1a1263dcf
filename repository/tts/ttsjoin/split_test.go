package ttsjoin_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/repository/tts/ttsjoin"
	"mediateka/repository/tts/ttstest"
	"mediateka/usecase/textmatch"
)

// TestSplitLongRussianAtSentences cuts a 5000-character Russian text (about
// 9 KB) under Google's 5000 bytes and OpenAI's 4096 characters: every piece
// fits, ends where a sentence ends, and together they are the text.
func TestSplitLongRussianAtSentences(t *testing.T) {
	text := ttstest.RussianText(domain.MaxSpeechChars)
	require.GreaterOrEqual(t, utf8.RuneCountInString(text), 4900)
	require.Greater(t, len(text), 8000, "Cyrillic is two bytes a letter")
	sentences := textmatch.Sentences(text)
	for _, c := range []struct {
		name  string
		limit int
		size  func(string) int
		min   int
	}{
		{"google bytes", 5000, ttsjoin.Bytes, 2},
		{"openai chars", 4096, ttsjoin.Chars, 2},
		{"small", 300, ttsjoin.Chars, 17},
	} {
		t.Run(c.name, func(t *testing.T) {
			pieces := ttsjoin.Split(text, c.limit, c.size, textmatch.Sentences)
			require.GreaterOrEqual(t, len(pieces), c.min)
			for i, p := range pieces {
				assert.LessOrEqual(t, c.size(p), c.limit, "piece %d", i)
				assert.Contains(t, ".!?…", string([]rune(p)[utf8.RuneCountInString(p)-1]), "piece %d ends a sentence: %q", i, tail(p))
			}
			assert.Equal(t, strings.Join(sentences, " "), strings.Join(pieces, " "), "nothing lost, nothing reordered")
			// A piece starts with a sentence: its first sentence is one of the text's.
			for i, p := range pieces {
				assert.Contains(t, sentences, textmatch.Sentences(p)[0], "piece %d starts a sentence", i)
			}
		})
	}
}

func tail(s string) string {
	r := []rune(s)
	return string(r[max(0, len(r)-20):])
}

func TestSplitFallsBackToWords(t *testing.T) {
	one := func(s string) []string { return []string{s} }
	long := strings.Repeat("слово ", 100) // one "sentence" of 600 characters
	for name, split := range map[string]func(string) []string{"nil splitter": nil, "sentence too long": one} {
		t.Run(name, func(t *testing.T) {
			pieces := ttsjoin.Split(long, 100, ttsjoin.Bytes, split)
			require.Greater(t, len(pieces), 5)
			for _, p := range pieces {
				assert.LessOrEqual(t, len(p), 100)
				assert.Regexp(t, `^(слово )*слово$`, p, "cut between words only")
			}
			assert.Equal(t, strings.TrimSpace(long), strings.Join(pieces, " "))
		})
	}
	t.Run("word over the limit is cut between characters", func(t *testing.T) {
		word := strings.Repeat("ж", 25) // 50 bytes
		pieces := ttsjoin.Split(word, 11, ttsjoin.Bytes, nil)
		assert.Equal(t, []string{"жжжжж", "жжжжж", "жжжжж", "жжжжж", "жжжжж"}, pieces)
		for _, p := range pieces {
			assert.True(t, utf8.ValidString(p))
		}
	})
	t.Run("blank text has no pieces", func(t *testing.T) {
		assert.Empty(t, ttsjoin.Split(" \n\t ", 100, ttsjoin.Bytes, textmatch.Sentences))
		assert.Empty(t, ttsjoin.Split("", 100, ttsjoin.Bytes, nil))
	})
	t.Run("short text is one piece as it is", func(t *testing.T) {
		assert.Equal(t, []string{"Привет. Как дела?"}, ttsjoin.Split("Привет. Как дела?", 5000, ttsjoin.Bytes, textmatch.Sentences))
	})
}
