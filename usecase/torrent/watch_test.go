package torrent

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"mediateka/domain"
)

func TestWatcherAnnouncesOnlyWhatFinishedSinceItsFirstLook(t *testing.T) {
	t.Parallel()
	w := NewWatcher(nil, WatchOptions{})
	tor := func(hash string, progress float64, st domain.TorrentState) domain.Torrent {
		return domain.Torrent{Hash: hash, Name: hash, Progress: progress, State: st}
	}
	hashes := func(ts []domain.Torrent) []string {
		var out []string
		for _, t := range ts {
			out = append(out, t.Hash)
		}
		return out
	}
	looks := []struct {
		list []domain.Torrent
		want []string
		why  string
	}{
		{[]domain.Torrent{tor("old", 1, domain.TorrentSeeding), tor("dl", 0.5, domain.TorrentDownloading)}, nil,
			"finished before the first look: remembered, not announced"},
		{[]domain.Torrent{tor("old", 1, domain.TorrentSeeding), tor("dl", 1, domain.TorrentSeeding),
			tor("new", 1, domain.TorrentDone)}, []string{"dl", "new"}, "finished since, or added finished"},
		{[]domain.Torrent{tor("old", 0.2, domain.TorrentChecking), tor("dl", 1, domain.TorrentSeeding),
			tor("new", 1, domain.TorrentDone)}, nil, "nothing new; a recheck is not a change"},
		{[]domain.Torrent{tor("old", 1, domain.TorrentSeeding), tor("dl", 0, domain.TorrentMissingFiles)}, nil,
			"the recheck ended; the files went missing"},
		{[]domain.Torrent{tor("dl", 0.3, domain.TorrentChecking)}, nil, "checking where it was relocated to"},
		{[]domain.Torrent{tor("dl", 1, domain.TorrentSeeding)}, []string{"dl"}, "found again: complete again"},
	}
	for _, l := range looks {
		assert.Equal(t, l.want, hashes(w.update(l.list)), l.why)
	}
}

// listOnly is a torrent client whose list fails while down is set.
type listOnly struct {
	Client
	down bool
}

func (c *listOnly) List(context.Context, ...string) ([]domain.Torrent, error) {
	if c.down {
		return nil, domain.ErrTorrentClientUnavailable
	}
	return nil, nil
}

// A server that never had a torrent client (the default URL is a guess)
// is told so once, as information; a client that answered and then went
// away is a warning, once per outage.
func TestWatcherWarnsOnlyAboutAClientThatWasThere(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	c := &listOnly{down: true}
	w := NewWatcher(c, WatchOptions{Logger: slog.New(slog.NewTextHandler(&logs, nil)), Events: noEvents{}})
	ctx := context.Background()
	w.Poll(ctx)
	w.Poll(ctx)
	assert.Equal(t, 1, strings.Count(logs.String(), "level=INFO msg=\"no torrent client answers"), logs.String())
	assert.NotContains(t, logs.String(), "level=WARN")

	c.down = false
	w.Poll(ctx)
	c.down = true
	w.Poll(ctx)
	w.Poll(ctx)
	assert.Equal(t, 1, strings.Count(logs.String(), "level=WARN"), logs.String())
}

// noEvents drops what the watcher publishes.
type noEvents struct{}

func (noEvents) Publish(domain.Event) {}
