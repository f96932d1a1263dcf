package torznab_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/repository/torznab"
	"mediateka/repository/torznab/torznabtest"
)

const (
	key    = "s3cr3t-api-key"
	magnet = "magnet:?xt=urn:btih:c12fe1c06bba254a9dc9f519b335aa7c1367a88a&dn=Interstellar"
)

var published = time.Date(2024, 3, 1, 12, 30, 0, 0, time.UTC)

func items() []torznabtest.Item {
	return []torznabtest.Item{
		{Title: "Interstellar.2014.1080p.BluRay.x264", Size: 8_000_000_000, Seeders: 120, Peers: 150,
			Link: "http://127.0.0.1:1/dl/1.torrent", Magnet: magnet, Cats: []int{2040}, Published: published, Freeleech: true},
		{Title: "Interstellar 2014 2160p UHD", Size: 40_000_000_000, Seeders: 30, Peers: 31, Link: "http://127.0.0.1:1/dl/2.torrent", Cats: []int{2045}},
		{Title: "Dark.S01E01.1080p.WEB-DL", Size: 2_000_000_000, Seeders: 5, Peers: 9, Magnet: magnet + "2", Cats: []int{5040}},
	}
}

func client(t *testing.T, s *torznabtest.Server, apikey string, timeout time.Duration) *torznab.Client {
	t.Helper()
	c, err := torznab.New(torznab.Config{Name: "jackett", URL: s.URL, APIKey: apikey, Timeout: timeout})
	require.NoError(t, err)
	t.Cleanup(c.Close)
	return c
}

func TestSearchReadsTheFeed(t *testing.T) {
	t.Parallel()
	s := torznabtest.Start(t, torznabtest.Options{APIKey: key, Items: items()})
	c := client(t, s, key, 0)
	got, err := c.Search(context.Background(), torznab.Query{Func: torznab.FuncMovie, Text: "interstellar", Cats: []int{2000}})
	require.NoError(t, err)
	require.Len(t, got, 2)
	first := got[0]
	assert.Equal(t, "Interstellar.2014.1080p.BluRay.x264", first.Title)
	assert.EqualValues(t, 8_000_000_000, first.Size)
	assert.Equal(t, 120, first.Seeders)
	assert.Equal(t, 30, first.Leechers, "peers are seeders and leechers together")
	assert.Equal(t, "http://127.0.0.1:1/dl/1.torrent", first.DownloadURL)
	assert.Equal(t, magnet, first.Magnet)
	assert.Equal(t, "jackett", first.Indexer)
	assert.Equal(t, published, first.Published)
	assert.Equal(t, []int{2040}, first.Categories)
	assert.InDelta(t, 0.0, first.DownloadFactor, 1e-9, "freeleech")
	assert.Empty(t, got[1].Magnet)
	assert.InDelta(t, 1.0, got[1].DownloadFactor, 1e-9)

	reqs := s.Requests()
	require.Len(t, reqs, 2, "caps once, then the search")
	assert.Equal(t, "caps", reqs[0].Get("t"))
	assert.Equal(t, "movie", reqs[1].Get("t"))
	assert.Equal(t, "interstellar", reqs[1].Get("q"))
	assert.Equal(t, "2000", reqs[1].Get("cat"))

	tv, err := c.Search(context.Background(), torznab.Query{Func: torznab.FuncTV, Text: "dark", Cats: []int{5000}})
	require.NoError(t, err)
	require.Len(t, tv, 1)
	assert.Equal(t, magnet+"2", tv[0].Magnet, "a magnet-only item: the enclosure is the magnet")
	assert.Empty(t, tv[0].DownloadURL)
	assert.Len(t, s.Requests(), 3, "the caps are remembered")
}

func TestFunctionNotOfferedFallsBackToSearch(t *testing.T) {
	t.Parallel()
	s := torznabtest.Start(t, torznabtest.Options{Items: items(), NoMovie: true})
	got, err := client(t, s, "", 0).Search(context.Background(), torznab.Query{Func: torznab.FuncMovie, Text: "interstellar 2160p"})
	require.NoError(t, err)
	require.Len(t, got, 1)
	reqs := s.Requests()
	assert.Equal(t, "search", reqs[len(reqs)-1].Get("t"))
}

func TestCaps(t *testing.T) {
	t.Parallel()
	s := torznabtest.Start(t, torznabtest.Options{NoTV: true})
	caps, err := client(t, s, "", 0).Caps(context.Background())
	require.NoError(t, err)
	assert.True(t, caps.Search)
	assert.True(t, caps.MovieSearch)
	assert.False(t, caps.TVSearch)
	require.Len(t, caps.Categories, 2)
	assert.Equal(t, torznab.Category{ID: 2000, Name: "Movies", Subcats: []torznab.Category{{ID: 2040, Name: "Movies/HD"}, {ID: 2045, Name: "Movies/UHD"}}}, caps.Categories[0])
}

func TestErrorElementIsTheIndexersError(t *testing.T) {
	t.Parallel()
	s := torznabtest.Start(t, torznabtest.Options{APIKey: key, Items: items()})
	_, err := client(t, s, "wrong-key", 0).Search(context.Background(), torznab.Query{Text: "interstellar"})
	var ie *domain.IndexerError
	require.ErrorAs(t, err, &ie)
	assert.Equal(t, 100, ie.Code)
	assert.Equal(t, "Invalid API Key", ie.Description)
	assert.NotContains(t, err.Error(), "wrong-key")

	broken := torznabtest.Start(t, torznabtest.Options{ErrorCode: 900, ErrorDescription: "Tracker is down"})
	_, err = client(t, broken, "", 0).Search(context.Background(), torznab.Query{Text: "x"})
	require.ErrorAs(t, err, &ie)
	assert.Equal(t, 900, ie.Code)
	assert.Contains(t, err.Error(), "Tracker is down")
}

func TestSlowIndexerTimesOutWithoutTheKey(t *testing.T) {
	t.Parallel()
	s := torznabtest.Start(t, torznabtest.Options{APIKey: key, Delay: time.Minute})
	start := time.Now()
	_, err := client(t, s, key, 300*time.Millisecond).Search(context.Background(), torznab.Query{Text: "x"})
	require.Error(t, err)
	assert.Less(t, time.Since(start), 5*time.Second, "caps and search each bounded")
	assert.Contains(t, err.Error(), "did not answer within 300ms")
	assert.NotContains(t, err.Error(), key)

	_, err = client(t, &torznabtest.Server{URL: "http://127.0.0.1:1/torznab"}, key, time.Second).Search(context.Background(), torznab.Query{Text: "x"})
	require.Error(t, err)
	assert.NotContains(t, err.Error(), key, "a refused connection does not show the URL")
	assert.False(t, errors.Is(err, context.Canceled))
}

func TestConfigNeedsAnHTTPURL(t *testing.T) {
	t.Parallel()
	for _, u := range []string{"", "ftp://x/api", "127.0.0.1:9117", "http://"} {
		_, err := torznab.New(torznab.Config{Name: "x", URL: u})
		assert.Error(t, err, u)
	}
}
