package catalog

import (
	"strings"
	"testing"

	"mediateka/usecase/textmatch"
)

func TestPackKeepsMatches(t *testing.T) {
	assert := func(field, query string) {
		t.Helper()
		f, q := textmatch.Normalize(field), textmatch.Normalize(query)
		if got, want := textmatch.Grade(packText(f), packText(q)), textmatch.Grade(f, q); got != want {
			t.Fatalf("Grade(%q, %q): packed %v, plain %v", f, q, got, want)
		}
	}
	assert("Тёмный лес", "лес")
	assert("Ёлки 2", "елки")
	assert("Amélie Poulain", "poul")
	assert("Ąę ą", "ą")
	assert("日本の映画", "映画")
	assert("ą", "е") // no false match inside another letter's code
	assert("😀 smile", "smile")
}

func FuzzPackKeepsMatches(f *testing.F) {
	for _, s := range [][2]string{{"Тёмный лес", "лес"}, {"ąę", "е"}, {"日本", "本"}, {"abc", "bc"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, field, query string) {
		fn, qn := textmatch.Normalize(field), textmatch.Normalize(query)
		if strings.Contains(fn, qn) != strings.Contains(packText(fn), packText(qn)) {
			t.Fatalf("Contains(%q, %q) differs when packed", fn, qn)
		}
		if textmatch.Grade(fn, qn) != textmatch.Grade(packText(fn), packText(qn)) {
			t.Fatalf("Grade(%q, %q) differs when packed", fn, qn)
		}
	})
}
