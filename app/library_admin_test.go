package app

// Library administration through the HTTP API: edits, audits, duplicates
// and file names a person really has.

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEditThroughTheAPI(t *testing.T) {
	t.Parallel()
	la := newLibApp(t, nil)
	la.put(t, libraryFiles())
	la.scan(t)
	id := la.idOf(t, "Фильмы/Боевики/The.Matrix.1999.1080p.BluRay.x264-GROUP.mkv")
	url := fmt.Sprintf("/api/media-admin/media/%d", id)
	for _, tt := range []struct {
		body  any
		code  string
		field string
	}{
		{map[string]any{"year": 3000}, "invalid_input", "year"},
		{map[string]any{"media_type": "podcast"}, "invalid_type", "media_type"},
		{map[string]any{"genres": "drama"}, "invalid_input", "genres"},
		{map[string]any{"path": "/etc"}, "invalid_input", "path"},
		{map[string]any{"main_category": "space"}, "invalid_category", "main_category"},
		{[]int{1}, "invalid_input", "body"},
		{"{", "invalid_json", ""},
	} {
		resp, body := la.do(t, "PATCH", url, la.admin, tt.body)
		assert.Equal(t, 400, resp.StatusCode, "%v", tt.body)
		assert.Equal(t, tt.code, errCode(body), "%v", tt.body)
		if tt.field != "" {
			assert.Contains(t, body["error"].(map[string]any)["fields"], tt.field)
		}
	}
	resp, body := la.do(t, "PATCH", "/api/media-admin/media/abc", la.admin, map[string]any{"title": "x"})
	assert.Equal(t, 400, resp.StatusCode)
	assert.Equal(t, "invalid_input", errCode(body))
	resp, body = la.do(t, "PATCH", "/api/media-admin/media/424242", la.admin, map[string]any{"title": "x"})
	assert.Equal(t, 404, resp.StatusCode)
	assert.Equal(t, "media_not_found", errCode(body))
	resp, _ = la.do(t, "PATCH", url, la.user, map[string]any{"title": "x"})
	assert.Equal(t, 403, resp.StatusCode)

	resp, body = la.do(t, "PATCH", url, la.admin, map[string]any{"title": "Матрица", "genres": []string{"фантастика"}, "rating": map[string]any{"kp": 8.5}})
	require.Equal(t, 200, resp.StatusCode, "%v", body)
	assert.Equal(t, "Матрица", body["title"])
	assert.Equal(t, []any{"genres", "rating", "title"}, body["edited_fields"])
	la.put(t, map[string]string{"Фильмы/Боевики/The.Matrix.1999.1080p.BluRay.x264-GROUP.mkv": "re-encoded, longer"})
	la.scan(t)
	_, body = la.do(t, "GET", fmt.Sprintf("/api/media/%d", id), la.user, nil)
	assert.Equal(t, "Матрица", body["title"], "the scan keeps a person's title")
	assert.EqualValues(t, len("re-encoded, longer"), body["size"])
	_, body = la.do(t, "POST", "/api/media/by-title", la.user, map[string]any{"title": "матрица"})
	assert.EqualValues(t, id, body["match"].(map[string]any)["id"], "search sees the edit")
}

func TestAuditAndDuplicatesThroughTheAPI(t *testing.T) {
	t.Parallel()
	la := newLibApp(t, nil)
	files := libraryFiles()
	files["Фильмы/Copy/The Matrix (1999).avi"] = "0123456789"
	la.put(t, files)
	la.scan(t)
	la.put(t, map[string]string{"Новое/Heat.1995.mkv": "heat"})

	resp, body := la.do(t, "POST", "/api/media-admin/audit", la.user, nil)
	assert.Equal(t, 403, resp.StatusCode)
	assert.Equal(t, "forbidden", errCode(body))
	resp, body = la.do(t, "POST", "/api/media-admin/audit", la.admin, nil)
	require.Equal(t, 200, resp.StatusCode, "%v", body)
	summary := body["summary"].(map[string]any)
	assert.EqualValues(t, 1, summary["unregistered_file"])
	assert.EqualValues(t, 0, summary["missing_file"])
	assert.EqualValues(t, 0, summary["orphan"])
	assert.GreaterOrEqual(t, summary["duplicate"], 1.0)
	assert.EqualValues(t, len(body["issues"].([]any)), body["total"])
	for _, i := range body["issues"].([]any) {
		issue := i.(map[string]any)
		if issue["media_id"] != nil {
			assert.NotEmpty(t, issue["title"], "an issue about an entry names its title: %v", issue)
			assert.NotEmpty(t, issue["path"], "and its path: %v", issue)
		}
	}

	resp, body = la.do(t, "GET", "/api/media-admin/duplicates", la.admin, nil)
	require.Equal(t, 200, resp.StatusCode)
	reasons := map[string]int{}
	for _, g := range body["groups"].([]any) {
		gm := g.(map[string]any)
		reasons[gm["reason"].(string)] += len(gm["entries"].([]any))
	}
	assert.Equal(t, 2, reasons["same_title_year"], "The Matrix (1999) as two files")
	assert.Equal(t, 2, reasons["same_content"], "two files with the same bytes")
	assert.EqualValues(t, len(body["groups"].([]any)), body["total"])
	assert.Equal(t, "2", resp.Header.Get("X-Total-Count"), "the number of groups")
	// An entry of a group is what tells the copies apart, not the whole
	// record.
	entry := body["groups"].([]any)[0].(map[string]any)["entries"].([]any)[0].(map[string]any)
	assert.ElementsMatch(t, []string{"id", "title", "title_ru", "title_orig", "year", "media_type", "status", "disk_name", "path", "size"},
		keysOf(entry))

	// Pages: one group each, in the same order, the count whatever the page.
	var paged []any
	for offset := range 3 {
		resp, body = la.do(t, "GET", fmt.Sprintf("/api/media-admin/duplicates?limit=1&offset=%d", offset), la.admin, nil)
		require.Equal(t, 200, resp.StatusCode, "%v", body)
		assert.Equal(t, "2", resp.Header.Get("X-Total-Count"))
		assert.EqualValues(t, 2, body["total"])
		paged = append(paged, body["groups"].([]any)...)
	}
	require.Len(t, paged, 2, "two pages of one, then an empty one")
	assert.Equal(t, "same_title_year", paged[0].(map[string]any)["reason"])
	assert.Equal(t, "same_content", paged[1].(map[string]any)["reason"])
	for q, field := range map[string]string{"limit=0": "limit", "limit=501": "limit", "limit=x": "limit", "offset=-1": "offset"} {
		resp, body = la.do(t, "GET", "/api/media-admin/duplicates?"+q, la.admin, nil)
		assert.Equal(t, 400, resp.StatusCode, q)
		assert.Equal(t, "invalid_input", errCode(body), q)
		assert.Contains(t, body["error"].(map[string]any)["fields"], field, q)
	}
}

func keysOf(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestOddFileNamesThroughTheAPI(t *testing.T) {
	t.Parallel()
	la := newLibApp(t, nil)
	la.put(t, map[string]string{
		"Фильмы/Bad\xff\xfeName.2001.mkv": "odd bytes",
		"Фильмы/" + strings.Repeat("Очень длинное название ", 10)[:240] + ".mkv": "long name",
	})
	st := la.scan(t)
	assert.EqualValues(t, 2, st["added"])
	resp, raw := la.raw(t, "GET", "/api/media/files?type=movie", la.user, nil)
	require.Equal(t, 200, resp.StatusCode)
	var entries []map[string]any
	require.NoError(t, json.Unmarshal(raw, &entries), "the list stays valid JSON")
	require.Len(t, entries, 2)
	for _, e := range entries {
		id := int64(e["id"].(float64))
		resp, body := la.raw(t, "GET", fmt.Sprintf("/api/media/%d/stream", id), la.user, nil)
		assert.Equal(t, 200, resp.StatusCode, "%v", e["path"])
		assert.Contains(t, []string{"odd bytes", "long name"}, string(body), "the file streams by id whatever its name")
	}
}
