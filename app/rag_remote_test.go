package app

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/repository/aimodel/aifake"
)

// TestRAGBuildsWithAnOpenAICompatibleEmbedder: rag.embedder "openai" at a
// configured server sends the documents there with the key store's key,
// and searches embed the query there too.
func TestRAGBuildsWithAnOpenAICompatibleEmbedder(t *testing.T) {
	t.Parallel()
	fake := aifake.NewOpenAI(t)
	fake.SetDimensions(64)
	la := newLibAppEnv(t, nil, map[string]string{"MEDIATEKA_RAG__EMBEDDER": "openai",
		"MEDIATEKA_RAG__BASE_URL": fake.URL(), "MEDIATEKA_RAG__MODEL": "emb-model"})
	require.NoError(t, la.lib.rag.Start(context.Background()))
	t.Cleanup(func() { _ = la.lib.rag.Stop(context.Background()) })
	ra := &ragApp{libApp: la}
	la.put(t, map[string]string{"Interstellar (2014)/Interstellar.mkv": "x", "The Hangover (2009)/The Hangover.mkv": "x"})
	la.scan(t)
	resp, body := la.do(t, "POST", "/api/keys", la.admin, map[string]any{"key_name": "emb", "api_key": "sk-embed-key", "provider": "openai"})
	require.Equal(t, 201, resp.StatusCode, "%v", body)

	st := ra.build(t)
	assert.Equal(t, "openai", st["provider"])
	assert.Equal(t, "emb-model", st["model"])
	assert.EqualValues(t, 64, st["dimensions"])
	assert.EqualValues(t, 2, st["indexed"])
	var docs []string
	for _, r := range fake.Requests() {
		assert.Equal(t, "/v1/embeddings", r.Path)
		assert.Equal(t, "emb-model", r.Model)
		assert.Equal(t, "sk-embed-key", r.Key, "the key store's key")
		docs = append(docs, r.Input...)
	}
	require.Len(t, docs, 2)
	heads := []string{strings.SplitN(docs[0], "\n", 2)[0], strings.SplitN(docs[1], "\n", 2)[0]}
	assert.ElementsMatch(t, []string{"Interstellar. 2014", "The Hangover. 2009"}, heads, "titles and year head the document")

	ra.search(t, "/api/media/search", la.user, map[string]any{"query": "space travel"})
	assert.Equal(t, []string{"space travel"}, fake.Last().Input, "the query is embedded by the same server")
}

// A build may name the key it runs on (POST /rag/build {"key"}): that key
// alone is used, not the rotation's first; an unknown key is 404 and a key
// of another provider 400, before anything is embedded.
func TestRAGBuildOnANamedKey(t *testing.T) {
	t.Parallel()
	fake := aifake.NewOpenAI(t)
	fake.SetDimensions(32)
	la := newLibAppEnv(t, nil, map[string]string{"MEDIATEKA_RAG__EMBEDDER": "openai",
		"MEDIATEKA_RAG__BASE_URL": fake.URL(), "MEDIATEKA_RAG__MODEL": "emb-model"})
	require.NoError(t, la.lib.rag.Start(context.Background()))
	t.Cleanup(func() { _ = la.lib.rag.Stop(context.Background()) })
	ra := &ragApp{libApp: la}
	la.put(t, map[string]string{"Interstellar (2014)/Interstellar.mkv": "x"})
	la.scan(t)
	for _, k := range []map[string]any{
		{"key_name": "first", "api_key": "sk-first-key", "provider": "openai"},
		{"key_name": "chosen", "api_key": "sk-chosen-key", "provider": "openai"},
		{"key_name": "other", "api_key": "gm-other-key", "provider": "gemini"},
	} {
		resp, body := la.do(t, "POST", "/api/keys", la.admin, k)
		require.Equal(t, 201, resp.StatusCode, "%v", body)
	}

	resp, body := la.do(t, "POST", "/api/media-admin/rag/build", la.admin, map[string]any{"key": "nope"})
	assert.Equal(t, 404, resp.StatusCode, "%v", body)
	resp, body = la.do(t, "POST", "/api/media-admin/rag/build", la.admin, map[string]any{"key": "other"})
	assert.Equal(t, 400, resp.StatusCode, "%v", body)
	assert.Empty(t, fake.Requests(), "nothing embedded on a refused key")

	resp, body = la.do(t, "POST", "/api/media-admin/rag/build", la.admin, map[string]any{"key": "chosen"})
	require.Equal(t, 202, resp.StatusCode, "%v", body)
	ra.waitBuilt(t)
	require.NotEmpty(t, fake.Requests())
	for _, r := range fake.Requests() {
		assert.Equal(t, "sk-chosen-key", r.Key, "the named key, not the rotation's first")
	}
}
