package torrent

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"

	"mediateka/domain"
)

// conflictClient is qBittorrent 5.x answering 409 to an add: the torrent
// is there already (another request added it meanwhile), or not.
type conflictClient struct {
	Client // the methods a download does not call
	has    bool
	adds   atomic.Int32
}

func (c *conflictClient) List(_ context.Context, hashes ...string) ([]domain.Torrent, error) {
	if c.has && c.adds.Load() > 0 {
		return []domain.Torrent{{Hash: hashes[0], Name: "Film"}}, nil
	}
	return nil, nil
}

func (c *conflictClient) Add(context.Context, domain.TorrentAdd) error {
	c.adds.Add(1)
	return domain.NewError(domain.KindConflict, "torrent_client_conflict", "add torrent: conflict")
}

func TestAConflictOnAddIsADuplicateOrARefusal(t *testing.T) {
	const magnet = "magnet:?xt=urn:btih:0123456789abcdef0123456789abcdef01234567"
	raced := &conflictClient{has: true}
	_, err := New(raced, nil, Options{}).Download(context.Background(), DownloadRequest{URL: magnet})
	var de *domain.Error
	assert.ErrorAs(t, err, &de)
	assert.Equal(t, "already_exists", de.Code, "the torrent added meanwhile is a duplicate: %v", err)

	refused := &conflictClient{}
	_, err = New(refused, nil, Options{}).Download(context.Background(), DownloadRequest{URL: magnet})
	assert.ErrorIs(t, err, domain.ErrTorrentRefused, "%v", err)
	assert.ErrorAs(t, err, &de)
	assert.Equal(t, "invalid_torrent_link", de.Code)
}
