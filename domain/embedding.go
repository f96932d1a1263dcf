package domain

import "context"

// Embedder turns texts into vectors for semantic search (RAG). Vectors of
// one Embedder are comparable with each other only: every stored vector
// records the Embedder's Name, Model and Dimensions, and a change of any
// of them rebuilds the index.
type Embedder interface {
	// Name is the provider: "local", "openai", "gemini".
	Name() string
	// Model is the provider's model ("" for local, which has one).
	Model() string
	// Dimensions is the length of every vector Embed returns (0 until known
	// for a remote provider that reports it with its first answer).
	Dimensions() int
	// Embed returns one L2-normalised vector per text, in order. A remote
	// provider batches as it needs; an unreachable one is KindUnavailable.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}
