package torrentsearch

import (
	"context"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"

	"mediateka/domain"
	"mediateka/usecase/torrent"
)

// indexer is a Searcher and Downloader that records what it is asked.
type indexer struct {
	mu    sync.Mutex
	asked []string
}

func (x *indexer) note(s string) {
	x.mu.Lock()
	x.asked = append(x.asked, s)
	x.mu.Unlock()
}

func (x *indexer) Search(_ context.Context, query, _ string) (torrent.SearchResult, error) {
	x.note("search " + query)
	return torrent.SearchResult{Items: []torrent.Found{{TorrentRelease: domain.TorrentRelease{Title: "Interstellar.2014.1080p",
		Seeders: 10, Indexer: "jackett", Magnet: "magnet:?xt=urn:btih:0123456789abcdef0123456789abcdef01234567"}}}}, nil
}

func (x *indexer) Problem() error { return nil }

func (x *indexer) Download(_ context.Context, req torrent.DownloadRequest) (torrent.Added, error) {
	x.note("download " + req.URL)
	return torrent.Added{}, nil
}

func TestSearchingAndPickingNeedAnAccount(t *testing.T) {
	t.Parallel()
	x := &indexer{}
	p := New(x, x, nil, nil)
	unlinked := domain.WithCaller(context.Background(), domain.Caller{Role: domain.RoleUser, Lang: "en"})
	for _, msg := range []string{"find torrent Interstellar", "download 1"} {
		got, err := p.Handle(unlinked, msg)
		assert.NoError(t, err)
		assert.Equal(t, "Link your media server account first: /link CODE", got, msg)
	}
	ru := domain.WithCaller(context.Background(), domain.Caller{Role: domain.RoleUser, Lang: "ru"})
	got, _ := p.Handle(ru, "скачай 2")
	assert.Equal(t, "Сначала привяжите аккаунт медиатеки: /link КОД", got)
	assert.Empty(t, x.asked, "no indexer quota spent, nothing added")

	linked := domain.WithCaller(context.Background(), domain.Caller{UserID: 2, Role: domain.RoleUser, Lang: "en"})
	got, _ = p.Handle(linked, "find torrent Interstellar")
	assert.Contains(t, got, "1. Interstellar.2014.1080p")
	got, _ = p.Handle(linked, "download 1")
	assert.Equal(t, "Added to the torrent client: “Interstellar.2014.1080p”.", got)
	assert.Equal(t, []string{"search interstellar", "download magnet:?xt=urn:btih:0123456789abcdef0123456789abcdef01234567"}, x.asked)
}
