// Package torznab is a client of one Torznab indexer (Jackett, Prowlarr or
// any service speaking the Torznab API, an extension of Newznab): its
// capabilities (t=caps) and its searches (t=search, t=tvsearch, t=movie
// with q and cat), answered as RSS with torznab:attr elements. An indexer
// that answers an <error code= description=> element gives a
// *domain.IndexerError. The API key is sent in the query and never leaves
// this package: errors never carry the request's URL.
package torznab

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"mediateka/domain"
)

// DefaultTimeout bounds one call to an indexer when Config.Timeout is 0.
// Jackett's aggregate endpoint asks every tracker it knows, which can
// take several seconds.
const DefaultTimeout = 10 * time.Second

// maxAnswer bounds what is read of one answer: a feed of a few hundred
// items is well under a megabyte.
const maxAnswer = 16 << 20

// Search functions of the Torznab API.
const (
	FuncSearch = "search"
	FuncTV     = "tvsearch"
	FuncMovie  = "movie"
)

// Config says where an indexer is. URL is its Torznab endpoint as Jackett
// or Prowlarr show it (…/torznab or …/torznab/api; "/api" is added when
// the path does not end with it).
type Config struct {
	Name    string
	URL     string
	APIKey  string
	Timeout time.Duration
}

// Query is one search: Func one of FuncSearch, FuncTV, FuncMovie; Text the
// words; Cats Torznab category ids (2000 movies, 5000 TV …), none for all.
type Query struct {
	Func string
	Text string
	Cats []int
}

// Find is Search for the torrent use case: a movie is sought with
// t=movie, a series with t=tvsearch, anything else with t=search.
func (c *Client) Find(ctx context.Context, q domain.TorrentQuery) ([]domain.TorrentRelease, error) {
	fn := FuncSearch
	switch q.Kind {
	case domain.MediaMovie:
		fn = FuncMovie
	case domain.MediaSeries:
		fn = FuncTV
	}
	return c.Search(ctx, Query{Func: fn, Text: q.Text, Cats: q.Cats})
}

// Client talks to one indexer. It is safe for concurrent use; the
// indexer's capabilities are asked once and remembered.
type Client struct {
	name    string
	base    *url.URL
	apikey  string
	timeout time.Duration
	http    *http.Client

	mu   sync.Mutex
	caps *Caps
}

// New checks the config and builds the client.
func New(cfg Config) (*Client, error) {
	u, err := url.Parse(strings.TrimSpace(cfg.URL))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("indexer %q: url must be an http(s) URL", cfg.Name)
	}
	if !strings.HasSuffix(strings.TrimSuffix(u.Path, "/"), "/api") {
		u = u.JoinPath("api")
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	// No proxy from the environment: indexers usually sit on the LAN.
	tr := &http.Transport{Proxy: nil, MaxIdleConnsPerHost: 4, IdleConnTimeout: 90 * time.Second}
	return &Client{name: cfg.Name, base: u, apikey: cfg.APIKey, timeout: cfg.Timeout,
		http: &http.Client{Transport: tr, Timeout: cfg.Timeout}}, nil
}

// Name is the indexer's name from the config.
func (c *Client) Name() string { return c.name }

// Close drops idle connections.
func (c *Client) Close() { c.http.CloseIdleConnections() }

// Caps returns the indexer's capabilities, asking it once; a failed ask
// is not remembered.
func (c *Client) Caps(ctx context.Context) (Caps, error) {
	c.mu.Lock()
	if c.caps != nil {
		defer c.mu.Unlock()
		return *c.caps, nil
	}
	c.mu.Unlock()
	body, err := c.get(ctx, url.Values{"t": {"caps"}})
	if err != nil {
		return Caps{}, err
	}
	caps, err := parseCaps(body)
	if err != nil {
		return Caps{}, fmt.Errorf("indexer %s: %w", c.name, err)
	}
	c.mu.Lock()
	c.caps = &caps
	c.mu.Unlock()
	return caps, nil
}

// Search runs q. A function the indexer's capabilities do not offer falls
// back to t=search with the same words and categories (every indexer has
// it); when the capabilities cannot be read, q is sent as it is. The
// timeout bounds the whole search, the first ask for the capabilities
// included.
func (c *Client) Search(ctx context.Context, q Query) ([]domain.TorrentRelease, error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	fn := q.Func
	if fn == "" {
		fn = FuncSearch
	}
	if caps, err := c.Caps(ctx); err == nil && !caps.Offers(fn) {
		fn = FuncSearch
	}
	v := url.Values{"t": {fn}, "q": {q.Text}}
	if len(q.Cats) > 0 {
		cats := make([]string, len(q.Cats))
		for i, n := range q.Cats {
			cats[i] = strconv.Itoa(n)
		}
		v.Set("cat", strings.Join(cats, ","))
	}
	body, err := c.get(ctx, v)
	if err != nil {
		return nil, err
	}
	items, err := parseFeed(body, c.name)
	if err != nil {
		return nil, fmt.Errorf("indexer %s: %w", c.name, err)
	}
	return items, nil
}

// get asks the indexer with the API key added, within the timeout. An
// error element in the answer, whatever the status, is its IndexerError.
func (c *Client) get(ctx context.Context, v url.Values) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	if c.apikey != "" {
		v.Set("apikey", c.apikey)
	}
	u := *c.base
	u.RawQuery = v.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, fmt.Errorf("indexer %s: build request: %w", c.name, redact(err))
	}
	req.Header.Set("Accept", "application/rss+xml, application/xml, text/xml")
	resp, err := c.http.Do(req)
	if err != nil {
		if ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded) {
			return nil, fmt.Errorf("indexer %s did not answer within %s", c.name, c.timeout)
		}
		return nil, fmt.Errorf("indexer %s: %w", c.name, redact(err))
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer))
	if err != nil {
		return nil, fmt.Errorf("indexer %s: read answer: %w", c.name, redact(err))
	}
	if ie := parseError(body); ie != nil {
		return nil, fmt.Errorf("indexer %s: %w", c.name, ie)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("indexer %s answered HTTP %d", c.name, resp.StatusCode)
	}
	return body, nil
}

// redact drops the URL, which holds the API key, from a transport error.
func redact(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return fmt.Errorf("%s: %w", ue.Op, redact(ue.Err))
	}
	return err
}
