package app

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/repository/localfs"
)

func TestLibraryRootsThroughTheAPI(t *testing.T) {
	t.Parallel()
	la := newLibApp(t, nil)
	la.put(t, map[string]string{"Фильмы/Heat.1995.mkv": "heat"})
	la.scan(t)
	for _, m := range []string{"GET", "PUT"} {
		resp, body := la.do(t, m, "/api/media-admin/roots", la.user, map[string]any{"dirs": []string{}})
		assert.Equal(t, 403, resp.StatusCode, "%s is for admins: %v", m, body)
	}
	resp, body := la.do(t, "GET", "/api/media-admin/roots", la.admin, nil)
	require.Equal(t, 200, resp.StatusCode, "%v", body)
	assert.Equal(t, []any{map[string]any{"path": la.root, "disk": "Disk 1", "exists": true, "entries": 1.0}}, body["dirs"])

	series := filepath.Join(filepath.Dir(la.root), "Сериалы")
	require.NoError(t, os.MkdirAll(series, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(series, "Dark.S01E01.mkv"), []byte("dark"), 0o644))
	resp, body = la.do(t, "PUT", "/api/media-admin/roots", la.admin,
		map[string]any{"dirs": []any{map[string]string{"path": la.root, "disk": "Disk 1"}, series}})
	require.Equal(t, 200, resp.StatusCode, "%v", body)
	assert.Equal(t, []any{
		map[string]any{"path": la.root, "disk": "Disk 1", "exists": true, "entries": 1.0},
		map[string]any{"path": series, "disk": "Сериалы", "exists": true, "entries": 0.0},
	}, body["dirs"], "a plain string is a path named after its folder")
	saved, _, err := localfs.LoadRoots(la.cfg.SearchDirsPath())
	require.NoError(t, err)
	assert.Equal(t, []domain.Root{{Path: la.root, Disk: "Disk 1"}, {Path: series, Disk: "Сериалы"}}, saved,
		"written to search_dirs.json for the next start and the command line")

	st := la.scan(t)
	assert.EqualValues(t, 1, st["added"], "the new folder is scanned without a restart")
	_, body = la.do(t, "GET", "/api/media-admin/roots", la.admin, nil)
	assert.EqualValues(t, 3, body["dirs"].([]any)[1].(map[string]any)["entries"], "series, season, episode")
}

func TestLibraryRootsRefusals(t *testing.T) {
	t.Parallel()
	la := newLibApp(t, nil)
	before, err := os.ReadFile(la.cfg.SearchDirsPath())
	require.NoError(t, err)
	cases := []struct {
		body   any
		status int
		code   string
		fields []string
	}{
		{map[string]any{}, 400, "invalid_input", []string{"dirs"}},
		{map[string]any{"dirs": "/srv"}, 400, "invalid_input", []string{"dirs"}},
		{map[string]any{"dirs": []any{la.root, 5, []string{"x"}}}, 400, "invalid_input", []string{"dirs[1]", "dirs[2]"}},
		{map[string]any{"dirs": []any{la.root, "relative", filepath.Join(la.root, "absent"), filepath.Dir(la.root),
			map[string]string{"path": t.TempDir(), "disk": "library"}}}, 400, "invalid_input",
			[]string{"dirs[1].path", "dirs[2].path", "dirs[0].path", "dirs[4].disk"}},
		{"not json", 400, "invalid_json", nil},
	}
	for _, c := range cases {
		resp, body := la.do(t, "PUT", "/api/media-admin/roots", la.admin, c.body)
		require.Equal(t, c.status, resp.StatusCode, "%v → %v", c.body, body)
		assert.Equal(t, c.code, errCode(body))
		if c.fields != nil {
			fields, _ := body["error"].(map[string]any)["fields"].(map[string]any)
			got := make([]string, 0, len(fields))
			for k := range fields {
				got = append(got, k)
			}
			assert.ElementsMatch(t, c.fields, got, "%v", body)
		}
	}
	after, err := os.ReadFile(la.cfg.SearchDirsPath())
	require.NoError(t, err)
	assert.Equal(t, string(before), string(after), "a refused change writes nothing")

	unlock, ok, err := localfs.NewLock(filepath.Join(la.cfg.DataDir, "scan.lock")).TryLock()
	require.NoError(t, err)
	require.True(t, ok)
	resp, body := la.do(t, "PUT", "/api/media-admin/roots", la.admin, map[string]any{"dirs": []string{t.TempDir()}})
	unlock()
	assert.Equal(t, 409, resp.StatusCode)
	assert.Equal(t, "scan_running", errCode(body), "a scan of the command line is running")
}
