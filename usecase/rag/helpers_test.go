package rag_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/repository/sqlstore/sqlstoretest"
	"mediateka/usecase/rag"
	"mediateka/usecase/rag/ragtest"
)

// events collects what the service publishes.
type events chan domain.Event

func (e events) Publish(ev domain.Event) { e <- ev }

// next waits for the next rag_indexed event.
func (e events) next(t *testing.T) domain.RAGIndexed {
	t.Helper()
	select {
	case ev := <-e:
		ri, ok := ev.(domain.RAGIndexed)
		require.True(t, ok, "got %T", ev)
		return ri
	case <-time.After(10 * time.Second):
		t.Fatal("no rag_indexed event")
	}
	return domain.RAGIndexed{}
}

// searchLog records logged searches.
type searchLog chan [2]any

func (l searchLog) LogSearch(q string, n int) { l <- [2]any{q, n} }

type fixture struct {
	db  *sqlstoretest.DB
	emb *ragtest.Embedder
	svc *rag.Service
	ev  events
	log searchLog
}

// newFixture is a catalogue of three films and a series, with a started
// service over it (not built).
func newFixture(t *testing.T) *fixture {
	t.Helper()
	f := &fixture{db: sqlstoretest.New(t, nil), emb: ragtest.New("test", "bow", 512)}
	f.db.Movie("Interstellar", 2014, func(m *domain.Media) {
		m.Genres, m.Plot = []string{"sci-fi"}, "astronauts travel through a wormhole in space to save humanity"
	})
	f.db.Movie("Ёжик в тумане", 1975, func(m *domain.Media) {
		m.Genres, m.Plot = []string{"мультфильм"}, "ёжик идёт в гости к медвежонку через туман"
	})
	f.db.Movie("The Hangover", 2009, func(m *domain.Media) { m.Genres, m.Plot = []string{"comedy"}, "friends lose the groom in Las Vegas" })
	s := f.db.Series("The Expanse", func(m *domain.Media) { m.Genres = []string{"sci-fi"} })
	s.Season(1).Episode(1, func(m *domain.Media) { m.Title = "Dulcinea: a derelict ship in the asteroid belt" })
	f.svc = f.service(t, f.emb)
	return f
}

// service builds and starts a service over the fixture's database.
func (f *fixture) service(t *testing.T, emb domain.Embedder) *rag.Service {
	t.Helper()
	f.ev, f.log = make(events, 16), make(searchLog, 16)
	svc := rag.New(f.db.Media, f.db.Vectors, emb, rag.Options{Events: f.ev, SearchLog: f.log, UpdateGap: 10 * time.Millisecond})
	require.NoError(t, svc.Start(context.Background()))
	t.Cleanup(func() { _ = svc.Stop(context.Background()) })
	return svc
}

// build runs a build someone asked for and waits for its event.
func (f *fixture) build(t *testing.T) domain.RAGIndexed {
	t.Helper()
	require.NoError(t, f.svc.Build(context.Background(), ""))
	return f.ev.next(t)
}

func (f *fixture) search(t *testing.T, q rag.Query) []string {
	t.Helper()
	hits, err := f.svc.Search(context.Background(), q)
	require.NoError(t, err)
	var titles []string
	for _, h := range hits {
		require.Positive(t, h.Score)
		titles = append(titles, h.Media.Title)
	}
	return titles
}

func (f *fixture) vectorRows(t *testing.T) (n int) {
	t.Helper()
	f.db.Scan(`SELECT count(*) FROM media_vector`, nil, &n)
	return n
}
