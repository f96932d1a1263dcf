package rag_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/usecase/rag"
	"mediateka/usecase/rag/ragtest"
)

// busyLock is the lock shared with `mediateka rag build`, held by that
// other process while busy is set; it counts the attempts to take it.
type busyLock struct {
	busy  atomic.Bool
	tries atomic.Int64
}

func (l *busyLock) TryLock() (func(), bool, error) {
	l.tries.Add(1)
	if l.busy.Load() {
		return nil, false, nil
	}
	return func() {}, true, nil
}

func TestUpdateWaitsQuietlyWhileAnotherProcessBuilds(t *testing.T) {
	f := newFixture(t)
	require.NoError(t, f.svc.Stop(context.Background()))
	lock := &busyLock{}
	f.ev = make(events, 16)
	f.svc = rag.New(f.db.Media, f.db.Vectors, f.emb, rag.Options{Events: f.ev, Lock: lock, UpdateGap: 10 * time.Millisecond})
	require.NoError(t, f.svc.Start(context.Background()))
	t.Cleanup(func() { _ = f.svc.Stop(context.Background()) })
	f.build(t)

	lock.busy.Store(true)
	before := lock.tries.Load()
	f.svc.MediaChanged()
	time.Sleep(300 * time.Millisecond)
	tries := lock.tries.Load() - before
	assert.Positive(t, tries, "the update tried to run")
	assert.Less(t, tries, int64(100), "the update retries once per update gap, not in a busy loop")
}

func TestStopCancelsABuildAnUpdateWaitsFor(t *testing.T) {
	f := newFixture(t)
	f.build(t)
	release := f.emb.Hold()
	defer release()
	f.db.Exec(`UPDATE media SET plot = 'changed' WHERE media_type = 'movie'`)
	require.NoError(t, f.svc.Build(context.Background(), ""))
	require.Eventually(t, func() bool { return len(f.emb.Seen()) > 4 }, 5*time.Second, time.Millisecond, "the build is embedding")
	f.svc.MediaChanged()
	time.Sleep(100 * time.Millisecond) // the update is waiting for the build

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	start := time.Now()
	require.NoError(t, f.svc.Stop(ctx))
	assert.Less(t, time.Since(start), time.Second)
	assert.Equal(t, domain.JobCancelled, f.svc.Status().State, "the build ended before Stop returned")
}

func TestChangeDuringTheFirstBuildIsAppliedAfterIt(t *testing.T) {
	f := newFixture(t)
	release := f.emb.Hold()
	defer release()
	require.NoError(t, f.svc.Build(context.Background(), ""))
	require.Eventually(t, func() bool { return len(f.emb.Seen()) > 0 }, 5*time.Second, time.Millisecond,
		"the build has read the catalogue")
	f.db.Movie("Paddington", 2014, func(m *domain.Media) { m.Plot = "a polite bear from Peru in London" })
	f.svc.MediaChanged()
	time.Sleep(50 * time.Millisecond)
	release()
	assert.Equal(t, 4, f.ev.next(t).Indexed, "the build indexed what it read")
	ev := f.ev.next(t)
	assert.Equal(t, 5, ev.Indexed)
	assert.Equal(t, 1, ev.Embedded, "the update embedded only the new film")
	assert.Equal(t, []string{"Paddington"}, f.search(t, rag.Query{Text: "bear Peru"}))
}

func TestChangeBeforeAnyBuildBuildsNothing(t *testing.T) {
	f := newFixture(t)
	f.svc.MediaChanged()
	time.Sleep(100 * time.Millisecond)
	assert.Zero(t, f.emb.Texts(), "the first build is an administrator's choice")
	assert.Empty(t, f.ev)
}

// failingEmbedder fails its failAt-th batch (a build's call with more
// than one text; 1 is the first).
type failingEmbedder struct {
	*ragtest.Embedder
	failAt  int64
	batches atomic.Int64
}

func (e *failingEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if len(texts) > 1 && e.batches.Add(1) == e.failAt {
		return nil, domain.NewError(domain.KindUnavailable, "embedder_unavailable", "the provider is down")
	}
	return e.Embedder.Embed(ctx, texts)
}

func TestUpdateAfterAFailedOneEmbedsOnlyWhatWasNotStored(t *testing.T) {
	f := newFixture(t)
	require.NoError(t, f.svc.Stop(context.Background()))
	emb := &failingEmbedder{Embedder: f.emb, failAt: 3}
	f.svc = f.service(t, emb)
	f.build(t) // batch 1
	for i := range 40 {
		f.db.Movie(fmt.Sprintf("Film %d", i), 2000+i, func(m *domain.Media) { m.Plot = fmt.Sprintf("plot number %d", i) })
	}
	f.svc.MediaChanged()
	ev := f.ev.next(t) // batch 2 (32 films) is stored, batch 3 fails
	require.Equal(t, domain.JobFailed, ev.State)
	require.Equal(t, 32, ev.Embedded)

	n := f.emb.Texts()
	f.svc.MediaChanged()
	ev = f.ev.next(t)
	assert.Equal(t, domain.JobCompleted, ev.State)
	assert.Equal(t, 8, ev.Embedded, "the 32 stored vectors are not embedded again")
	assert.Equal(t, 8, f.emb.Texts()-n)
	assert.Equal(t, 44, ev.Indexed)
}

// unsizedEmbedder is a remote embedder that learns its vector length
// from its first answer: it reports 0 dimensions and embeds with inner,
// which a test can swap for one of another length.
type unsizedEmbedder struct {
	inner atomic.Pointer[ragtest.Embedder]
}

func unsized(inner *ragtest.Embedder) *unsizedEmbedder {
	e := &unsizedEmbedder{}
	e.inner.Store(inner)
	return e
}

func (e *unsizedEmbedder) Name() string    { return "test" }
func (e *unsizedEmbedder) Model() string   { return "bow" }
func (e *unsizedEmbedder) Dimensions() int { return 0 }
func (e *unsizedEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	return e.inner.Load().Embed(ctx, texts)
}

func TestStoredVectorsOfAnotherLengthAreEmbeddedAgain(t *testing.T) {
	f := newFixture(t)
	require.NoError(t, f.svc.Stop(context.Background()))
	emb := unsized(f.emb)
	f.svc = f.service(t, emb)
	f.build(t)
	require.NoError(t, f.svc.Stop(context.Background()))
	// The provider's vectors got shorter and a run stored one of them.
	f.db.Exec(`UPDATE media_vector SET embedding = substr(embedding, 1, 1024), dimensions = 256
		WHERE media_id = (SELECT max(media_id) FROM media_vector)`)

	f.svc = f.service(t, emb)
	ev := f.ev.next(t)
	assert.Equal(t, 1, ev.Embedded, "the vector of another length is embedded again")
	assert.Equal(t, 4, ev.Indexed)
	assert.Equal(t, 512, ev.Dimensions)
	assert.Equal(t, []string{"The Expanse"}, f.search(t, rag.Query{Text: "asteroid belt derelict"}))
	assert.Equal(t, []string{"Interstellar"}, f.search(t, rag.Query{Text: "wormhole"}))
}

func TestQueryOfAnotherLengthIsAMismatch(t *testing.T) {
	f := newFixture(t)
	require.NoError(t, f.svc.Stop(context.Background()))
	emb := unsized(f.emb)
	f.svc = f.service(t, emb)
	f.build(t)
	emb.inner.Store(ragtest.New("test", "bow", 256))
	_, err := f.svc.Search(context.Background(), rag.Query{Text: "wormhole"})
	assert.ErrorIs(t, err, rag.ErrMismatch, "not an empty answer")
	assert.True(t, domain.IsKind(err, domain.KindUnavailable))
}
