package offline_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"

	"mediateka/domain"
	"mediateka/usecase/offline"
	"mediateka/usecase/rag"
)

// semantic is a built index that finds one film for any query.
type semantic struct {
	built   bool
	queries []rag.Query
}

func (s *semantic) Built() bool { return s.built }

func (s *semantic) Search(_ context.Context, q rag.Query) ([]rag.Hit, error) {
	s.queries = append(s.queries, q)
	y := 1994
	return []rag.Hit{
		{Score: 0.5, Media: domain.Media{ID: 900, Title: "Король Лев", TitleRu: "Король Лев", TitleOrig: "The Lion King",
			Year: &y, MediaType: domain.MediaMovie, MainCategory: "animation", Status: domain.StatusOK}},
		{Score: 0.01, Media: domain.Media{ID: 901, Title: "Шум", MediaType: domain.MediaMovie, Status: domain.StatusOK}},
	}, nil
}

func TestSuggestionByMeaningWhenTheIndexIsBuilt(t *testing.T) {
	sem := &semantic{built: true}
	m := libraryAssistant(t, offline.Options{Semantic: sem})
	out := askAs(t, m, "посоветуй что-нибудь про кенгуру")
	assert.Contains(t, out, "По смыслу «кенгуру» в каталоге нашлось:\n• «Король Лев» (1994), фильм, Мультфильмы")
	assert.NotContains(t, out, "Шум", "a match that barely scores is not suggested")
	assert.Equal(t, []rag.Query{{Text: "кенгуру", TopK: 20}}, sem.queries)

	out = askAs(t, m, "посоветуй комедию")
	assert.Contains(t, out, "«Мальчишник в Вегасе»", "a known genre is still answered from the catalogue")
	assert.Len(t, sem.queries, 1)

	sem.built = false
	out = askAs(t, m, "посоветуй что-нибудь про кенгуру")
	assert.Contains(t, out, "«кенгуру» в каталоге не нашлось", "no index: as before")
}
