// Package rag is semantic search over the catalogue (RAG): each movie and
// series becomes a document made of the field table's document fields
// (its seasons and episodes rolled up into their series), an Embedder
// turns the documents into vectors stored in media_vector, and a search
// embeds the query and ranks the loaded vectors by cosine. Builds run as
// a job on the job runner; after a build, every scan, edit and
// classification updates the index in the background, re-embedding only
// the documents whose text changed. See README.md.
package rag

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"mediateka/domain"
	"mediateka/usecase/job"
)

// Errors of semantic search; their codes are part of the API.
var (
	ErrRunning    = domain.NewError(domain.KindConflict, "rag_build_running", "a RAG index build is already running")
	ErrNotBuilt   = domain.NewError(domain.KindConflict, "index_not_built", "the semantic search index is not built yet (POST /api/media-admin/rag/build)")
	ErrNoEmbedder = domain.NewError(domain.KindUnavailable, "embedder_unavailable", "no embedder is configured for semantic search")
	ErrType       = domain.NewError(domain.KindInvalid, "invalid_type", "type must be movie or series")
	// ErrMismatch is a query vector of another length than the index's:
	// the embedder's model changed under it, and a build must start over.
	ErrMismatch = domain.NewError(domain.KindUnavailable, "embedding_mismatch",
		"the embedder's vectors no longer match the index; build it again")
)

// Options configure the service. All are optional.
type Options struct {
	Events    Publisher
	SearchLog SearchLog
	Lock      Locker
	Logger    *slog.Logger
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// UpdateGap is how long the index waits after a change before it
	// updates (default 2s), so a scan's or a classification's stream of
	// changes costs one update, not one per record.
	UpdateGap time.Duration
	// ProgressEvery is how often a running build reports (default 1s).
	ProgressEvery time.Duration
}

// counts are a build's counters on the runner.
type counts struct {
	Provider   string
	Model      string
	Dimensions int
	Total      int
	Indexed    int
	Embedded   int
	Removed    int
	// Explicit is a build someone asked for (the endpoint, the command
	// line), which always ends with an event; an update that changed
	// nothing ends quietly.
	Explicit bool
}

// Status is the progress and outcome of the current or last build (GET
// /api/media-admin/rag/status). Indexed and Total are of the running
// build while it runs; afterwards Indexed is how many entries the loaded
// index holds.
type Status struct {
	State      domain.JobState
	Indexed    int
	Total      int
	Embedded   int
	Provider   string
	Model      string
	Dimensions int
	StartedAt  time.Time
	BuiltAt    time.Time
	Failure    string
}

// Service builds, updates and searches the semantic index.
type Service struct {
	media   Media
	vectors VectorStore
	emb     domain.Embedder
	opt     Options
	log     *slog.Logger
	jobs    *job.Runner[counts, string]
	index   atomic.Pointer[index]
	// kick asks the update loop for an update; cancel ends it and done
	// is closed when it has.
	kick   chan struct{}
	mu     sync.Mutex
	cancel context.CancelFunc
	done   chan struct{}
}

// New builds the service. emb nil means no embedder is configured: builds
// answer ErrNoEmbedder and searches ErrNotBuilt.
func New(media Media, vectors VectorStore, emb domain.Embedder, opt Options) *Service {
	if opt.Logger == nil {
		opt.Logger = slog.New(slog.DiscardHandler)
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.UpdateGap <= 0 {
		opt.UpdateGap = 2 * time.Second
	}
	s := &Service{media: media, vectors: vectors, emb: emb, opt: opt, log: opt.Logger, kick: make(chan struct{}, 1)}
	s.jobs = job.New(job.Options[counts, string]{
		Name: "RAG index build", Conflict: ErrRunning, Lock: opt.Lock, Events: opt.Events, Logger: opt.Logger,
		Now: opt.Now, ProgressEvery: opt.ProgressEvery, Finished: indexedEvent, Failure: failure,
	})
	return s
}

// indexedEvent is rag_indexed: after every build someone asked for, and
// after an update that changed the index or did not complete.
func indexedEvent(st job.Status[counts, string]) domain.Event {
	c := st.Counters
	if st.State == domain.JobCompleted && !c.Explicit && c.Embedded == 0 && c.Removed == 0 {
		return nil
	}
	return domain.RAGIndexed{State: st.State, Indexed: c.Indexed, Total: c.Total, Embedded: c.Embedded,
		Removed: c.Removed, Provider: c.Provider, Model: c.Model, Dimensions: c.Dimensions,
		DurationMS: st.Duration().Milliseconds()}
}

// Status returns the current or last build's status.
func (s *Service) Status() Status {
	js := s.jobs.Status()
	c := js.Counters
	st := Status{State: js.State, Indexed: c.Indexed, Total: c.Total, Embedded: c.Embedded, Provider: c.Provider,
		Model: c.Model, Dimensions: c.Dimensions, StartedAt: js.StartedAt, Failure: js.Failure}
	if ix := s.index.Load(); ix != nil {
		st.BuiltAt = ix.builtAt
		if js.State != domain.JobRunning {
			st.Indexed, st.Dimensions, st.Provider, st.Model = len(ix.ids), ix.id.dims, ix.id.name, ix.id.model
		}
	}
	if st.Provider == "" && s.emb != nil {
		st.Provider, st.Model, st.Dimensions = s.emb.Name(), s.emb.Model(), s.emb.Dimensions()
	}
	return st
}

// Built reports whether an index is loaded: searches answer and changes
// of the catalogue update it.
func (s *Service) Built() bool { return s.index.Load() != nil }

// Wait blocks until the running build, if any, has finished.
func (s *Service) Wait() { s.jobs.Wait() }
