package aifake

import (
	"encoding/base64"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestOpenAIEmbeddingsWire(t *testing.T) {
	o := NewOpenAI(t)
	o.ReverseEmbeddings(true)
	resp := post(t, o.URL()+"/embeddings", map[string]string{"Authorization": "Bearer k1"},
		`{"model":"m","input":["a b","c"],"dimensions":3}`)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	v := decode(t, resp.Body)
	assert.Equal(t, "list", v["object"])
	assert.Equal(t, "m", v["model"])
	data := v["data"].([]any)
	require.Len(t, data, 2)
	first := data[0].(map[string]any)
	assert.Equal(t, "embedding", first["object"])
	assert.EqualValues(t, 1, first["index"], "reversed: the last text comes first")
	assert.Len(t, first["embedding"], 3)
	assert.EqualValues(t, 3, v["usage"].(map[string]any)["prompt_tokens"])
	r := o.Last()
	assert.Equal(t, []string{"a b", "c"}, r.Input)
	assert.Equal(t, 3, r.Dimensions)
	assert.Equal(t, "k1", r.Key)
}

func TestOpenAIEmbeddingsBase64AndOneString(t *testing.T) {
	o := NewOpenAI(t)
	resp := post(t, o.URL()+"/embeddings", nil, `{"model":"m","input":"solo","encoding_format":"base64"}`)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	item := decode(t, resp.Body)["data"].([]any)[0].(map[string]any)
	raw, err := base64.StdEncoding.DecodeString(item["embedding"].(string))
	require.NoError(t, err)
	assert.Equal(t, float32LE(Vector("solo", DefaultDimensions)), raw)

	resp = post(t, o.URL()+"/embeddings", nil, `{"model":"m","input":["ok",""]}`)
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode, "OpenAI refuses an empty input")
}

func TestGeminiEmbeddingsWire(t *testing.T) {
	g := NewGemini(t)
	url := g.URL() + "/v1beta/models/emb:batchEmbedContents"
	resp := post(t, url, map[string]string{"x-goog-api-key": "k1"},
		`{"requests":[{"model":"models/emb","content":{"parts":[{"text":"a"}]}},{"model":"models/emb","content":{"parts":[{"text":"b"}]}}]}`)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	embs := decode(t, resp.Body)["embeddings"].([]any)
	require.Len(t, embs, 2)
	assert.Len(t, embs[1].(map[string]any)["values"], DefaultDimensions)
	assert.Equal(t, []string{"a", "b"}, g.Last().Input)

	resp = post(t, url, nil, `{"requests":[{"model":"models/other","content":{"parts":[{"text":"a"}]}}]}`)
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode, "a request naming another model")
	g.RateLimit("k2")
	resp = post(t, url, map[string]string{"x-goog-api-key": "k2"}, `{"requests":[{"model":"models/emb","content":{"parts":[{"text":"a"}]}}]}`)
	assert.Equal(t, http.StatusTooManyRequests, resp.StatusCode)
}
