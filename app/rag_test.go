package app

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/usecase/rag/ragtest"
)

// ragApp is a library app whose semantic search uses the test embedder,
// with the index's update loop running as the server runs it.
type ragApp struct {
	*libApp
	emb *ragtest.Embedder
}

func newRAGApp(t *testing.T) *ragApp {
	t.Helper()
	emb := ragtest.New("test", "bow", 512)
	la := newLibAppWith(t, nil, appOptions{embedder: emb})
	require.NoError(t, la.lib.rag.Start(context.Background()))
	t.Cleanup(func() { _ = la.lib.rag.Stop(context.Background()) })
	la.put(t, map[string]string{
		"Interstellar (2014)/Interstellar.mkv":   "x",
		"The Hangover (2009)/The Hangover.mkv":   "x",
		"The Expanse/Season 1/S01E01.mkv":        "x",
		"Ёжик в тумане (1975)/Ёжик в тумане.avi": "x",
	})
	la.scan(t)
	return &ragApp{libApp: la, emb: emb}
}

// documents counts the documents (not queries) the embedder was given.
func (ra *ragApp) documents() int {
	n := 0
	for _, s := range ra.emb.Seen() {
		if strings.Contains(s, "media_type: ") {
			n++
		}
	}
	return n
}

// build starts a build through the API and waits for it to complete.
func (ra *ragApp) build(t *testing.T) map[string]any {
	t.Helper()
	resp, body := ra.do(t, "POST", "/api/media-admin/rag/build", ra.admin, nil)
	require.Equal(t, 202, resp.StatusCode, "%v", body)
	assert.Equal(t, "started", body["status"])
	return ra.waitBuilt(t)
}

// waitBuilt waits for the running build to complete and returns the status.
func (ra *ragApp) waitBuilt(t *testing.T) map[string]any {
	t.Helper()
	var st map[string]any
	require.Eventually(t, func() bool {
		_, st = ra.do(t, "GET", "/api/media-admin/rag/status", ra.admin, nil)
		return st["state"] != "running"
	}, 10*time.Second, 10*time.Millisecond)
	require.Equal(t, "completed", st["state"], "%v", st)
	return st
}

// search asks POST path and returns the titles found.
func (ra *ragApp) search(t *testing.T, path, token string, body map[string]any) []map[string]any {
	t.Helper()
	resp, out := ra.do(t, "POST", path, token, body)
	require.Equal(t, 200, resp.StatusCode, "%v", out)
	var hits []map[string]any
	for _, r := range out["results"].([]any) {
		hits = append(hits, r.(map[string]any))
	}
	return hits
}

func titles(hits []map[string]any) []string {
	var out []string
	for _, h := range hits {
		out = append(out, h["media"].(map[string]any)["title"].(string))
	}
	return out
}

func TestRAGSearchNeedsABuiltIndex(t *testing.T) {
	ra := newRAGApp(t)
	for _, path := range []string{"/api/media-admin/rag/search", "/api/media/search"} {
		resp, body := ra.do(t, "POST", path, ra.admin, map[string]any{"query": "space"})
		assert.Equal(t, 409, resp.StatusCode, path)
		assert.Equal(t, "index_not_built", errCode(body), path)
	}
	_, st := ra.do(t, "GET", "/api/media-admin/rag/status", ra.admin, nil)
	assert.Equal(t, "idle", st["state"])
	assert.Equal(t, "test", st["provider"])

	resp, _ := ra.do(t, "POST", "/api/media-admin/rag/build", ra.user, nil)
	assert.Equal(t, 403, resp.StatusCode, "building is for administrators")
	resp, _ = ra.do(t, "POST", "/api/media-admin/rag/search", ra.user, map[string]any{"query": "x"})
	assert.Equal(t, 403, resp.StatusCode)
}

func TestRAGBuildStatusAndSearch(t *testing.T) {
	ra := newRAGApp(t)
	release := ra.emb.Hold()
	resp, body := ra.do(t, "POST", "/api/media-admin/rag/build", ra.admin, map[string]any{})
	require.Equal(t, 202, resp.StatusCode, "%v", body)
	resp, body = ra.do(t, "POST", "/api/media-admin/rag/build", ra.admin, nil)
	assert.Equal(t, 409, resp.StatusCode)
	assert.Equal(t, "rag_build_running", errCode(body))
	_, st := ra.do(t, "GET", "/api/media-admin/rag/status", ra.admin, nil)
	assert.Equal(t, "running", st["state"])
	release()
	st = ra.waitBuilt(t)
	assert.EqualValues(t, 4, st["indexed"], "three films and a series; the season and episode roll up: %v", st)
	assert.EqualValues(t, 4, st["total"])
	assert.EqualValues(t, 512, st["dimensions"])
	assert.NotNil(t, st["built_at"])
	assert.Nil(t, st["error"])

	hits := ra.search(t, "/api/media-admin/rag/search", ra.admin, map[string]any{"query": "ежик"})
	require.Len(t, hits, 1)
	assert.Equal(t, []string{"Ёжик в тумане"}, titles(hits))
	assert.Greater(t, hits[0]["score"].(float64), 0.0)
	assert.NotContains(t, hits[0]["media"], "user_state", "the administration shows the catalogue")

	hits = ra.search(t, "/api/media/search", ra.user, map[string]any{"query": "the", "type": "series"})
	assert.Equal(t, []string{"The Expanse"}, titles(hits))
	assert.Contains(t, hits[0]["media"], "user_state", "users see their watching state")
	assert.Len(t, ra.search(t, "/api/media/search", ra.user, map[string]any{"query": "the", "top_k": 1}), 1)

	hedgehog := int64(hits0ID(t, ra))
	resp, out := ra.do(t, "PUT", "/api/media/"+strconv.FormatInt(hedgehog, 10)+"/progress", ra.user, map[string]any{"position": 120, "duration": 600})
	require.Equal(t, 204, resp.StatusCode, "%v", out)
	mine := ra.search(t, "/api/media/search", ra.user, map[string]any{"query": "ежик"})
	require.Len(t, mine, 1)
	assert.EqualValues(t, 120, mine[0]["media"].(map[string]any)["user_state"].(map[string]any)["position"], "the asker's own state")
	theirs := ra.search(t, "/api/media/search", ra.admin, map[string]any{"query": "ежик"})
	assert.Nil(t, theirs[0]["media"].(map[string]any)["user_state"], "never another account's")

	for _, c := range []struct {
		body map[string]any
		code string
	}{{map[string]any{"query": "  "}, "invalid_input"}, {map[string]any{"query": "x", "top_k": 51}, "invalid_input"},
		{map[string]any{"query": "x", "type": "episode"}, "invalid_type"}} {
		resp, out := ra.do(t, "POST", "/api/media/search", ra.user, c.body)
		assert.Equal(t, 400, resp.StatusCode, "%v", c.body)
		assert.Equal(t, c.code, errCode(out), "%v", c.body)
	}
	resp, out = ra.do(t, "POST", "/api/media/search", ra.user, `{"query": 5}`)
	assert.Equal(t, 400, resp.StatusCode, "%v", out)
}

func TestRAGUpdatesAfterEditAndScan(t *testing.T) {
	t.Parallel()
	ra := newRAGApp(t)
	ra.build(t)
	docs := ra.documents()
	id := ra.idOf(t, "Interstellar (2014)/Interstellar.mkv")
	resp, body := ra.do(t, "PATCH", "/api/media-admin/media/"+strconv.FormatInt(id, 10), ra.admin, map[string]any{"plot": "a wormhole near Saturn"})
	require.Equal(t, 200, resp.StatusCode, "%v", body)
	require.Eventually(t, func() bool {
		return len(ra.search(t, "/api/media/search", ra.user, map[string]any{"query": "wormhole Saturn"})) == 1
	}, 15*time.Second, 50*time.Millisecond, "the edit reaches the index")
	assert.Equal(t, 1, ra.documents()-docs, "only the edited film was embedded again")

	docs = ra.documents()
	ra.put(t, map[string]string{"Paddington (2014)/Paddington.mkv": "x"})
	ra.scan(t)
	require.Eventually(t, func() bool {
		return len(ra.search(t, "/api/media/search", ra.user, map[string]any{"query": "paddington"})) == 1
	}, 15*time.Second, 50*time.Millisecond, "the scan's new film reaches the index")
	assert.Equal(t, 1, ra.documents()-docs, "only the new film was embedded")
}

func TestRAGPluginAnswersRecommendations(t *testing.T) {
	ra := newRAGApp(t)
	chat := func(msg string) map[string]any {
		resp, body := ra.do(t, "POST", "/api/chat", ra.user, map[string]any{"message": msg})
		require.Equal(t, 200, resp.StatusCode, "%v", body)
		return body
	}
	assert.NotEqual(t, "rag", chat("посоветуй что-нибудь про ежика")["handled_by"], "no index yet: the plugin passes")
	ra.build(t)
	body := chat("посоветуй что-нибудь про ежика в тумане")
	assert.Equal(t, "rag", body["handled_by"], "%v", body)
	assert.Contains(t, body["response"], "«Ёжик в тумане» (1975)")
	assert.NotContains(t, body["response"], "Hangover")
	assert.NotEqual(t, "rag", chat("сколько фильмов в библиотеке")["handled_by"], "not a recommendation")
	assert.NotEqual(t, "rag", chat("recommend something about kangaroos")["handled_by"], "nothing scores: the plugin passes")
}

// hits0ID is the id of the first hit of the admin search for "ежик".
func hits0ID(t *testing.T, ra *ragApp) float64 {
	t.Helper()
	hits := ra.search(t, "/api/media-admin/rag/search", ra.admin, map[string]any{"query": "ежик"})
	require.NotEmpty(t, hits)
	return hits[0]["media"].(map[string]any)["id"].(float64)
}
