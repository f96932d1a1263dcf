package textmatch

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestInflects(t *testing.T) {
	cases := []struct {
		word, base string
		want       bool
	}{
		{"комедий", "комедия", true},
		{"комедии", "комедия", true},
		{"комедию", "комедия", true},
		{"комедиях", "комедия", true},
		{"фантастику", "фантастика", true},
		{"научной", "научная", true},
		{"драм", "драма", true},
		{"боевиков", "боевик", true},
		{"ужастиков", "ужастики", true},
		{"военных", "военные", true},
		{"документальных", "документальные", true},
		{"приключений", "приключения", true},
		{"истории", "история", true},
		{"кухне", "кухня", true},
		{"comedies", "comedy", true},
		{"comedy", "comedies", true},
		{"thrillers", "thriller", true},
		{"westerns", "western", true},
		{"matches", "match", true},
		{"сериал", "серия", false},
		{"комета", "комедия", false},
		{"истерия", "история", false},
		{"шок", "шоу", false},
		{"war", "wars", true},
		{"of", "ofs", false},
		{"drama", "драма", false},
		{"show", "shows", true},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, Inflects(c.word, c.base), "%s ~ %s", c.word, c.base)
	}
}

func TestOrdinal(t *testing.T) {
	for word, want := range map[string]int{
		"2": 2, "второй": 2, "втором": 2, "второго": 2, "second": 2, "2nd": 2,
		"третьем": 3, "третий": 3, "third": 3, "3rd": 3, "первый": 1, "first": 1, "1st": 1,
		"пятом": 5, "десятый": 10, "21st": 21, "4th": 4,
	} {
		n, ok := Ordinal(word)
		assert.True(t, ok, word)
		assert.Equal(t, want, n, word)
	}
	for _, word := range []string{"пятница", "вторник", "seconds", "2x", "", "сезон", "12345", "-1", "+2", "-3rd"} {
		_, ok := Ordinal(word)
		assert.False(t, ok, word)
	}
}
