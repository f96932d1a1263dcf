//go:build unix

package localfs

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestStatsSpaceOfAFolder(t *testing.T) {
	dir := t.TempDir()
	sp, err := Space{}.Space(dir)
	require.NoError(t, err)
	assert.Positive(t, sp.Total)
	assert.LessOrEqual(t, sp.Free, sp.Total)
	_, err = Space{}.Space(filepath.Join(dir, "absent"))
	assert.Error(t, err, "a folder that is not there has no file system to measure")
}
