package textmatch

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestNormalize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"The.Matrix", "the matrix"},
		{"the_matrix  (1999)", "the matrix 1999"},
		{"  --Hello--World--  ", "hello world"},
		{"Ёлки", "елки"},
		{"ЁЛКИ 2", "елки 2"},
		{"Йод и йогурт", "йод и йогурт"},
		{"Амели́", "амели"},
		{"Amélie", "amelie"},
		{"Crème Brûlée", "creme brulee"},
		{"Во все тяжкие / Breaking Bad", "во все тяжкие breaking bad"},
		{"Polnoch'_v_Parizhe", "polnoch v parizhe"},
		{"ＦＵＬＬＷＩＤＴＨ", "fullwidth"},
		{"bad\xffbytes", "bad bytes"},
		{"", ""},
		{"...", ""},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Normalize(tt.in), "Normalize(%q)", tt.in)
	}
}

func TestGrade(t *testing.T) {
	tests := []struct {
		field, query string
		want         Match
	}{
		{"the matrix", "the matrix", Exact},
		{"the matrix reloaded", "the matrix", Prefix},
		{"the matrix", "matrix", Word},
		{"the matrix", "atri", Substring},
		{"aaa matrix", "a", Prefix},
		{"bab ab", "ab", Word},
		{"xab", "ab", Substring},
		{"the matrix", "matrixx", NoMatch},
		{"the matrix", "", NoMatch},
		{"", "a", NoMatch},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Grade(tt.field, tt.query), "Grade(%q, %q)", tt.field, tt.query)
	}
}

func FuzzNormalize(f *testing.F) {
	for _, s := range []string{"Ёлки", "The.Matrix", "\xff\xfe", "й", "и\u0306"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n := Normalize(s)
		if Normalize(n) != n {
			t.Fatalf("Normalize is not idempotent on %q: %q then %q", s, n, Normalize(n))
		}
	})
}
