package libgen

import (
	"crypto/sha256"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestGenerateMakesDistinctNestedFiles(t *testing.T) {
	root := t.TempDir()
	st, err := Generate(root, 500, 7)
	require.NoError(t, err)
	assert.Equal(t, 500, st.Files)
	assert.Equal(t, 150, st.Movies)
	assert.Positive(t, st.Series)
	seen := map[[32]byte]string{}
	var files []string
	require.NoError(t, filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		require.NoError(t, err)
		if d.IsDir() {
			return nil
		}
		raw, err := os.ReadFile(p)
		require.NoError(t, err)
		sum := sha256.Sum256(raw)
		require.NotContains(t, seen, sum, "%s has the contents of %s", p, seen[sum])
		seen[sum] = p
		files = append(files, strings.TrimPrefix(p, root+"/"))
		return nil
	}))
	assert.Len(t, files, 500)
	joined := strings.Join(files, "\n")
	for _, want := range []string{"Фильмы/", "Сериалы/", "Season ", "Сезон ", "LostFilm.TV", ".S0"} {
		assert.Contains(t, joined, want)
	}
	again := t.TempDir()
	_, err = Generate(again, 500, 7)
	require.NoError(t, err)
	_, err = os.Stat(filepath.Join(again, files[0]))
	assert.NoError(t, err, "the same seed makes the same library")
}
