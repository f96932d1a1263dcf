package app

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/repository/qbittorrent"
	"mediateka/repository/qbittorrent/qbittest"
	"mediateka/usecase/torrent/torrenttest"
)

// torrentLibApp is a library app whose torrent client is a real
// qbittorrent-nox, with a client of its own for the test to set the scene.
func torrentLibApp(t *testing.T, env map[string]string) (*libApp, *qbittorrent.Client) {
	t.Helper()
	d := qbittest.Start(t)
	full := map[string]string{"MEDIATEKA_TORRENT_CLIENT__URL": d.URL, "MEDIATEKA_TORRENT_CLIENT__USERNAME": d.Username,
		"MEDIATEKA_TORRENT_CLIENT__PASSWORD": d.Password}
	for k, v := range env {
		full[k] = v
	}
	c, err := qbittorrent.New(qbittorrent.Config{URL: d.URL, Username: d.Username, Password: d.Password})
	require.NoError(t, err)
	t.Cleanup(c.Close)
	return newLibAppEnv(t, nil, full), c
}

// addPaused adds a stopped single-file torrent called name and returns its hash.
func addPaused(t *testing.T, c *qbittorrent.Client, name, category string) string {
	t.Helper()
	file, hash := torrenttest.SingleFile(name, bytes.Repeat([]byte(name), 100))
	require.NoError(t, c.Add(context.Background(), domain.TorrentAdd{File: file, Category: category, Paused: true,
		SavePath: t.TempDir()}))
	return hash
}

func TestAssignCategoriesFromTheCatalogue(t *testing.T) {
	t.Parallel()
	la, c := torrentLibApp(t, nil)
	la.put(t, libraryFiles())
	la.scan(t)
	matrix := addPaused(t, c, "The.Matrix.1999.2160p.UHD.BluRay.mkv", "")
	bb := addPaused(t, c, "Breaking.Bad.S03.720p.WEB-DL.mkv", "")
	unknown := addPaused(t, c, "Totally.Unknown.Thing.2010.mkv", "")
	addPaused(t, c, "Some.Other.Film.2020.mkv", "films")
	require.Eventually(t, func() bool { return len(torrentsByHash(t, la.testApp, la.user)) == 4 }, 10e9, 50e6)

	resp, body := la.do(t, "POST", "/api/torrents/assign-categories", la.user, map[string]any{"dry_run": true})
	assert.Equal(t, 403, resp.StatusCode, "%v", body)
	matrixID := la.idOf(t, "Фильмы/Боевики/The.Matrix.1999.1080p.BluRay.x264-GROUP.mkv")
	want := map[string]any{
		"assigned": []any{map[string]any{"hash": matrix, "name": "The.Matrix.1999.2160p.UHD.BluRay.mkv",
			"category": "action", "score": 1.0, "entry_id": float64(matrixID), "entry_title": "The Matrix"}},
		"unmatched": []any{
			map[string]any{"hash": bb, "name": "Breaking.Bad.S03.720p.WEB-DL.mkv", "title": "Breaking Bad", "reason": "no_category"},
			map[string]any{"hash": unknown, "name": "Totally.Unknown.Thing.2010.mkv", "title": "Totally Unknown Thing", "reason": "no_match"},
		},
		"skipped": 1.0,
	}
	resp, body = la.do(t, "POST", "/api/torrents/assign-categories", la.admin, map[string]any{"dry_run": true})
	require.Equal(t, 200, resp.StatusCode, "%v", body)
	want["dry_run"] = true
	assertAssignAnswer(t, want, body)
	assert.Empty(t, torrentsByHash(t, la.testApp, la.user)[matrix]["category"], "a dry run changes nothing")

	resp, body = la.do(t, "POST", "/api/torrents/assign-categories", la.admin, nil)
	require.Equal(t, 200, resp.StatusCode, "%v", body)
	want["dry_run"] = false
	assertAssignAnswer(t, want, body)
	got := torrentsByHash(t, la.testApp, la.user)
	assert.Equal(t, "action", got[matrix]["category"], "the category was created and set")
	assert.Empty(t, got[bb]["category"])
	assert.Empty(t, got[unknown]["category"])

	_, body = la.do(t, "POST", "/api/torrents/assign-categories", la.admin, nil)
	assert.EqualValues(t, 2, body["skipped"], "filed once, skipped after")
	assert.Empty(t, body["assigned"])
}

// assertAssignAnswer compares the answers with the unmatched ones in any order.
func assertAssignAnswer(t *testing.T, want, got map[string]any) {
	t.Helper()
	assert.ElementsMatch(t, want["unmatched"], got["unmatched"])
	w, g := copyWithout(want, "unmatched"), copyWithout(got, "unmatched")
	assert.Equal(t, w, g)
}

func copyWithout(m map[string]any, key string) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		if k != key {
			out[k] = v
		}
	}
	return out
}

func TestRelocateEndpointChecksRoleAndFolders(t *testing.T) {
	t.Parallel()
	la, _ := torrentLibApp(t, nil)
	resp, body := la.do(t, "POST", "/api/torrents/relocate", la.user, nil)
	assert.Equal(t, 403, resp.StatusCode, "%v", body)
	for dir, code := range map[string]string{"/etc": "path_outside_roots", "relative/dir": "path_not_absolute"} {
		resp, body = la.do(t, "POST", "/api/torrents/relocate", la.admin, map[string]any{"dirs": []string{la.root, dir}})
		assert.Equal(t, 400, resp.StatusCode, "%v", body)
		assert.Equal(t, code, errCode(body))
		assert.Contains(t, body["error"].(map[string]any)["fields"], "dirs")
	}
	resp, body = la.do(t, "POST", "/api/torrents/relocate", la.admin, map[string]any{"dirs": "not a list"})
	assert.Equal(t, 400, resp.StatusCode, "%v", body)

	resp, body = la.do(t, "POST", "/api/torrents/relocate", la.admin, nil)
	require.Equal(t, 200, resp.StatusCode, "%v", body)
	assert.Equal(t, map[string]any{"relocated": []any{}, "not_found": []any{}, "truncated": false}, body,
		"nothing is missing: nothing to do")
	_, body = la.do(t, "GET", "/api/torrents/relocate/status", la.admin, nil)
	assert.Equal(t, "completed", body["state"])
	assert.EqualValues(t, 0, body["total"])
}
