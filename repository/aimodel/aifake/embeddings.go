package aifake

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"net/http"
	"slices"
	"strings"
	"time"
)

// DefaultDimensions is the length of the fakes' embedding vectors until
// SetDimensions changes it or a request asks for another length.
const DefaultDimensions = 8

// geminiMaxBatch is how many requests Gemini's batchEmbedContents takes at
// once; more are refused with 400, as the real API does.
const geminiMaxBatch = 100

// embedState is how the fakes answer embeddings requests.
type embedState struct {
	dims    int
	reverse bool
	delay   time.Duration
}

// Vector is the fakes' embedding of text: a deterministic vector of dims
// values in [-4, 4), deliberately not of unit length, so a test sees whether
// the client normalises.
func Vector(text string, dims int) []float32 {
	h := fnv.New64a()
	_, _ = h.Write([]byte(text))
	seed := h.Sum64()
	v := make([]float32, dims)
	for i := range v {
		seed = seed*6364136223846793005 + 1442695040888963407
		v[i] = float32(int32(seed>>32)) / (1 << 29)
	}
	return v
}

// SetDimensions sets the length of the vectors the fake answers when a
// request does not ask for one; changing it between calls imitates a
// server whose model was swapped under the same name.
func (r *recorder) SetDimensions(n int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.embed.dims = n
}

// ReverseEmbeddings makes the OpenAI fake list the data of an embeddings
// answer last index first; each item still carries its own index, which is
// what the protocol promises, not the order.
func (r *recorder) ReverseEmbeddings(on bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.embed.reverse = on
}

// SetEmbedDelay makes every embeddings answer wait d first (ended early
// when the client goes away), so tests can hit a client's timeout.
func (r *recorder) SetEmbedDelay(d time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.embed.delay = d
}

// recordEmbed records req and returns the plan and the embedding settings.
func (r *recorder) recordEmbed(req Request) (plan, embedState) {
	p := r.record(req)
	r.mu.Lock()
	defer r.mu.Unlock()
	return p, r.embed
}

// vectors answers req's texts with dims values each, or req's own length.
func vectors(req Request, st embedState) [][]float32 {
	n := st.dims
	if req.Dimensions > 0 {
		n = req.Dimensions
	}
	out := make([][]float32, len(req.Input))
	for i, text := range req.Input {
		out[i] = Vector(text, n)
	}
	return out
}

// serveEmbeddings answers POST /v1/embeddings: {"model","input":[…] or
// "…","encoding_format"?,"dimensions"?} → {"object":"list","data":[{"object":
// "embedding","index","embedding"}],"model","usage"}. With encoding_format
// "base64" each embedding is the base64 of its little-endian float32s.
func (o *OpenAI) serveEmbeddings(w http.ResponseWriter, r *http.Request) {
	req, err := decodeOpenAIEmbed(r)
	if err != nil {
		writeOpenAIError(w, http.StatusBadRequest, "We could not parse the JSON body of your request. "+err.Error(), "invalid_request_error", nil)
		return
	}
	p, st := o.recordEmbed(req)
	if !o.wait(r, st.delay) {
		return
	}
	switch {
	case p.status != 0:
		writeOpenAIError(w, p.status, "fake failure: "+http.StatusText(p.status), openAIErrorType(p.status), nil)
	case p.fault != faultNone:
		writeOpenAIFault(w, p.fault, req)
	case len(req.Input) == 0 || slices.Contains(req.Input, ""):
		writeOpenAIError(w, http.StatusBadRequest, "'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.", "invalid_request_error", nil)
	default:
		writeJSON(w, http.StatusOK, openAIEmbeddings(req, vectors(req, st), st.reverse))
	}
}

// oaEmbedRequest is an embeddings request as the fake reads it.
type oaEmbedRequest struct {
	Model          string          `json:"model"`
	Input          json.RawMessage `json:"input"`
	EncodingFormat string          `json:"encoding_format"`
	Dimensions     int             `json:"dimensions"`
}

func decodeOpenAIEmbed(r *http.Request) (Request, error) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return Request{}, err
	}
	var in oaEmbedRequest
	if err := json.Unmarshal(body, &in); err != nil {
		return Request{}, err
	}
	var texts []string
	if json.Unmarshal(in.Input, &texts) != nil {
		var one string
		if err := json.Unmarshal(in.Input, &one); err != nil {
			return Request{}, fmt.Errorf("input must be a string or an array of strings")
		}
		texts = []string{one}
	}
	key, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	return Request{Path: r.URL.Path, Model: in.Model, Key: key, Header: r.Header.Clone(), Body: body,
		Input: texts, Dimensions: in.Dimensions, Format: in.EncodingFormat}, nil
}

func openAIEmbeddings(req Request, vecs [][]float32, reverse bool) map[string]any {
	data := make([]any, len(vecs))
	tokens := 0
	for i, v := range vecs {
		var emb any = v
		if req.Format == "base64" {
			emb = base64.StdEncoding.EncodeToString(float32LE(v))
		}
		at := i
		if reverse {
			at = len(vecs) - 1 - i
		}
		data[at] = map[string]any{"object": "embedding", "index": i, "embedding": emb}
		tokens += words(req.Input[i])
	}
	return map[string]any{"object": "list", "data": data, "model": req.Model,
		"usage": map[string]any{"prompt_tokens": tokens, "total_tokens": tokens}}
}

func float32LE(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, f := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f))
	}
	return b
}

// gemEmbedRequest is a batchEmbedContents body as the fake reads it.
type gemEmbedRequest struct {
	Requests []struct {
		Model                string     `json:"model"`
		Content              gemContent `json:"content"`
		TaskType             string     `json:"taskType"`
		OutputDimensionality int        `json:"outputDimensionality"`
	} `json:"requests"`
}

// serveEmbeddings answers POST /v1beta/models/{model}:batchEmbedContents:
// {"requests":[{"model":"models/…","content":{"parts":[{"text"}]},
// "outputDimensionality"?}]} → {"embeddings":[{"values":[…]}]}, in request
// order. Like the real API it refuses a request naming another model and
// more than 100 requests in one batch.
func (g *Gemini) serveEmbeddings(w http.ResponseWriter, r *http.Request, model string) {
	req, err := decodeGeminiEmbed(r, model)
	if err != nil {
		writeGeminiError(w, http.StatusBadRequest, "INVALID_ARGUMENT", err.Error())
		return
	}
	p, st := g.recordEmbed(req)
	if !g.wait(r, st.delay) {
		return
	}
	switch {
	case p.status != 0:
		writeGeminiError(w, p.status, grpcStatus(p.status), "fake failure "+http.StatusText(p.status))
	case p.fault != faultNone:
		writeGeminiFault(w, p.fault)
	default:
		vecs := vectors(req, st)
		out := make([]any, len(vecs))
		for i, v := range vecs {
			out[i] = map[string]any{"values": v}
		}
		writeJSON(w, http.StatusOK, map[string]any{"embeddings": out})
	}
}

func decodeGeminiEmbed(r *http.Request, model string) (Request, error) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return Request{}, err
	}
	var in gemEmbedRequest
	if err := json.Unmarshal(body, &in); err != nil {
		return Request{}, fmt.Errorf("invalid JSON payload received: %v", err)
	}
	if len(in.Requests) == 0 || len(in.Requests) > geminiMaxBatch {
		return Request{}, fmt.Errorf("* BatchEmbedContentsRequest.requests: at most %d requests can be in one batch, and at least one", geminiMaxBatch)
	}
	req := Request{Path: r.URL.Path, Model: model, Key: geminiKey(r), Header: r.Header.Clone(), Body: body}
	for i, one := range in.Requests {
		if one.Model != "models/"+model {
			return Request{}, fmt.Errorf("* BatchEmbedContentsRequest.requests[%d].model: the model must match the model of the batch", i)
		}
		req.Input = append(req.Input, one.Content.text())
		req.Dimensions = one.OutputDimensionality
	}
	return req, nil
}
