package app

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// checkPagesAreSlicesOfTheList: a page of the file list (sent whole) holds
// exactly the bytes of the same entries in the streamed list, with the
// total of the whole selection, asked once or again and again.
func checkPagesAreSlicesOfTheList(t *testing.T, la *libApp) {
	resp, raw := la.raw(t, "GET", "/api/media/files", la.user, nil)
	require.Equal(t, 200, resp.StatusCode)
	var all []json.RawMessage
	require.NoError(t, json.Unmarshal(raw, &all))
	require.Greater(t, len(all), 5)
	for _, p := range []struct{ limit, offset int }{{3, 0}, {3, 2}, {1, len(all) - 1}, {256, 1}, {257, 0}, {5, len(all)}} {
		for range 2 {
			resp, raw := la.raw(t, "GET", fmt.Sprintf("/api/media/files?limit=%d&offset=%d", p.limit, p.offset), la.user, nil)
			require.Equal(t, 200, resp.StatusCode)
			assert.Equal(t, "application/json; charset=utf-8", resp.Header.Get("Content-Type"))
			assert.Equal(t, fmt.Sprint(len(all)), resp.Header.Get("X-Total-Count"))
			want := all[min(p.offset, len(all)):min(p.offset+p.limit, len(all))]
			var compact bytes.Buffer
			require.NoError(t, json.Compact(&compact, raw))
			wantRaw, err := json.Marshal(want)
			require.NoError(t, err)
			if len(want) == 0 {
				wantRaw = []byte("[]")
			}
			assert.Equal(t, string(wantRaw), compact.String(), "limit %d offset %d", p.limit, p.offset)
		}
	}
}
