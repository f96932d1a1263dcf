package torrents

import (
	"context"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"

	"mediateka/domain"
	"mediateka/usecase/torrent"
)

// client is a Service that records what it is asked.
type client struct {
	mu    sync.Mutex
	asked []string
}

func (c *client) note(s string) {
	c.mu.Lock()
	c.asked = append(c.asked, s)
	c.mu.Unlock()
}

func (c *client) List(context.Context) ([]domain.Torrent, error) {
	c.note("list")
	return nil, nil
}

func (c *client) Download(_ context.Context, req torrent.DownloadRequest) (torrent.Added, error) {
	c.note("download " + req.URL)
	return torrent.Added{Hash: "0123456789abcdef0123456789abcdef01234567"}, nil
}

func (c *client) Control(_ context.Context, a torrent.Action, name string) ([]domain.Torrent, error) {
	c.note(string(a) + " " + name)
	return []domain.Torrent{{Name: name}}, nil
}

func TestACallerWithoutAnAccountIsAskedToLinkAndTheClientIsNotAsked(t *testing.T) {
	t.Parallel()
	const magnet = "magnet:?xt=urn:btih:0123456789abcdef0123456789abcdef01234567&dn=X"
	c := &client{}
	p := New(c, nil)
	unlinked := func(lang string) context.Context {
		return domain.WithCaller(context.Background(), domain.Caller{Role: domain.RoleUser, Lang: lang})
	}
	for msg, want := range map[string]string{
		magnet:               "Link your media server account first: /link CODE",
		"download " + magnet: "Link your media server account first: /link CODE",
		"list torrents":      "Link your media server account first: /link CODE",
		"what's downloading": "Link your media server account first: /link CODE",
		"pause Some.Film":    "Only an administrator of the library can do that.",
	} {
		got, err := p.Handle(unlinked("en"), msg)
		assert.NoError(t, err)
		assert.Equal(t, want, got, msg)
	}
	got, _ := p.Handle(unlinked("ru"), "скачай "+magnet)
	assert.Equal(t, "Сначала привяжите аккаунт медиатеки: /link КОД", got)
	assert.Empty(t, c.asked, "nothing reached the torrent client")

	linked := domain.WithCaller(context.Background(), domain.Caller{UserID: 2, Role: domain.RoleUser, Lang: "en"})
	got, _ = p.Handle(linked, magnet)
	assert.Equal(t, "Torrent added to the client (hash 0123456789abcdef0123456789abcdef01234567).", got)
	assert.Equal(t, []string{"download " + magnet}, c.asked, "an account adds as before")
}
