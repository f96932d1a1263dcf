package rag

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSplitSearchFindsWhatOnePassFinds(t *testing.T) {
	ix, q := benchIndex(parallelFrom+1001, 64)
	for i := range ix.kinds {
		if i%3 == 0 {
			ix.kinds[i] = kindSeries
		}
	}
	for _, want := range []kind{kindOther, kindSeries} {
		one := ix.scan(q, want, 20, 0, len(ix.ids))
		assert.Len(t, one, 20)
		assert.Equal(t, one, ix.search(q, want, 20))
	}
}
