package rag

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	ragindex "mediateka/usecase/rag"
)

// searcher answers every search with hits and records the queries.
type searcher struct {
	hits    []ragindex.Hit
	queries []string
}

func (s *searcher) Built() bool { return true }

func (s *searcher) Search(_ context.Context, q ragindex.Query) ([]ragindex.Hit, error) {
	s.queries = append(s.queries, q.Text)
	return s.hits, nil
}

// model answers every prompt with answer and keeps the last prompt.
type model struct {
	answer string
	last   domain.Prompt
}

func (m *model) Name() string { return "test/model" }

func (m *model) Generate(_ context.Context, p domain.Prompt) (string, error) {
	m.last = p
	return m.answer, nil
}

func (m *model) Stream(ctx context.Context, p domain.Prompt, emit func(string) error) error {
	s, _ := m.Generate(ctx, p)
	return emit(s)
}

func hitsFixture() []ragindex.Hit {
	y1, y2 := 2014, 2009
	return []ragindex.Hit{
		{Score: 0.6, Media: domain.Media{ID: 1, Title: "Interstellar", TitleRu: "Интерстеллар", Year: &y1,
			WhyWatch: "Science and feeling in one. Long."}},
		{Score: 0.3, Media: domain.Media{ID: 2, Title: "Moon", Year: &y2, Plot: "A man alone on the Moon"}},
		{Score: 0.01, Media: domain.Media{ID: 3, Title: "Barely related"}},
	}
}

func TestRecommendationIntent(t *testing.T) {
	for msg, want := range map[string]string{
		"Посоветуй что-нибудь про космос":                  "космос",
		"что посмотреть вроде Интерстеллара, но спокойнее": "интерстеллара но спокойнее",
		"find me something like Alien":                     "alien",
		"something funny for kids":                         "kids funny",
	} {
		got, ok := recommendation(msg)
		assert.True(t, ok, msg)
		assert.Equal(t, want, got, msg)
	}
	for _, msg := range []string{"сколько фильмов", "scan the library", "включи субтитры"} {
		_, ok := recommendation(msg)
		assert.False(t, ok, msg)
	}
}

func TestListAnswerWithoutModel(t *testing.T) {
	s := &searcher{hits: hitsFixture()}
	p := New(Deps{Search: s})
	got, err := p.Handle(context.Background(), "посоветуй что-нибудь про космос")
	require.NoError(t, err)
	assert.Equal(t, "Вот что нашлось в библиотеке:\n• «Интерстеллар» (2014) — Science and feeling in one.\n"+
		"• «Moon» (2009) — A man alone on the Moon", got, "the match under the least score is left out")
	assert.Equal(t, []string{"космос"}, s.queries)

	got, err = p.Handle(context.Background(), "привет")
	require.NoError(t, err)
	assert.Empty(t, got, "not a recommendation: pass")
	p = New(Deps{Search: &searcher{hits: hitsFixture()[2:]}})
	got, err = p.Handle(context.Background(), "recommend something about kangaroos")
	require.NoError(t, err)
	assert.Empty(t, got, "nothing scores: pass")
}

func TestGroundedAnswerNamesOnlyCatalogueEntries(t *testing.T) {
	answer, err := json.Marshal(map[string]any{
		"intro": "Try these, or «Avatar» which you do not have.",
		"picks": []map[string]any{{"id": 2, "why": "Quiet and lonely."}, {"id": 99, "why": "Not in the library."},
			{"id": 1, "why": "Epic."}},
	})
	require.NoError(t, err)
	m := &model{answer: "```json\n" + string(answer) + "\n```"}
	p := New(Deps{Search: &searcher{hits: hitsFixture()}, Model: m})
	got, err := p.Handle(context.Background(), "find me something like Solaris")
	require.NoError(t, err)
	assert.Equal(t, "Here is what the library has:\n• “Moon” (2009) — Quiet and lonely.\n• “Interstellar” (2014) — Epic.", got,
		"the unknown id and the intro naming a film outside the library are dropped")
	assert.Contains(t, m.last.System, "id 1: Interstellar (2014)", "the prompt carries the matches")
	assert.NotContains(t, m.last.System, "Barely related")

	m.answer = `{"intro": "Two calm space films.", "picks": [{"id": 1, "why": "Epic."}]}`
	got, err = p.Handle(context.Background(), "find me something like Solaris")
	require.NoError(t, err)
	assert.Equal(t, "Two calm space films.\n• “Interstellar” (2014) — Epic.", got)

	m.answer = `{"intro": "Two calm space films.", "picks": [{"id": 1, "why": "Like «Avatar», only longer."}]}`
	got, err = p.Handle(context.Background(), "find me something like Solaris")
	require.NoError(t, err)
	assert.Equal(t, "Two calm space films.\n• “Interstellar” (2014) — Science and feeling in one.", got,
		"a reason naming a film outside the library gives way to the entry's own words")

	m.answer = "not json"
	got, err = p.Handle(context.Background(), "find me something like Solaris")
	require.NoError(t, err)
	assert.Contains(t, got, "• “Moon” (2009)", "a bad model answer falls back to the list")
}

// The title a person compares with is never the suggestion, also when
// the words around it stay in the query ("похожее тьма").
func TestTheComparedTitleIsNotSuggested(t *testing.T) {
	t.Parallel()
	dark := domain.Media{Title: "Тьма", TitleOrig: "Dark"}
	assert.True(t, isTheTitle(dark, "похожее тьма", "посоветуй что-нибудь похожее на Тьма"))
	assert.True(t, isTheTitle(dark, "dark", "find me something like Dark"))
	assert.True(t, isTheTitle(dark, "тьма", "тьма"))
	assert.False(t, isTheTitle(dark, "про тьма и свет", "посоветуй фильм про тьма и свет"), "a topic, not a comparison")
	assert.False(t, isTheTitle(dark, "матрицу", "что-нибудь похожее на матрицу"))
	matrix := domain.Media{Title: "The Matrix", TitleRu: "Матрица"}
	assert.True(t, isTheTitle(matrix, "матрицу", "посоветуй что-нибудь похожее на Матрицу"), "the title in another case")
	assert.True(t, isTheTitle(matrix, "matrix", "find me something like The Matrix"))
	assert.False(t, isTheTitle(matrix, "матрицу", "посоветуй что-нибудь похожее на Аватар"))
}
