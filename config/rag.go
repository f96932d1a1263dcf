package config

import "slices"

// RAG selects the embedder behind semantic search. "local" (the default)
// runs offline in the process; "openai" is any OpenAI-compatible
// /v1/embeddings server (OpenAI, or a local Ollama, LM Studio or llama.cpp
// server); "gemini" is the Gemini API. Keys come from the key store (their
// provider "openai" or "gemini"), never from this file; a local server
// needs none. Changing the embedder, model or dimensions rebuilds the index.
type RAG struct {
	Embedder string `json:"embedder"`
	// Model is the remote embedding model; empty takes the provider's
	// default (text-embedding-3-small, gemini-embedding-001).
	Model string `json:"model"`
	// BaseURL is the remote server's API root, e.g.
	// http://127.0.0.1:11434/v1 for Ollama; empty is the provider's own.
	BaseURL string `json:"base_url"`
	// BatchSize is how many texts one request to a remote embedder carries.
	BatchSize int `json:"batch_size"`
	// Dimensions asks a remote model for shorter vectors (OpenAI's
	// text-embedding-3 models, Gemini); 0 keeps the model's own length.
	Dimensions int `json:"dimensions"`
	// Timeout bounds one request to a remote embedder.
	Timeout Duration `json:"timeout"`
}

// maxBatch is the most texts one request of each remote embedder takes.
var maxBatch = map[string]int{"openai": 2048, "gemini": 100}

// validateRAG checks the embedder selection.
func (c Config) validateRAG(add func(string, ...any)) {
	r := c.RAG
	if !slices.Contains([]string{"local", "openai", "gemini"}, r.Embedder) {
		add("rag.embedder %q must be local, openai or gemini", r.Embedder)
	}
	if most, remote := maxBatch[r.Embedder]; remote && (r.BatchSize < 1 || r.BatchSize > most) {
		add("rag.batch_size %d must be between 1 and %d for %s", r.BatchSize, most, r.Embedder)
	}
	if r.Dimensions < 0 {
		add("rag.dimensions must not be negative")
	}
	if r.Timeout <= 0 {
		add("rag.timeout must be a positive duration")
	}
	if r.BaseURL != "" && !isHTTPURL(r.BaseURL) {
		add("rag.base_url %q must be an http(s) URL", r.BaseURL)
	}
}
