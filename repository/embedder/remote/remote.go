// Package remote holds what the remote embedding clients (openai, gemini)
// share: their configuration, batching with a timeout per request, the
// vector length learnt from the first answer and enforced after it, and L2
// normalisation. Each client only speaks its wire protocol.
package remote

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"

	"mediateka/domain"
	"mediateka/repository/aimodel"
)

// Defaults used when Config leaves a field empty.
const (
	DefaultBatchSize = 64
	DefaultTimeout   = 60 * time.Second
)

// MismatchCode is the code of the error for an answer that cannot be
// stored: another vector length than the embedder's, a vector count that
// does not match the texts, or a vector without length.
const MismatchCode = "embedding_mismatch"

// Config configures a remote embedding client. Every field is optional.
type Config struct {
	// BaseURL is the API root: https://api.openai.com/v1, a local
	// http://127.0.0.1:11434/v1 (Ollama), a test fake.
	BaseURL string
	// Model is the embedding model sent upstream.
	Model string
	// BatchSize is how many texts one request carries.
	BatchSize int
	// Dimensions asks the server for vectors of this length (OpenAI's
	// dimensions, Gemini's outputDimensionality); 0 takes the model's own
	// length, learnt from the first answer.
	Dimensions int
	// Timeout bounds one request (one batch).
	Timeout time.Duration
	// HTTPClient carries every request; a fresh client is made when nil.
	HTTPClient *http.Client
}

// Resolve fills cfg's empty fields with the provider's defaults and checks
// them, so a bad value is a configuration error at start. maxBatch is the
// most texts the provider takes in one request.
func (cfg Config) Resolve(provider, defaultBaseURL, defaultModel string, maxBatch int) (Config, error) {
	base, err := aimodel.Config{BaseURL: cfg.BaseURL, Model: cfg.Model, Timeout: cfg.Timeout, HTTPClient: cfg.HTTPClient}.
		Resolve(provider, defaultBaseURL, defaultModel)
	if err != nil {
		return Config{}, err
	}
	if cfg.BatchSize == 0 {
		cfg.BatchSize = min(DefaultBatchSize, maxBatch)
	}
	if cfg.BatchSize < 1 || cfg.BatchSize > maxBatch {
		return Config{}, domain.ErrInvalid("bad "+provider+" batch size",
			map[string]string{"batch_size": "must be between 1 and " + strconv.Itoa(maxBatch)})
	}
	if cfg.Dimensions < 0 {
		return Config{}, domain.ErrInvalid("bad "+provider+" dimensions", map[string]string{"dimensions": "must not be negative"})
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	cfg.BaseURL, cfg.Model, cfg.HTTPClient = base.BaseURL, base.Model, base.HTTPClient
	return cfg, nil
}

// BatchFunc asks the server for the vectors of one batch, in the order of
// texts. Its errors are the typed errors of repository/aimodel.
type BatchFunc func(ctx context.Context, texts []string) ([][]float32, error)

// Batcher cuts texts into batches, sends each with its own timeout, checks
// every answer against the vector length and normalises the vectors. It is
// safe for concurrent use.
type Batcher struct {
	size    int
	timeout time.Duration
	dims    atomic.Int64
}

// NewBatcher returns a batcher for cfg (resolved). A configured Dimensions
// is the length from the start; otherwise the first answer sets it.
func NewBatcher(cfg Config) *Batcher {
	b := &Batcher{size: cfg.BatchSize, timeout: cfg.Timeout}
	b.dims.Store(int64(cfg.Dimensions))
	return b
}

// Dimensions is the vector length, 0 until it is known.
func (b *Batcher) Dimensions() int { return int(b.dims.Load()) }

// Embed returns one unit vector per text, in order, asking call one batch
// at a time. Nothing is returned unless every batch came back whole and of
// the right length: a caller never stores part of an answer. An empty text
// is refused before any request, since the servers refuse it and would fail
// the whole batch.
func (b *Batcher) Embed(ctx context.Context, texts []string, call BatchFunc) ([][]float32, error) {
	for i, t := range texts {
		if t == "" {
			return nil, domain.ErrInvalid("an empty text cannot be embedded",
				map[string]string{"texts[" + strconv.Itoa(i) + "]": "must not be empty"})
		}
	}
	out := make([][]float32, 0, len(texts))
	for lo := 0; lo < len(texts); lo += b.size {
		batch := texts[lo:min(lo+b.size, len(texts))]
		vecs, err := b.one(ctx, batch, call)
		if err != nil {
			return nil, err
		}
		out = append(out, vecs...)
	}
	return out, nil
}

func (b *Batcher) one(ctx context.Context, batch []string, call BatchFunc) ([][]float32, error) {
	ctx, cancel := context.WithTimeout(ctx, b.timeout)
	defer cancel()
	vecs, err := call(ctx, batch)
	if err != nil {
		return nil, err
	}
	if len(vecs) != len(batch) {
		return nil, mismatch(fmt.Sprintf("the server answered %d vectors for %d texts", len(vecs), len(batch)))
	}
	for _, v := range vecs {
		if err := b.check(len(v)); err != nil {
			return nil, err
		}
		if err := Normalize(v); err != nil {
			return nil, err
		}
	}
	return vecs, nil
}

// check learns the vector length from the first answer and refuses any
// other length after it.
func (b *Batcher) check(n int) error {
	if n == 0 {
		return mismatch("the server answered an empty vector")
	}
	if b.dims.CompareAndSwap(0, int64(n)) {
		return nil
	}
	if want := b.Dimensions(); n != want {
		return mismatch(fmt.Sprintf("the server answered vectors of %d dimensions where the embedder's are %d; "+
			"was the model changed? restart to take the new one", n, want))
	}
	return nil
}

// Normalize scales v to unit length in place. A vector of zeros or with a
// value that is not a finite number has no direction and is refused.
func Normalize(v []float32) error {
	var sum float64
	for _, x := range v {
		sum += float64(x) * float64(x)
	}
	if sum == 0 || math.IsNaN(sum) || math.IsInf(sum, 0) {
		return mismatch("the server answered a vector without direction (zeros, NaN or infinity)")
	}
	inv := 1 / math.Sqrt(sum)
	for i, x := range v {
		v[i] = float32(float64(x) * inv)
	}
	return nil
}

func mismatch(msg string) error {
	return domain.ErrUnavailable(MismatchCode, msg, nil)
}
