package domain

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestRootConflicts(t *testing.T) {
	for _, tt := range []struct {
		name  string
		paths []string
		want  []RootConflict
	}{
		{"apart", []string{"/srv/films", "/srv/series", "/mnt/a"}, nil},
		{"same folder twice", []string{"/srv/films", "/srv/films"}, []RootConflict{{I: 1, J: 0, Same: true}}},
		{"inside a later one", []string{"/srv/films/new", "/srv/films"}, []RootConflict{{I: 0, J: 1}}},
		{"deep inside", []string{"/srv", "/srv/a/b/c"}, []RootConflict{{I: 1, J: 0}}},
		{"everything is inside /", []string{"/", "/srv"}, []RootConflict{{I: 1, J: 0}}},
		{"a prefix is not a parent", []string{"/srv/film", "/srv/films"}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, RootConflicts(tt.paths))
		})
	}
}
