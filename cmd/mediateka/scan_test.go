package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// scanSetup writes config.json, search_dirs.json and a small library.
func scanSetup(t *testing.T) (cfgPath, root string) {
	t.Helper()
	dir := t.TempDir()
	root = filepath.Join(dir, "library")
	for _, f := range []string{"Фильмы/Heat.1995.mkv", "Сериалы/Dark/Season 1/Dark.S01E01.mkv"} {
		p := filepath.Join(root, f)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(f), 0o644))
	}
	cfg, _ := json.Marshal(map[string]any{"data_dir": filepath.Join(dir, "data")})
	require.NoError(t, os.WriteFile(filepath.Join(dir, "config.json"), cfg, 0o600))
	dirs, _ := json.Marshal(map[string]any{"dirs": []string{root}})
	require.NoError(t, os.WriteFile(filepath.Join(dir, "search_dirs.json"), dirs, 0o600))
	return filepath.Join(dir, "config.json"), root
}

func TestScanCommand(t *testing.T) {
	cfgPath, root := scanSetup(t)
	var out, errOut bytes.Buffer
	code := run([]string{"scan", "--config", cfgPath}, strings.NewReader(""), &out, &errOut)
	require.Equal(t, 0, code, errOut.String())
	assert.Contains(t, out.String(), "scan completed: 2 files seen, 2 added, 0 updated, 0 missing, 0 errors")
	assert.Contains(t, errOut.String(), "scanning", "the progress bar goes to standard error")

	out.Reset()
	errOut.Reset()
	require.NoError(t, os.Remove(filepath.Join(root, "Фильмы/Heat.1995.mkv")))
	code = run([]string{"scan", "--config", cfgPath, "--quiet", "--path", filepath.Join(root, "Фильмы")}, strings.NewReader(""), &out, &errOut)
	require.Equal(t, 0, code, errOut.String())
	assert.Contains(t, out.String(), "0 files seen, 0 added, 0 updated, 1 missing")
	assert.Empty(t, errOut.String(), "--quiet shows no bar")
}

func TestScanCommandRefusesBadPaths(t *testing.T) {
	cfgPath, _ := scanSetup(t)
	var out, errOut bytes.Buffer
	code := run([]string{"scan", "--config", cfgPath, "--quiet", "--path", t.TempDir()}, strings.NewReader(""), &out, &errOut)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut.String(), "is not inside a library folder")
	assert.Empty(t, out.String())
	code = run([]string{"scan", "--config", cfgPath, "--disk", "nope"}, strings.NewReader(""), &out, &errOut)
	assert.Equal(t, exitUsage, code)
}
