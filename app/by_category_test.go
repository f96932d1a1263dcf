package app

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// assertByCategoryIsTheFileListGrouped checks that the streamed
// by-category answer has exactly the bytes json.Marshal gives for the
// object built from the file list: top-level entries grouped by type and
// category (unknown categories under "uncategorized"), in id order.
func assertByCategoryIsTheFileListGrouped(t *testing.T, la *libApp, category string) {
	t.Helper()
	path := "/api/media/by-category"
	if category != "" {
		path += "?category=" + category
	}
	_, everything := la.raw(t, "GET", "/api/media/by-category", la.user, nil)
	var answer struct {
		Categories []struct {
			Name string `json:"name"`
		} `json:"categories"`
	}
	require.NoError(t, json.Unmarshal(everything, &answer))
	known := map[string]bool{}
	for _, c := range answer.Categories {
		known[c.Name] = true
	}
	resp, got := la.raw(t, "GET", path, la.user, nil)
	require.Equal(t, 200, resp.StatusCode, "%s", got)
	var cats json.RawMessage
	require.NoError(t, json.Unmarshal(got, &struct {
		C *json.RawMessage `json:"categories"`
	}{&cats}))

	_, raw := la.raw(t, "GET", "/api/media/files", la.user, nil)
	var files []json.RawMessage
	require.NoError(t, json.Unmarshal(raw, &files))
	shelves := map[string]map[string][]json.RawMessage{"movie": {}, "series": {}}
	for _, f := range files {
		var e struct {
			MediaType    string  `json:"media_type"`
			MainCategory *string `json:"main_category"`
		}
		require.NoError(t, json.Unmarshal(f, &e))
		if shelves[e.MediaType] == nil {
			continue
		}
		key := "uncategorized"
		if e.MainCategory != nil && known[*e.MainCategory] && *e.MainCategory != "uncategorized" {
			key = *e.MainCategory
		}
		if category != "" && key != category {
			continue
		}
		shelves[e.MediaType][key] = append(shelves[e.MediaType][key], f)
	}
	want, err := json.Marshal(map[string]any{"categories": cats, "movies": shelves["movie"], "series": shelves["series"]})
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got))
}
