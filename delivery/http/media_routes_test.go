package http

import (
	"encoding/json"
	"testing"

	"github.com/gofiber/fiber/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/domain/domaintest"
	"mediateka/usecase/catalog"
)

// TestTitleMatchBytes: by-title writes exactly what encoding/json wrote
// for the same answer (HTML characters escaped, Cyrillic as is), with and
// without alternatives.
func TestTitleMatchBytes(t *testing.T) {
	odd := domaintest.FilledMedia(2)
	odd.Title = `Tom & Jerry <"Кот и мышь">`
	for _, tm := range []catalog.TitleMatch{
		{Match: domaintest.FilledMedia(1)},
		{Match: odd, Alternatives: []domain.Media{domaintest.FilledMedia(3), {ID: 9, Title: "Матрица"}}},
	} {
		want, err := json.Marshal(fiber.Map{"match": toMediaDTO(tm.Match), "alternatives": toMediaDTOs(tm.Alternatives)})
		require.NoError(t, err)
		got, err := appendTitleMatch(nil, tm, nil)
		require.NoError(t, err)
		assert.Equal(t, string(want), string(got))
	}
}
