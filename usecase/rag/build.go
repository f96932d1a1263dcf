package rag

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"mediateka/domain"
	"mediateka/usecase/job"
)

// batchSize is how many documents go to the embedder at once and are
// written in one transaction: large enough for a remote provider's
// batching, small enough that progress moves and a cancel stops soon.
const batchSize = 32

// progress is how a running build reports to the runner.
type progress = job.Progress[counts, string]

// Build starts a build in the background: every movie and series whose
// document changed since its vector was made, or that has none, is
// embedded; vectors of entries that are gone are removed; a change of
// embedder re-embeds everything. key, when not empty, names the API key
// of the key store a remote embedder uses for this build. A build already
// running is ErrRunning; ctx bounds only the checks before it starts.
func (s *Service) Build(ctx context.Context, key string) error {
	emb, err := s.embedder(ctx, key)
	if err != nil {
		return err
	}
	return s.jobs.Start(context.Background(), s.buildJob(emb, true))
}

// Run builds in the caller's goroutine (the command line), calling
// progress with the status whenever it changed, at most once per
// progress interval, and returns the final status. The error is only
// about starting; a build that failed returns its status.
func (s *Service) Run(ctx context.Context, progress func(Status)) (Status, error) {
	emb, err := s.embedder(ctx, "")
	if err != nil {
		return Status{}, err
	}
	_, err = s.jobs.Run(ctx, s.buildJob(emb, true), func(job.Status[counts, string]) {
		if progress != nil {
			progress(s.Status())
		}
	})
	return s.Status(), err
}

// embedder is the embedder of a build: the configured one, or it with the
// named key.
func (s *Service) embedder(ctx context.Context, key string) (domain.Embedder, error) {
	if s.emb == nil {
		return nil, ErrNoEmbedder
	}
	if key == "" {
		return s.emb, nil
	}
	ke, ok := s.emb.(KeyedEmbedder)
	if !ok {
		return nil, domain.ErrInvalid("the "+s.emb.Name()+" embedder uses no API key",
			map[string]string{"key": "must be left out for the " + s.emb.Name() + " embedder"})
	}
	emb, err := ke.WithKey(ctx, key)
	if err != nil {
		return nil, fmt.Errorf("use key %s: %w", key, err)
	}
	return emb, nil
}

func (s *Service) buildJob(emb domain.Embedder, explicit bool) job.Job[counts, string] {
	id := identityOf(emb)
	return job.Job[counts, string]{
		Counters: counts{Provider: id.name, Model: id.model, Dimensions: id.dims, Explicit: explicit},
		Work: func(ctx context.Context, p *progress) error {
			if !explicit && s.index.Load() == nil {
				return nil // the first build failed or was cancelled: no index to update
			}
			return s.work(ctx, emb, p)
		},
	}
}

// work brings the index up to date with the catalogue and swaps the new
// index in at the end; searches meanwhile use the one they have.
func (s *Service) work(ctx context.Context, emb domain.Embedder, p *progress) error {
	want := identityOf(emb)
	docs, err := documents(ctx, s.media)
	if err != nil {
		return err
	}
	cur, stored, err := s.current(ctx, want)
	if err != nil {
		return err
	}
	keep, todo := diff(docs, cur)
	if want.dims == 0 && len(keep) > 0 {
		want.dims = len(keep[0].vec)
	}
	p.Update(func(c *counts) { c.Total, c.Indexed, c.Dimensions = len(docs), len(keep), want.dims })
	removed := gone(stored, docs)
	if err := s.vectors.DeleteVectors(ctx, removed); err != nil {
		return err
	}
	p.Update(func(c *counts) { c.Removed = len(removed) })
	for start := 0; start < len(todo); start += batchSize {
		batch := todo[start:min(start+batchSize, len(todo))]
		entries, err := s.embed(ctx, emb, &want, batch)
		if err != nil {
			s.keepStored(want, keep, todo[start:], cur)
			return err
		}
		keep = append(keep, entries...)
		p.Update(func(c *counts) { c.Indexed += len(entries); c.Embedded += len(entries); c.Dimensions = want.dims })
	}
	if len(keep) == 0 && want.dims == 0 {
		want.dims = 1 // an empty catalogue: an empty index, searches find nothing
	}
	s.index.Store(newIndex(want, keep, s.opt.Now().UTC()))
	return nil
}

// keepStored swaps in, after a run that failed at rest, an index of what
// the store now holds: the entries kept and embedded so far and the old
// vectors of the rest. The next update then embeds only the rest, not
// again what this run stored. Without a loaded index the next run reads
// the store, so there is nothing to do (and a failed first build leaves
// no index).
func (s *Service) keepStored(want identity, done []entry, rest []document, cur map[int64]entry) {
	old := s.index.Load()
	if old == nil {
		return
	}
	for _, d := range rest {
		if e, ok := cur[d.id]; ok {
			e.kind = d.kind
			done = append(done, e)
		}
	}
	if len(done) == 0 {
		return
	}
	if want.dims == 0 {
		want.dims = len(done[0].vec)
	}
	done = slices.DeleteFunc(done, func(e entry) bool { return len(e.vec) != want.dims })
	s.index.Store(newIndex(want, done, old.builtAt))
}

// current is what the index holds now for the identity want, by media
// id, and the ids of every stored vector: the loaded index when it is of
// that identity, else the store's vectors of it.
func (s *Service) current(ctx context.Context, want identity) (map[int64]entry, []int64, error) {
	cur := map[int64]entry{}
	if ix := s.index.Load(); ix != nil && want.matches(ix.id) {
		for i, id := range ix.ids {
			cur[id] = entry{id: id, kind: ix.kinds[i], hash: ix.hashes[i], vec: ix.vector(i)}
		}
		return cur, ix.ids, nil
	}
	// An embedder that learns its length from its first answer matches
	// rows of any length; the first row fixes it, and rows of another
	// length are as good as none (embedded again), so an index never
	// mixes lengths.
	var stored []int64
	dims := want.dims
	err := s.vectors.Vectors(ctx, func(v domain.MediaVector) error {
		stored = append(stored, v.MediaID)
		if !want.matches(identity{name: v.Embedder, model: v.Model, dims: v.Dimensions}) || len(v.Vector) == 0 {
			return nil
		}
		if dims == 0 {
			dims = len(v.Vector)
		}
		if len(v.Vector) == dims {
			cur[v.MediaID] = entry{id: v.MediaID, hash: v.Hash, vec: v.Vector}
		}
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("read the stored vectors: %w", err)
	}
	return cur, stored, nil
}

// diff splits the documents into those whose vector is current (keep)
// and those to embed.
func diff(docs []document, cur map[int64]entry) (keep []entry, todo []document) {
	for _, d := range docs {
		if e, ok := cur[d.id]; ok && e.hash == d.hash {
			e.kind = d.kind
			keep = append(keep, e)
			continue
		}
		todo = append(todo, d)
	}
	return keep, todo
}

// gone lists the stored ids that are no longer movies or series.
func gone(stored []int64, docs []document) []int64 {
	live := make(map[int64]bool, len(docs))
	for _, d := range docs {
		live[d.id] = true
	}
	var out []int64
	for _, id := range stored {
		if !live[id] {
			out = append(out, id)
		}
	}
	return out
}

// embed embeds and stores one batch. The first answer of an embedder that
// did not know its dimensions sets them; a vector of another length is an
// error (a model changed under the index: the next build starts over).
func (s *Service) embed(ctx context.Context, emb domain.Embedder, want *identity, batch []document) ([]entry, error) {
	texts := make([]string, len(batch))
	for i, d := range batch {
		texts[i] = d.text
	}
	vecs, err := emb.Embed(ctx, texts)
	if err != nil {
		return nil, fmt.Errorf("embed %d documents: %w", len(texts), err)
	}
	if len(vecs) != len(batch) {
		return nil, &badAnswer{fmt.Sprintf("the embedder answered %d vectors for %d texts", len(vecs), len(batch))}
	}
	entries := make([]entry, len(batch))
	rows := make([]domain.MediaVector, len(batch))
	for i, d := range batch {
		if want.dims == 0 {
			want.dims = len(vecs[i])
		}
		if len(vecs[i]) != want.dims || want.dims == 0 {
			return nil, &badAnswer{fmt.Sprintf("the embedder answered a vector of %d dimensions, the index has %d", len(vecs[i]), want.dims)}
		}
		entries[i] = entry{id: d.id, kind: d.kind, hash: d.hash, vec: vecs[i]}
		rows[i] = domain.MediaVector{MediaID: d.id, Embedder: want.name, Model: want.model, Dimensions: want.dims, Hash: d.hash, Vector: vecs[i]}
	}
	if err := s.vectors.SaveVectors(ctx, rows); err != nil {
		return nil, fmt.Errorf("store %d vectors: %w", len(rows), err)
	}
	return entries, nil
}

// badAnswer is an embedder's answer the index cannot use.
type badAnswer struct{ reason string }

func (e *badAnswer) Error() string { return e.reason }

// failure is the reason a stopped build's status shows: never the raw
// error, which could carry a provider's text.
func failure(state domain.JobState, err error) string {
	var bad *badAnswer
	var de *domain.Error
	switch {
	case state == domain.JobCancelled:
		return "the build was cancelled"
	case errors.As(err, &bad):
		return bad.reason
	case errors.As(err, &de) && de.Kind == domain.KindUnavailable:
		return "the embedder is unavailable: " + de.Message
	default:
		return "the index could not read or write the catalogue"
	}
}
