package classify

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const goodAnswer = `{"title_ru": "Матрица", "title_orig": "The Matrix", "year": 1999, "main_category": "sci_fi",
	"genres": ["фантастика", " боевик ", ""], "country": "США", "directors": ["Лана Вачовски"], "cast": null,
	"plot": "Хакер узнаёт правду о мире.", "why_watch": null, "mood": "напряжённое", "atmosphere": null,
	"final_verdict": null}`

func TestDecodeAnswerKeepsWhatTheModelKnew(t *testing.T) {
	m, err := decodeAnswer(goodAnswer, 2026)
	require.NoError(t, err)
	assert.Equal(t, "Матрица", m.TitleRu)
	assert.Equal(t, "The Matrix", m.TitleOrig)
	require.NotNil(t, m.Year)
	assert.Equal(t, 1999, *m.Year)
	assert.Equal(t, "sci_fi", m.MainCategory)
	assert.Equal(t, []string{"фантастика", "боевик"}, m.Genres, "items are trimmed, empty ones dropped")
	assert.Nil(t, m.Cast)
	assert.Empty(t, m.WhyWatch)

	fenced, err := decodeAnswer("```json\n"+goodAnswer+"\n```", 2026)
	require.NoError(t, err, "a Markdown fence around the object is tolerated")
	assert.Equal(t, m, fenced)
}

func TestDecodeAnswerRejectsTheWholeAnswer(t *testing.T) {
	with := func(field, value string) string {
		var obj map[string]json.RawMessage
		require.NoError(t, json.Unmarshal([]byte(goodAnswer), &obj))
		obj[field] = json.RawMessage(value)
		raw, err := json.Marshal(obj)
		require.NoError(t, err)
		return string(raw)
	}
	cases := map[string]struct{ answer, reason string }{
		"not JSON":         {`Матрица, 1999, фантастика`, "not a JSON object"},
		"truncated":        {goodAnswer[:40], "not the expected JSON"},
		"a list":           {`[1, 2]`, "not a JSON object"},
		"null":             {`null`, "not a JSON object"},
		"trailing text":    {goodAnswer + ` and more`, "text after"},
		"unknown field":    {with("budget", `"63 млн $"`), "unknown field"},
		"year as string":   {with("year", `"1999"`), "year must be int"},
		"fractional year":  {with("year", `1999.5`), "year must be int"},
		"year 3000":        {with("year", `3000`), "outside 1900..2027"},
		"year 1800":        {with("year", `1800`), "outside"},
		"unknown category": {with("main_category", `"cyberpunk"`), "not in the category list"},
		"category name":    {with("main_category", `"Фантастика"`), "not in the category list"},
		"genres as string": {with("genres", `"фантастика"`), "genres must be"},
		"number in list":   {with("cast", `["Киану Ривз", 42]`), "cast must be"},
		"long plot":        {with("plot", `"`+strings.Repeat("я", maxLongText+1)+`"`), "plot is 2001 characters"},
		"long title":       {with("title_ru", `"`+strings.Repeat("я", maxTitle+1)+`"`), "title_ru is"},
		"too many genres":  {with("genres", `["a","b","c","d","e","f","g","h","i","j","k"]`), "genres has 11 items"},
		"long list item":   {with("directors", `["`+strings.Repeat("x", maxItem+1)+`"]`), "an item of directors"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			m, err := decodeAnswer(c.answer, 2026)
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.reason)
			assert.Zero(t, m.TitleRu, "nothing of a rejected answer is kept")
		})
	}
}

func TestSchemaIsStrictAndListsTheCategories(t *testing.T) {
	var s struct {
		Type                 string                     `json:"type"`
		Required             []string                   `json:"required"`
		AdditionalProperties bool                       `json:"additionalProperties"`
		Properties           map[string]json.RawMessage `json:"properties"`
	}
	require.NoError(t, json.Unmarshal(Schema(2026), &s))
	assert.Equal(t, "object", s.Type)
	assert.False(t, s.AdditionalProperties)
	assert.ElementsMatch(t, Fields(), s.Required, "strict mode: every property is required")
	assert.Len(t, s.Properties, len(Fields()))
	assert.Contains(t, string(s.Properties["main_category"]), `"sci_fi"`)
	assert.Contains(t, string(s.Properties["year"]), `"maximum":2027`)
}

func TestPromptNamesOnlyTheLibraryFolders(t *testing.T) {
	year := 1999
	p := promptFor(mediaAt("/home/someone/disks/one/Фильмы/Фантастика/Matrix (1999)/The.Matrix.1999.mkv", &year), Schema(2026))
	assert.Contains(t, p.Message, `"folders":["Фильмы","Фантастика","Matrix (1999)"]`)
	assert.Contains(t, p.Message, `"name":"The.Matrix.1999.mkv"`)
	assert.Contains(t, p.Message, `"year":1999`)
	assert.NotContains(t, p.Message, "someone")
	assert.NotEmpty(t, p.Schema)
}
