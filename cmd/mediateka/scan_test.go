package main

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	_ "github.com/mattn/go-sqlite3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/bench/libgen"
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

// TestHelperScanProcess is `mediateka scan` in a child process, for the
// kill test below; it does nothing in a normal test run.
func TestHelperScanProcess(t *testing.T) {
	if os.Getenv("MEDIATEKA_SCAN_CHILD") != "1" {
		t.Skip("runs only as the child of TestKilledScanIsCompletedByTheNext")
	}
	os.Exit(run([]string{"scan", "--quiet", "--config", os.Getenv("MEDIATEKA_SCAN_CONFIG")}, strings.NewReader(""), io.Discard, io.Discard))
}

func TestKilledScanIsCompletedByTheNext(t *testing.T) {
	if testing.Short() {
		t.Skip("generates an 8 000-file library")
	}
	cfgPath, root := scanSetup(t)
	require.NoError(t, os.RemoveAll(root))
	st, err := libgen.Generate(root, 8000, 3)
	require.NoError(t, err)
	dbPath := filepath.Join(filepath.Dir(cfgPath), "data", "mediateka.db")

	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperScanProcess$")
	cmd.Env = append(os.Environ(), "MEDIATEKA_SCAN_CHILD=1", "MEDIATEKA_SCAN_CONFIG="+cfgPath)
	require.NoError(t, cmd.Start())
	killed := false
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if n := countRows(t, dbPath, `SELECT count(*) FROM media`); n > 0 {
			require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
			killed = true
			break
		}
		time.Sleep(2 * time.Millisecond)
	}
	_ = cmd.Wait()
	require.True(t, killed, "the scan wrote nothing in 30 s")
	files := countRows(t, dbPath, `SELECT count(*) FROM media WHERE mtime IS NOT NULL`)
	require.Less(t, files, st.Files, "the kill came mid-scan")
	assert.Zero(t, countRows(t, dbPath, `SELECT count(*) FROM media m WHERE parent_id > 0
		AND NOT EXISTS (SELECT 1 FROM media p WHERE p.id = m.parent_id)`), "no orphans after a kill")

	var out, errOut bytes.Buffer
	code := run([]string{"scan", "--quiet", "--config", cfgPath}, strings.NewReader(""), &out, &errOut)
	require.Equal(t, 0, code, "the lock died with the process: %s", errOut.String())
	assert.Contains(t, out.String(), fmt.Sprintf("%d added", st.Files-files))
	assert.Equal(t, st.Files, countRows(t, dbPath, `SELECT count(*) FROM media WHERE mtime IS NOT NULL AND status = 'ok'`))
	assert.Zero(t, countRows(t, dbPath, `SELECT count(*) FROM media m WHERE parent_id > 0
		AND NOT EXISTS (SELECT 1 FROM media p WHERE p.id = m.parent_id)`))
	assert.Zero(t, countRows(t, dbPath, `SELECT count(*) FROM media WHERE media_type = 'series'
		AND num_of_seasons IS NULL`), "season counts are derived for every series after the resume")
}

// countRows runs a count query on the database file, 0 while it does not
// exist yet.
func countRows(t *testing.T, dbPath, q string) int {
	t.Helper()
	if _, err := os.Stat(dbPath); err != nil {
		return 0
	}
	db, err := sql.Open("sqlite3", "file:"+dbPath+"?mode=ro&_busy_timeout=5000")
	require.NoError(t, err)
	defer db.Close()
	var n int
	if err := db.QueryRow(q).Scan(&n); err != nil {
		return 0 // the table is not there yet
	}
	return n
}
