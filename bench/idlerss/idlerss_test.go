package idlerss

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseStatusReadsTheMemoryLines(t *testing.T) {
	m, err := ParseStatus("Name:\tmediateka\nVmPeak:\t 1 kB\nVmRSS:\t   27940 kB\nRssAnon:\t    5568 kB\nRssFile:\t   22372 kB\nRssShmem:\t       0 kB\n")
	require.NoError(t, err)
	assert.Equal(t, Memory{RSS: 27940, Anon: 5568, File: 22372}, m)
	_, err = ParseStatus("Name:\tkthreadd\nState:\tS (sleeping)\n")
	assert.Error(t, err, "a kernel thread has no memory lines")
}
