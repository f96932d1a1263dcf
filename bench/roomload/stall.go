package roomload

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	fws "github.com/fasthttp/websocket"

	"mediateka/bench/measure"
)

// chatterEvery is how often the stalled room's player sends its large
// playlist: 15 a second, under the server's limit of 20 per connection.
const chatterEvery = time.Second / 15

// stalled is the remote that never reads, in the first room, and what
// feeds it: that room's player sends a playlist of about 60 KB every
// chatterEvery, so its queue fills within seconds.
type stalled struct {
	conn    *fws.Conn
	begin   time.Time
	quit    chan struct{}
	wg      sync.WaitGroup
	dropped atomic.Int64 // ns after begin; 0 while connected
}

func (l *load) startStall(ctx context.Context) (*stalled, error) {
	r := l.rooms[0]
	conn, err := dial(ctx, l.cfg.BaseURL, "remote", r.name, measure.StallingDial)
	if err != nil {
		return nil, err
	}
	s := &stalled{conn: conn, begin: time.Now(), quit: make(chan struct{})}
	s.wg.Add(2)
	go s.chatter(r)
	go s.watch(l.cfg.BaseURL, r.name)
	return s, nil
}

// bigPlaylist is a playlist_update of about 60 KB.
func bigPlaylist() []byte {
	files := make([]string, 1000)
	for i := range files {
		files[i] = fmt.Sprintf("/library/%04d/%s.mkv", i, strings.Repeat("x", 42))
	}
	raw, _ := json.Marshal(map[string]any{"event": "playlist_update", "files": files})
	return raw
}

func (s *stalled) chatter(r *room) {
	defer s.wg.Done()
	msg := bigPlaylist()
	t := time.NewTicker(chatterEvery)
	defer t.Stop()
	for {
		select {
		case <-s.quit:
			return
		case <-t.C:
			if r.playerSays(msg) != nil {
				return
			}
		}
	}
}

// watch polls the room's status until it counts one remote: the server
// dropped the stalled one.
func (s *stalled) watch(base, room string) {
	defer s.wg.Done()
	client := &http.Client{Timeout: 5 * time.Second}
	defer client.CloseIdleConnections()
	t := time.NewTicker(100 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-s.quit:
			return
		case <-t.C:
		}
		var st struct {
			Remotes int `json:"remotes"`
		}
		resp, err := client.Get(base + "/api/control/status?room=" + url.QueryEscape(room))
		if err != nil {
			continue
		}
		err = json.NewDecoder(resp.Body).Decode(&st)
		_ = resp.Body.Close()
		if err == nil && st.Remotes < 2 {
			s.dropped.Store(int64(time.Since(s.begin)))
			return
		}
	}
}

// stop ends the feeding and the watching, closes the stalled connection
// and says when the server dropped it (0: it did not).
func (s *stalled) stop() time.Duration {
	close(s.quit)
	s.wg.Wait()
	_ = s.conn.Close()
	return time.Duration(s.dropped.Load())
}
