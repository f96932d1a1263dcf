package rag

import (
	"context"

	"mediateka/domain"
)

// Media is what the index reads from the media store.
type Media interface {
	// Each streams the records a filter selects, in id order.
	Each(ctx context.Context, f domain.MediaFilter, fn func(domain.Media) error) error
	// ByIDs loads records in the order of ids, skipping unknown ids.
	ByIDs(ctx context.Context, ids []int64) ([]domain.Media, error)
}

// VectorStore keeps the index's vectors (table media_vector).
type VectorStore interface {
	// Vectors streams every stored vector.
	Vectors(ctx context.Context, fn func(domain.MediaVector) error) error
	// SaveVectors writes vectors, replacing those of the same media.
	SaveVectors(ctx context.Context, vs []domain.MediaVector) error
	// DeleteVectors removes the vectors of ids.
	DeleteVectors(ctx context.Context, ids []int64) error
}

// Publisher sends events to live listeners; it must never block.
type Publisher interface {
	Publish(e domain.Event)
}

// SearchLog records a search in search_history without waiting for the
// database.
type SearchLog interface {
	LogSearch(query string, results int)
}

// Locker keeps the server and `mediateka rag build` from building at
// once. TryLock returns ok=false when another holds the lock.
type Locker interface {
	TryLock() (unlock func(), ok bool, err error)
}

// KeyedEmbedder is an Embedder that can use a named API key of the key
// store for one build (POST /rag/build {"key"}). An Embedder without keys
// (local) does not implement it, and a build naming a key is refused.
type KeyedEmbedder interface {
	domain.Embedder
	// WithKey returns the embedder using key name; an unknown name is a
	// domain NotFound or Invalid error.
	WithKey(ctx context.Context, name string) (domain.Embedder, error)
}
