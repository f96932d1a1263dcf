package app

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/repository/sqlstore/sqlstoretest"
)

func libraryFiles() map[string]string {
	return map[string]string{
		"Фильмы/Боевики/The.Matrix.1999.1080p.BluRay.x264-GROUP.mkv":    "0123456789",
		"Фильмы/Боевики/The.Matrix.1999.1080p.BluRay.x264-GROUP.ru.srt": "1\n00:00:01,000 --> 00:00:02,000\nТы избранный\n",
		"Фильмы/Матрица (1999)/Matrix.mp4":                              "another copy",
		"Сериалы/Breaking Bad (2008)/Season 1/Breaking.Bad.S01E01.mkv":  "bb-s1e1",
		"Сериалы/Breaking Bad (2008)/Season 1/Breaking.Bad.S01E02.mkv":  "bb-s1e2",
		"Сериалы/Breaking Bad (2008)/Season 2/Breaking.Bad.S02E01.mkv":  "bb-s2e1",
		"Сериалы/Ёлки/Ёлки.S01E01.avi":                                  "yolki",
	}
}

func TestScanThroughTheAPI(t *testing.T) {
	t.Parallel()
	la := newLibApp(t, nil)
	la.put(t, libraryFiles())

	resp, body := la.do(t, "POST", "/api/media-admin/scan", la.user, nil)
	assert.Equal(t, 403, resp.StatusCode)
	assert.Equal(t, "forbidden", errCode(body))
	resp, _ = la.do(t, "POST", "/api/media-admin/scan", "", nil)
	assert.Equal(t, 401, resp.StatusCode)

	st := la.scan(t)
	assert.EqualValues(t, 6, st["files_seen"])
	assert.EqualValues(t, 6, st["added"])
	assert.NotEmpty(t, st["scan_id"])
	assert.NotNil(t, st["finished_at"])
	roots := st["roots"].([]any)
	require.Len(t, roots, 1)
	assert.Equal(t, true, roots[0].(map[string]any)["available"])

	st = la.scan(t)
	assert.EqualValues(t, 0, st["added"], "a rescan of an unchanged library adds nothing")

	resp, body = la.do(t, "DELETE", "/api/media-admin/scan", la.admin, nil)
	assert.Equal(t, 409, resp.StatusCode)
	assert.Equal(t, "scan_not_running", errCode(body))

	// Another process (the command line) holds the scan lock.
	unlock, ok, err := scanLock(la.cfg).TryLock()
	require.NoError(t, err)
	require.True(t, ok)
	resp, body = la.do(t, "POST", "/api/media-admin/scan", la.admin, nil)
	unlock()
	assert.Equal(t, 409, resp.StatusCode)
	assert.Equal(t, "scan_running", errCode(body))
	assert.Equal(t, "a media scan is already running", body["error"].(map[string]any)["message"])
}

func TestScanRequestsThatAreRefused(t *testing.T) {
	t.Parallel()
	la := newLibApp(t, nil)
	la.put(t, map[string]string{"a.mkv": "a"})
	outside := t.TempDir()
	tests := []struct {
		body any
		code string
	}{
		{map[string]any{"paths": []string{"Фильмы"}}, "path_not_absolute"},
		{map[string]any{"paths": []string{outside}}, "path_outside_roots"},
		{map[string]any{"paths": []string{la.root + "/../" + filepath.Base(outside)}}, "path_outside_roots"},
		{map[string]any{"paths": []string{filepath.Join(la.root, "nope")}}, "path_not_found"},
		{map[string]any{"paths": []string{la.root + "/" + strings.Repeat("x", 5000)}}, "invalid_path"},
		{map[string]any{"paths": "not a list"}, "invalid_input"},
		{map[string]any{"disk": "Disk 9"}, "unknown_disk"},
		{`{"paths": [`, "invalid_json"},
	}
	for _, tt := range tests {
		resp, body := la.do(t, "POST", "/api/media-admin/scan", la.admin, tt.body)
		assert.Equal(t, 400, resp.StatusCode, "%v", tt.body)
		assert.Equal(t, tt.code, errCode(body), "%v", tt.body)
	}
	_, st := la.do(t, "GET", "/api/media-admin/scan/status", la.admin, nil)
	assert.Equal(t, "idle", st["state"], "no refused request started a scan")
	resp, body := la.do(t, "POST", "/api/media-admin/scan", la.admin, map[string]any{"paths": []string{la.root}, "disk": "Disk 1"})
	assert.Equal(t, 202, resp.StatusCode, "%v", body)
}

func checkCatalogueEndpoints(t *testing.T, la *libApp) {

	resp, raw := la.raw(t, "GET", "/api/media/files", la.user, nil)
	require.Equal(t, 200, resp.StatusCode)
	var all []map[string]any
	require.NoError(t, json.Unmarshal(raw, &all), string(raw))
	assert.Equal(t, fmt.Sprint(len(all)), resp.Header.Get("X-Total-Count"))
	assert.Len(t, all, 6+5, "6 video files, 2 series, 3 seasons")
	first := all[0]
	for _, k := range []string{"id", "disk_name", "path", "title", "year", "genres", "rating", "parent_id", "media_type", "status", "edited_fields"} {
		assert.Contains(t, first, k)
	}
	assert.IsType(t, []any{}, first["genres"], "JSON columns are real arrays")
	assert.IsType(t, map[string]any{}, first["rating"])

	resp, raw = la.raw(t, "GET", "/api/media/files?type=movie&limit=1&offset=1", la.user, nil)
	require.Equal(t, 200, resp.StatusCode)
	var page []map[string]any
	require.NoError(t, json.Unmarshal(raw, &page))
	assert.Len(t, page, 1)
	assert.Equal(t, "2", resp.Header.Get("X-Total-Count"))
	resp, raw = la.raw(t, "GET", "/api/media/files?q=%D0%95%D0%9B%D0%9A%D0%98&type=series", la.user, nil)
	require.NoError(t, json.Unmarshal(raw, &page))
	require.Len(t, page, 1, "q=ЕЛКИ finds Ёлки")
	assert.Equal(t, "1", resp.Header.Get("X-Total-Count"))

	for q, code := range map[string]string{"limit=abc": "invalid_input", "limit=5000": "invalid_input", "limit=-1": "invalid_input",
		"offset=-1": "invalid_input", "type=podcast": "invalid_type", "category=nope": "invalid_category"} {
		resp, body := la.do(t, "GET", "/api/media/files?"+q, la.user, nil)
		assert.Equal(t, 400, resp.StatusCode, q)
		assert.Equal(t, code, errCode(body), q)
	}
	resp, raw = la.raw(t, "GET", "/api/media/files?type=movie&limit=0", la.user, nil)
	require.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, "[]", string(raw), "limit=0 is an empty page")
	assert.Equal(t, "2", resp.Header.Get("X-Total-Count"), "that still counts")
	resp, _ = la.do(t, "GET", "/api/media/files", "", nil)
	assert.Equal(t, 401, resp.StatusCode)
}

// TestCatalogueReadEndpoints runs the read-only catalogue checks on one
// scanned library (building an app per check would only repeat the scan).
func TestCatalogueReadEndpoints(t *testing.T) {
	t.Parallel()
	la := newLibApp(t, nil)
	la.put(t, libraryFiles())
	la.scan(t)
	t.Run("files", func(t *testing.T) { checkCatalogueEndpoints(t, la) })
	t.Run("pages", func(t *testing.T) { checkPagesAreSlicesOfTheList(t, la) })
	t.Run("by-category and entries", func(t *testing.T) { checkByCategoryAndEntryWithChildren(t, la) })
	t.Run("streaming", func(t *testing.T) { checkStreamingWithRanges(t, la) })
	t.Run("subtitles", func(t *testing.T) { checkSubtitlesEndpoints(t, la) })
}

func TestByTitleAndSearchHistory(t *testing.T) {
	t.Parallel()
	la := newLibApp(t, nil)
	_, stop := runOnLoopback(t, la.testApp) // the search-log writer is a component of Run
	defer func() { require.NoError(t, stop()) }()
	la.put(t, libraryFiles())
	la.scan(t)
	resp, body := la.do(t, "POST", "/api/media/by-title", la.user, map[string]any{"title": "the.MATRIX"})
	require.Equal(t, 200, resp.StatusCode, "%v", body)
	match := body["match"].(map[string]any)
	assert.Equal(t, "The Matrix", match["title"])
	assert.Equal(t, "movie", match["media_type"])
	assert.Len(t, body["alternatives"], 0)

	_, body = la.do(t, "POST", "/api/media/by-title", la.user, map[string]any{"title": "breaking"})
	assert.Equal(t, "series", body["match"].(map[string]any)["media_type"], "the series before its seasons and episodes")
	assert.Len(t, body["alternatives"], 5, "two seasons and three episodes")
	_, body = la.do(t, "POST", "/api/media/by-title", la.user, map[string]any{"title": "breaking", "type": "season"})
	assert.Equal(t, "season", body["match"].(map[string]any)["media_type"])

	for _, tt := range []struct {
		body   any
		status int
		code   string
	}{
		{map[string]any{"title": "  "}, 400, "invalid_input"},
		{map[string]any{}, 400, "invalid_input"},
		{map[string]any{"title": 5}, 400, "invalid_input"},
		{map[string]any{"title": "matrix", "type": "podcast"}, 400, "invalid_type"},
		{map[string]any{"title": strings.Repeat("я", 501)}, 400, "invalid_input"},
		{map[string]any{"title": "Solaris"}, 404, "media_not_found"},
		{"not json", 400, "invalid_json"},
	} {
		resp, body := la.do(t, "POST", "/api/media/by-title", la.user, tt.body)
		assert.Equal(t, tt.status, resp.StatusCode, "%v", tt.body)
		assert.Equal(t, tt.code, errCode(body), "%v", tt.body)
	}
	resp, body = la.do(t, "GET", "/api/media/by-title", la.user, nil)
	assert.Equal(t, 405, resp.StatusCode, "by-title is POST only, not an id")
	assert.Equal(t, "method_not_allowed", errCode(body))
	require.Eventually(t, func() bool {
		var n int
		require.NoError(t, sqlstoretest.Raw(t, la.cfg.DBPath()).QueryRow(`SELECT count(*) FROM search_history`).Scan(&n))
		return n == 4 // the three valid searches and the miss
	}, 5*time.Second, 20*time.Millisecond)
	var hits int
	require.NoError(t, sqlstoretest.Raw(t, la.cfg.DBPath()).QueryRow(`SELECT results_count FROM search_history WHERE query = 'Solaris'`).Scan(&hits))
	assert.Zero(t, hits)
}

func checkByCategoryAndEntryWithChildren(t *testing.T, la *libApp) {
	resp, body := la.do(t, "GET", "/api/media/by-category", la.user, nil)
	require.Equal(t, 200, resp.StatusCode)
	cats := map[string]float64{}
	for _, c := range body["categories"].([]any) {
		cm := c.(map[string]any)
		cats[cm["name"].(string)] = cm["count"].(float64)
	}
	assert.EqualValues(t, 1, cats["action"])
	assert.EqualValues(t, 3, cats["uncategorized"])
	assert.Len(t, body["movies"].(map[string]any)["action"], 1)
	assert.Len(t, body["series"].(map[string]any)["uncategorized"], 2)
	assertByCategoryIsTheFileListGrouped(t, la, "")
	assertByCategoryIsTheFileListGrouped(t, la, "uncategorized")
	resp, body = la.do(t, "GET", "/api/media/by-category?category=action", la.user, nil)
	require.Equal(t, 200, resp.StatusCode)
	assert.Len(t, body["categories"], 1)
	resp, body = la.do(t, "GET", "/api/media/by-category?category=space", la.user, nil)
	assert.Equal(t, 400, resp.StatusCode)
	assert.Equal(t, "invalid_category", errCode(body))

	id := la.idOf(t, "Сериалы/Breaking Bad (2008)")
	resp, body = la.do(t, "GET", fmt.Sprintf("/api/media/%d", id), la.user, nil)
	require.Equal(t, 200, resp.StatusCode)
	assert.EqualValues(t, 2, body["num_of_seasons"])
	assert.Equal(t, []any{2.0, 1.0}, body["num_episodes_per_season"])
	seasons := body["children"].([]any)
	require.Len(t, seasons, 2)
	assert.Len(t, seasons[0].(map[string]any)["children"], 2)
	assert.Nil(t, body["size"], "a series folder has no file")

	for path, want := range map[string][2]any{
		"/api/media/abc": {400, "invalid_input"}, "/api/media/-1": {400, "invalid_input"}, "/api/media/1.5": {400, "invalid_input"},
		"/api/media/99999999999999999999": {400, "invalid_input"}, "/api/media/999999": {404, "media_not_found"},
	} {
		resp, body := la.do(t, "GET", path, la.user, nil)
		assert.Equal(t, want[0], resp.StatusCode, path)
		assert.Equal(t, want[1], errCode(body), path)
	}
}

func checkStreamingWithRanges(t *testing.T, la *libApp) {
	id := la.idOf(t, "Фильмы/Боевики/The.Matrix.1999.1080p.BluRay.x264-GROUP.mkv")
	url := fmt.Sprintf("/api/media/%d/stream", id)

	resp, body := la.raw(t, "GET", url, la.user, nil)
	require.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, "0123456789", string(body))
	assert.Equal(t, "video/x-matroska", resp.Header.Get("Content-Type"))
	assert.Equal(t, "bytes", resp.Header.Get("Accept-Ranges"))

	for rng, want := range map[string][2]string{
		"bytes=0-3": {"0123", "bytes 0-3/10"}, "bytes=7-": {"789", "bytes 7-9/10"}, "bytes=-2": {"89", "bytes 8-9/10"},
		"bytes=5-100": {"56789", "bytes 5-9/10"}, "bytes=-50": {"0123456789", "bytes 0-9/10"},
	} {
		resp, body := la.raw(t, "GET", url, la.user, map[string]string{"Range": rng})
		assert.Equal(t, 206, resp.StatusCode, rng)
		assert.Equal(t, want[0], string(body), rng)
		assert.Equal(t, want[1], resp.Header.Get("Content-Range"), rng)
	}
	for _, rng := range []string{"bytes=10-", "bytes=100-200", "bytes=abc", "bytes=5-2", "items=0-1", "bytes=-0", "bytes=0-1,x", "bytes=--1", "bytes=99999999999999999999-"} {
		resp, body := la.raw(t, "GET", url, la.user, map[string]string{"Range": rng})
		assert.Equal(t, 416, resp.StatusCode, rng)
		assert.Equal(t, "bytes */10", resp.Header.Get("Content-Range"), rng)
		var eb map[string]any
		require.NoError(t, json.Unmarshal(body, &eb), rng)
		assert.Equal(t, "range_not_satisfiable", errCode(eb), rng)
	}
	resp, body = la.raw(t, "GET", url, la.user, map[string]string{"Range": "bytes=0-1,4-5"})
	assert.Equal(t, 200, resp.StatusCode, "several ranges get the whole file")
	assert.Equal(t, "0123456789", string(body))
	resp, body = la.raw(t, "GET", url, la.user, map[string]string{"Range": "bytes=0-1", "If-Range": `"stale"`})
	assert.Equal(t, 200, resp.StatusCode, "a stale If-Range gets the whole file")
	assert.Len(t, body, 10)

	resp, body = la.raw(t, "HEAD", url, la.user, map[string]string{"Range": "bytes=2-5"})
	assert.Equal(t, 206, resp.StatusCode)
	assert.Equal(t, "4", resp.Header.Get("Content-Length"))
	assert.Empty(t, body)

	resp, body = la.raw(t, "GET", url+"?token="+la.user, "", nil)
	assert.Equal(t, 200, resp.StatusCode, "a <video> element passes the token in the URL")
	assert.Len(t, body, 10)
	resp, _ = la.raw(t, "GET", url+"?token=nonsense", "", nil)
	assert.Equal(t, 401, resp.StatusCode)

	series := la.idOf(t, "Сериалы/Breaking Bad (2008)")
	resp, body = la.raw(t, "GET", fmt.Sprintf("/api/media/%d/stream", series), la.user, nil)
	assert.Equal(t, 404, resp.StatusCode)
	assert.Contains(t, string(body), "no_file")
	resp, body = la.raw(t, "GET", "/api/media/x1/stream", la.user, nil)
	assert.Equal(t, 400, resp.StatusCode)
	assert.Contains(t, string(body), "invalid_input")
}

func checkSubtitlesEndpoints(t *testing.T, la *libApp) {
	id := la.idOf(t, "Фильмы/Боевики/The.Matrix.1999.1080p.BluRay.x264-GROUP.mkv")
	resp, raw := la.raw(t, "GET", fmt.Sprintf("/api/media/%d/subtitles", id), la.user, nil)
	require.Equal(t, 200, resp.StatusCode)
	var subs []map[string]any
	require.NoError(t, json.Unmarshal(raw, &subs))
	require.Len(t, subs, 1)
	assert.Equal(t, map[string]any{"index": 0.0, "language": "ru", "label": "Русский",
		"url": fmt.Sprintf("/api/media/%d/subtitles/0.vtt", id)}, subs[0])

	resp, raw = la.raw(t, "GET", subs[0]["url"].(string)+"?token="+la.user, "", nil)
	require.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, "text/vtt; charset=utf-8", resp.Header.Get("Content-Type"))
	assert.Equal(t, "WEBVTT\n\n1\n00:00:01.000 --> 00:00:02.000\nТы избранный\n\n", string(raw))
	for path, status := range map[string]int{
		fmt.Sprintf("/api/media/%d/subtitles/1.vtt", id):  404,
		fmt.Sprintf("/api/media/%d/subtitles/a.vtt", id):  400,
		fmt.Sprintf("/api/media/%d/subtitles/0.srt", id):  400,
		fmt.Sprintf("/api/media/%d/subtitles/-1.vtt", id): 400,
		"/api/media/zz/subtitles":                         400,
	} {
		resp, _ := la.raw(t, "GET", path, la.user, nil)
		assert.Equal(t, status, resp.StatusCode, path)
	}
}
