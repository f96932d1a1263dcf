package torrent

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

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

// movingClient shows a torrent that never stops moving.
type movingClient struct{ Client }

func (movingClient) List(_ context.Context, hashes ...string) ([]domain.Torrent, error) {
	return []domain.Torrent{{Hash: hashes[0], SavePath: "/old", State: domain.TorrentMoving}}, nil
}

func TestSettleGivesUpOnRealTimeWhateverTheClock(t *testing.T) {
	frozen := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	s := New(movingClient{}, nil, Options{Now: func() time.Time { return frozen }})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	start := time.Now()
	assert.NoError(t, s.settle(ctx, "0123456789abcdef0123456789abcdef01234567", "/new", 300*time.Millisecond))
	assert.Less(t, time.Since(start), 2*time.Second, "a frozen test clock does not hold the relocation")
}
