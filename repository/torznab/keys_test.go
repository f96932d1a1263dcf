package torznab_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/repository/torznab"
	"mediateka/repository/torznab/torznabtest"
)

// fetch GETs link and returns the status.
func fetch(t *testing.T, link string) int {
	t.Helper()
	resp, err := http.Get(link) //nolint:noctx // a test
	require.NoError(t, err)
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	return resp.StatusCode
}

func TestTheKeyInDownloadLinksIsHiddenAndRestored(t *testing.T) {
	t.Parallel()
	for _, prowlarr := range []bool{false, true} {
		s := torznabtest.Start(t, torznabtest.Options{APIKey: key, Prowlarr: prowlarr, Items: []torznabtest.Item{
			{Title: "Interstellar.2014.1080p", Seeders: 5, File: []byte("d4:infodee")}}})
		c := client(t, s, key, 0)
		got, err := c.Search(context.Background(), torznab.Query{Text: "interstellar"})
		require.NoError(t, err)
		require.Len(t, got, 1)
		link := got[0].DownloadURL
		assert.NotContains(t, link, key, "prowlarr=%v", prowlarr)
		assert.Contains(t, link, "apikey=&", "the parameter stays, blank")
		assert.Equal(t, 401, fetch(t, link), "without the key the indexer refuses")

		keys := torznab.NewKeys([]torznab.Config{{Name: "other", URL: "http://10.0.0.9:9117/api", APIKey: "nope"},
			{Name: "jackett", URL: s.URL, APIKey: key}})
		full, indexer := keys.Restore(link)
		assert.True(t, indexer)
		assert.Equal(t, 200, fetch(t, full), "the restored link works: %s", strings.ReplaceAll(full, key, "KEY"))
		assert.Equal(t, 1, s.Downloads())

		elsewhere, indexer := keys.Restore(strings.Replace(link, "127.0.0.1", "localhost", 1))
		assert.False(t, indexer, "another host is not the indexer")
		assert.NotContains(t, elsewhere, key, "the key never goes to another host")
	}
}

func TestALinkHoldingTheKeyElsewhereIsDropped(t *testing.T) {
	t.Parallel()
	s := torznabtest.Start(t, torznabtest.Options{APIKey: key, Items: []torznabtest.Item{
		{Title: "A.2014.1080p", Seeders: 5, Link: "http://tracker.example/get/" + key + "/a.torrent"},
		{Title: "B.2014.1080p", Seeders: 4, Link: "http://tracker.example/get/" + key + "/b.torrent", Magnet: magnet},
		{Title: "C.2014.1080p", Seeders: 3, Link: "http://tracker.example/get?APIKEY=" + key + "&id=3"}}})
	got, err := client(t, s, key, 0).Search(context.Background(), torznab.Query{Text: "2014"})
	require.NoError(t, err)
	require.Len(t, got, 2, "a result whose only link holds the key is left out")
	assert.Empty(t, got[0].DownloadURL)
	assert.Equal(t, magnet, got[0].Magnet)
	assert.Equal(t, "http://tracker.example/get?APIKEY=&id=3", got[1].DownloadURL)
}
