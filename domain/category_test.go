package domain

import (
	"testing"
)

func TestCategoryForName(t *testing.T) {
	cases := map[string]string{
		"Боевики": "action", "  КОМЕДИИ ": "comedy", "Sci-Fi": "sci_fi", "Мультфильмы": "animation",
		"Документальные": "documentary", "Ёлки": "", "фильмы": "", "": "",
	}
	for in, want := range cases {
		if got := CategoryForName(in); got != want {
			t.Errorf("CategoryForName(%q) = %q, want %q", in, got, want)
		}
	}
	seen := map[string]bool{}
	for _, c := range Categories() {
		if seen[c.Slug] || c.NameRu == "" || c.NameEn == "" {
			t.Errorf("category %q is duplicated or unnamed", c.Slug)
		}
		seen[c.Slug] = true
		if _, ok := CategoryBySlug(c.Slug); !ok {
			t.Errorf("CategoryBySlug(%q) not found", c.Slug)
		}
	}
}
