package app

// The admin overview's numbers (GET /api/media-admin/stats) and the reset
// of the system instruction, through the HTTP API over real SQLite.

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/repository/aimodel/aifake"
)

func TestStatsOfTheLibraryForAdmins(t *testing.T) {
	t.Parallel()
	la := newLibApp(t, nil)
	la.put(t, map[string]string{
		"Фильмы/Боевики/Heat (1995)/Heat.1995.mkv":                "12345",
		"Фильмы/Фантастика/The Matrix (1999)/The.Matrix.1999.mkv": "1234567890",
		"Фильмы/Брат (1997)/Brat.1997.mkv":                        "123",
		"Сериалы/Dark (2017)/Season 1/Dark.S01E01.mkv":            "12",
		"Сериалы/Dark (2017)/Season 1/Dark.S01E02.mkv":            "1",
	})
	la.scan(t)

	resp, _ := la.do(t, "GET", "/api/media-admin/stats", "", nil)
	assert.Equal(t, 401, resp.StatusCode)
	resp, body := la.do(t, "GET", "/api/media-admin/stats", la.user, nil)
	assert.Equal(t, 403, resp.StatusCode)
	assert.Equal(t, "forbidden", errCode(body))

	resp, body = la.do(t, "GET", "/api/media-admin/stats", la.admin, nil)
	require.Equal(t, 200, resp.StatusCode, "%v", body)
	assert.Equal(t, map[string]any{"movies": 3.0, "series": 1.0, "seasons": 1.0, "episodes": 2.0, "missing": 0.0}, body["counts"])
	assert.Equal(t, []any{map[string]any{"decade": 1990.0, "count": 3.0}, map[string]any{"decade": 2010.0, "count": 1.0}}, body["by_decade"])
	assert.Equal(t, 0.0, body["undated"])

	// The categories are by-category's, count for count.
	_, byCat := la.do(t, "GET", "/api/media/by-category", la.user, nil)
	assert.Equal(t, byCat["categories"], body["by_category"])

	roots := body["roots"].([]any)
	require.Len(t, roots, 1)
	root := roots[0].(map[string]any)
	assert.Equal(t, la.root, root["path"])
	assert.Equal(t, "Disk 1", root["disk"])
	assert.Equal(t, true, root["exists"])
	assert.Equal(t, 7.0, root["entries"], "3 films, a series, its season and 2 episodes")
	assert.Equal(t, 21.0, root["size_bytes"], "the bytes of the five files")
	assert.Positive(t, root["fs_total_bytes"])
	assert.LessOrEqual(t, root["fs_free_bytes"], root["fs_total_bytes"])
	_, dirs := la.do(t, "GET", "/api/media-admin/roots", la.admin, nil)
	assert.Equal(t, dirs["dirs"].([]any)[0].(map[string]any)["entries"], root["entries"], "the same count as /roots")
}

func TestAdminMoreSystemInstructionReset(t *testing.T) {
	t.Parallel()
	fake := aifake.NewGemini(t)
	ta := newTestApp(t, geminiEnv(fake))
	admin, user := ta.tokens(t)

	resp, _ := ta.do(t, "DELETE", "/api/admin/system_instruction", "", nil)
	assert.Equal(t, 401, resp.StatusCode)
	resp, body := ta.do(t, "DELETE", "/api/admin/system_instruction", user, nil)
	assert.Equal(t, 403, resp.StatusCode)
	assert.Equal(t, "forbidden", errCode(body))

	resp, def := ta.do(t, "GET", "/api/admin/system_instruction", admin, nil)
	require.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, true, def["is_default"])
	assert.Equal(t, "gemini", def["provider"])
	assert.Equal(t, "gemini-2.5-flash", def["model"])

	resp, si := ta.do(t, "POST", "/api/admin/system_instruction", admin, map[string]any{"content": "Отвечай стихами."})
	require.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, false, si["is_default"])

	resp, si = ta.do(t, "DELETE", "/api/admin/system_instruction", admin, nil)
	require.Equal(t, 200, resp.StatusCode, "%v", si)
	assert.Equal(t, def, si, "the built-in default again, as before anything was saved")
	resp, si = ta.do(t, "GET", "/api/admin/system_instruction", admin, nil)
	require.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, def, si)
	resp, si = ta.do(t, "DELETE", "/api/admin/system_instruction", admin, nil)
	assert.Equal(t, 200, resp.StatusCode, "resetting the default again is no error")
	assert.Equal(t, def, si)
}

func TestAdminMoreOfflineModelIsShown(t *testing.T) {
	t.Parallel()
	ta := newTestApp(t, nil)
	admin, _ := ta.tokens(t)
	resp, si := ta.do(t, "GET", "/api/admin/system_instruction", admin, nil)
	require.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, "offline", si["provider"])
	assert.Nil(t, si["model"], "the built-in assistant has no model name")
}
