package rag_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/usecase/rag"
	"mediateka/usecase/rag/ragtest"
)

func TestSearchBeforeBuildIsNotBuilt(t *testing.T) {
	f := newFixture(t)
	_, err := f.svc.Search(context.Background(), rag.Query{Text: "space"})
	assert.ErrorIs(t, err, rag.ErrNotBuilt)
	assert.Equal(t, domain.JobIdle, f.svc.Status().State)
}

func TestBuildIndexesMoviesAndSeries(t *testing.T) {
	f := newFixture(t)
	ev := f.build(t)
	assert.Equal(t, domain.RAGIndexed{State: domain.JobCompleted, Indexed: 4, Total: 4, Embedded: 4, Provider: "test",
		Model: "bow", Dimensions: 512, DurationMS: ev.DurationMS}, ev)
	assert.Equal(t, 4, f.vectorRows(t), "one vector per movie and series, none for seasons and episodes")
	st := f.svc.Status()
	assert.Equal(t, domain.JobCompleted, st.State)
	assert.Equal(t, 4, st.Indexed)
	assert.False(t, st.BuiltAt.IsZero())

	space := f.search(t, rag.Query{Text: "a wormhole in space"})
	assert.Equal(t, "Interstellar", space[0])
	assert.Equal(t, []string{"Ёжик в тумане"}, f.search(t, rag.Query{Text: "ежик туман"}), "ё is е, nothing unrelated scores")
	assert.Equal(t, []string{"The Expanse"}, f.search(t, rag.Query{Text: "asteroid belt derelict"}),
		"an episode's title finds its series, never the episode")
	assert.Equal(t, []string{"The Expanse"}, f.search(t, rag.Query{Text: "sci-fi", Type: domain.MediaSeries}))
	assert.Equal(t, []string{"Interstellar"}, f.search(t, rag.Query{Text: "sci-fi", Type: domain.MediaMovie}))
	assert.Len(t, f.search(t, rag.Query{Text: "sci-fi", TopK: 1}), 1)
	assert.Empty(t, f.search(t, rag.Query{Text: "zzzz qqqq"}))
	assert.Equal(t, [2]any{"a wormhole in space", len(space)}, <-f.log, "searches are logged with their result count")
}

func TestSearchRejectsBadQueries(t *testing.T) {
	f := newFixture(t)
	f.build(t)
	for _, q := range []rag.Query{{Text: "  "}, {Text: "x", TopK: 51}, {Text: "x", TopK: -1}} {
		_, err := f.svc.Search(context.Background(), q)
		assert.True(t, domain.IsKind(err, domain.KindInvalid), "%+v: %v", q, err)
	}
	_, err := f.svc.Search(context.Background(), rag.Query{Text: "x", Type: domain.MediaEpisode})
	assert.ErrorIs(t, err, rag.ErrType)
}

func TestUpdateAfterEditReembedsOnlyTheChangedEntry(t *testing.T) {
	f := newFixture(t)
	f.build(t)
	before := f.emb.Seen()
	hangover, err := f.db.Media.ByPath(context.Background(), "/library/The Hangover (2009)/The Hangover.mkv")
	require.NoError(t, err)
	hangover.Plot = "a bachelor party in a desert casino city"
	_, err = f.db.Media.Update(context.Background(), hangover, []string{"plot"})
	require.NoError(t, err)
	f.svc.MediaChanged()
	ev := f.ev.next(t)
	assert.Equal(t, 1, ev.Embedded)
	assert.Equal(t, 4, ev.Indexed)
	embedded := f.emb.Seen()[len(before):]
	require.Len(t, embedded, 1)
	assert.Contains(t, embedded[0], "bachelor party")
	assert.Equal(t, []string{"The Hangover"}, f.search(t, rag.Query{Text: "casino desert"}))
}

func TestUpdateAfterScanEmbedsNewEntriesAndDropsGoneOnes(t *testing.T) {
	f := newFixture(t)
	f.build(t)
	n := f.emb.Texts()
	f.db.Movie("Paddington", 2014, func(m *domain.Media) { m.Plot, m.MainCategory = "a polite bear from Peru in London", "kids" })
	f.db.Exec(`DELETE FROM media WHERE title = 'The Hangover'`)
	f.svc.MediaChanged()
	ev := f.ev.next(t)
	assert.Equal(t, 1, ev.Embedded)
	assert.Equal(t, 1, f.emb.Texts()-n, "only the new film is embedded")
	assert.Equal(t, 4, ev.Indexed)
	assert.Equal(t, []string{"Paddington"}, f.search(t, rag.Query{Text: "bear Peru"}))
	assert.Empty(t, f.search(t, rag.Query{Text: "Las Vegas groom"}))

	f.svc.MediaChanged() // nothing changed: no event, nothing embedded
	time.Sleep(200 * time.Millisecond)
	assert.Empty(t, f.ev)
	assert.Equal(t, 1, f.emb.Texts()-n-2, "two searches embedded their queries, nothing else")
}

func TestVectorsGoWithTheirMedia(t *testing.T) {
	f := newFixture(t)
	f.build(t)
	require.Equal(t, 4, f.vectorRows(t))
	f.db.Exec(`DELETE FROM media WHERE title = 'Interstellar'`)
	assert.Equal(t, 3, f.vectorRows(t))
}

func TestChangeOfEmbedderRebuildsAll(t *testing.T) {
	f := newFixture(t)
	f.build(t)
	require.NoError(t, f.svc.Stop(context.Background()))

	same := ragtest.New("test", "bow", 512)
	f.svc = f.service(t, same)
	assert.Equal(t, []string{"Interstellar"}, f.search(t, rag.Query{Text: "wormhole"}), "the stored index loads at start")
	assert.Equal(t, 1, same.Texts(), "only the query was embedded")
	require.NoError(t, f.svc.Stop(context.Background()))

	other := ragtest.New("test", "bow-2", 256)
	f.svc = f.service(t, other)
	_, err := f.svc.Search(context.Background(), rag.Query{Text: "wormhole"})
	assert.ErrorIs(t, err, rag.ErrNotBuilt, "vectors of another embedder are not comparable")
	ev := f.build(t)
	assert.Equal(t, 4, ev.Embedded, "everything is embedded again")
	assert.Equal(t, 256, ev.Dimensions)
	var models int
	f.db.Scan(`SELECT count(*) FROM media_vector WHERE model = 'bow-2' AND dimensions = 256 AND length(embedding) = 1024`, nil, &models)
	assert.Equal(t, 4, models)
}

func TestSearchDuringBuildDoesNotWait(t *testing.T) {
	f := newFixture(t)
	f.build(t)
	release := f.emb.Hold()
	defer release()
	f.db.Movie("Paddington", 2014, func(m *domain.Media) { m.Plot = "a polite bear from Peru" })
	f.db.Exec(`UPDATE media SET plot = 'changed' WHERE media_type = 'movie'`)
	require.NoError(t, f.svc.Build(context.Background(), ""))
	assert.ErrorIs(t, f.svc.Build(context.Background(), ""), rag.ErrRunning)
	require.Eventually(t, func() bool { return f.svc.Status().State == domain.JobRunning }, 5*time.Second, time.Millisecond)

	start := time.Now()
	titles := f.search(t, rag.Query{Text: "wormhole"})
	assert.Less(t, time.Since(start), time.Second)
	assert.Equal(t, []string{"Interstellar"}, titles, "the old index answers while the new one builds")
	release()
	ev := f.ev.next(t)
	assert.Equal(t, 5, ev.Indexed)
	assert.Empty(t, f.search(t, rag.Query{Text: "wormhole"}), "the new index replaced the old one")
}

func TestBuildWithoutEmbedderIsUnavailable(t *testing.T) {
	f := newFixture(t)
	svc := rag.New(f.db.Media, f.db.Vectors, nil, rag.Options{})
	assert.ErrorIs(t, svc.Build(context.Background(), ""), rag.ErrNoEmbedder)
	err := f.svc.Build(context.Background(), "some-key")
	assert.True(t, domain.IsKind(err, domain.KindInvalid), "the test embedder takes no key: %v", err)
}
